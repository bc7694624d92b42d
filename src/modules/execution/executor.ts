import type { FastifyBaseLogger } from 'fastify';
import type { JobSender } from '../../jobs/queue.ts';
import { ConnectorError } from '../connectors/connector-error.ts';
import { isRestorable, type AppliedDeliverable, type ManualDeliverable, type SiteConnector, type TaskToApply } from '../connectors/connector.types.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import { manualDeliverable } from '../connectors/manual/manual-connector.ts';
import { pagesOf } from '../task-types/index.ts';
import type { TasksService } from '../tasks/tasks.service.ts';

export const EXECUTE_JOB = 'task.execute' as const;
export const VERIFY_JOB = 'task.verify' as const;

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
  queue: JobSender;
  log: FastifyBaseLogger;
}) {
  const { worker } = deps.tasks;

  async function applyOne(connector: SiteConnector, task: TaskToApply): Promise<AppliedDeliverable | ManualDeliverable> {
    const outcome = await connector.apply(task);
    if ('applied' in outcome) return outcome.applied;
    // What the site's connector cannot do is left to a person, with the reason.
    const manual = manualDeliverable(task);
    if (!manual) throw new Error(`${connector.label} cannot carry this task out (${outcome.unsupported}) and it has no manual deliverable`);
    return { ...manual, note: `Not changed through ${connector.label}: ${outcome.unsupported}.` };
  }

  /**
   * A task covering several pages is carried out page by page. If one page fails, the pages
   * already changed are put back, so a failed task leaves the site as it was.
   */
  async function deliverablesFor(task: TaskToApply & { site_id: string }) {
    const connector = await deps.connectors.forSite(task.site_id);
    const done: Array<AppliedDeliverable | ManualDeliverable> = [];
    try {
      const pages = pagesOf(task);
      for (const [i, page] of pages.entries()) {
        try {
          done.push(await applyOne(connector, page));
        } catch (error) {
          if (pages.length === 1) throw error;
          const changed = done.filter(isRestorable).filter((d) => d.changes.length > 0);
          const undone = await Promise.allSettled(changed.map((d) => connector.restore(d, { force: false })));
          const notUndone = changed.filter((_, k) => undone[k]!.status === 'rejected' || (undone[k] as PromiseFulfilledResult<{ conflicts: unknown[] }>).value.conflicts.length > 0);
          const message = `page ${i + 1} of ${pages.length} (${page.target}) failed: ${error instanceof Error ? error.message : String(error)}; `
            + (notUndone.length === 0 ? `the ${changed.length} page(s) changed before it were put back` : `${notUndone.length} page(s) changed before it could not be put back: ${notUndone.map((d) => d.url).join(', ')}`);
          throw error instanceof ConnectorError ? Object.assign(error, { message }) : new Error(message, { cause: error });
        }
      }
      return done;
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
        const deliverables = await deliverablesFor(task);
        await worker.finish(taskId, { deliverables });
        await deps.queue.send(VERIFY_JOB, { taskId, attempt: 1 });
      } catch (error) {
        deps.log.error({ err: error, taskId }, 'task execution failed');
        const message = error instanceof Error ? error.message : 'execution failed';
        const details = error instanceof ConnectorError ? error.details() : {};
        await worker.finish(taskId, { error: { message, ...details } });
      }
    },
  };
}

export type Executor = ReturnType<typeof createExecutor>;
