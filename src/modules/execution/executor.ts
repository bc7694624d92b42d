import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { manualDeliverable } from './manual-connector.ts';

export const EXECUTE_JOB = 'task.execute';
export const VERIFY_JOB = 'task.verify';

/**
 * Carries an approved task out: queued -> in_progress -> completed (with deliverables) or
 * failed (with error details), then schedules verification. A task whose worker died stays
 * in_progress until pg-boss retries the job, which then fails it rather than run it twice.
 */
export function createExecutor(deps: { tasks: Pick<TasksService, 'worker'>; queue: Pick<JobQueue, 'send'>; log: FastifyBaseLogger }) {
  const { worker } = deps.tasks;
  return {
    async runTask(taskId: string) {
      const task = await worker.find(taskId);
      if (!task) return;
      if (task.status === 'in_progress') {
        // A previous attempt died mid-way: what it did on the site is unknown, so do not redo it blindly.
        await worker.finish(taskId, { error: { message: 'The worker stopped while executing this task; check the page and approve a new task if needed.' } });
        return;
      }
      if (!(await worker.start(taskId))) return; // cancelled meanwhile, or already taken
      try {
        const deliverable = manualDeliverable({ ...task, configuration: (task.configuration ?? {}) as Record<string, unknown> });
        if (!deliverable) throw new Error(`no connector can carry out a ${task.type} task yet`);
        await worker.finish(taskId, { deliverables: [deliverable] });
        await deps.queue.send(VERIFY_JOB, { taskId, attempt: 1 });
      } catch (error) {
        deps.log.error({ err: error, taskId }, 'task execution failed');
        await worker.finish(taskId, { error: { message: error instanceof Error ? error.message : 'execution failed' } });
      }
    },
  };
}

export type Executor = ReturnType<typeof createExecutor>;
