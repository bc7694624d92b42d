import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import { WordPressError } from '../connectors/wordpress/wp-client.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { manualDeliverable } from './manual-connector.ts';

export const EXECUTE_JOB = 'task.execute';
export const VERIFY_JOB = 'task.verify';

/**
 * Carries an approved task out: queued -> in_progress -> completed (with deliverables) or
 * failed (with error details), then schedules verification. A task whose worker died stays
 * in_progress until pg-boss retries the job, which then fails it rather than run it twice.
 *
 * With a WordPress connector the change is written to the site; what WordPress cannot do
 * (a theme template, a redirect) falls back to the manual deliverable, with the reason.
 */
export function createExecutor(deps: {
  tasks: Pick<TasksService, 'worker'>;
  connectors: Pick<ConnectorsService, 'forSite'>;
  queue: Pick<JobQueue, 'send'>;
  log: FastifyBaseLogger;
}) {
  const { worker } = deps.tasks;

  async function deliverablesFor(task: { id: string; site_id: string; type: string; target: string; configuration: Record<string, unknown> }) {
    const manual = manualDeliverable(task);
    const connector = await deps.connectors.forSite(task.site_id);
    if (!connector) {
      if (!manual) throw new Error(`no connector can carry out a ${task.type} task`);
      return [manual];
    }
    try {
      const outcome = await connector.apply(task);
      if ('applied' in outcome) return [outcome.applied];
      if (!manual) throw new Error(`WordPress cannot carry this task out (${outcome.unsupported}) and it has no manual deliverable`);
      return [{ ...manual, note: `Not changed through WordPress: ${outcome.unsupported}.` }];
    } finally {
      await connector.close();
    }
  }

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
        const deliverables = await deliverablesFor({ ...task, configuration: (task.configuration ?? {}) as Record<string, unknown> });
        await worker.finish(taskId, { deliverables });
        await deps.queue.send(VERIFY_JOB, { taskId, attempt: 1 });
      } catch (error) {
        deps.log.error({ err: error, taskId }, 'task execution failed');
        const message = error instanceof Error ? error.message : 'execution failed';
        const details = error instanceof WordPressError ? { connector: 'wordpress', http_status: error.status ?? null, wordpress_code: error.wpCode ?? null } : {};
        await worker.finish(taskId, { error: { message, ...details } });
      }
    },
  };
}

export type Executor = ReturnType<typeof createExecutor>;
