import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ConnectorError } from '../connectors/connector-error.ts';
import { isRestorable, type AppliedDeliverable, type ManualDeliverable, type SiteConnector, type TaskToApply } from '../connectors/connector.types.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import { manualDeliverable } from '../connectors/manual/manual-connector.ts';
import { isBrief, pagesOf } from '../task-types/index.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { Metrics } from '../../lib/metrics.ts';

export const EXECUTE_JOB = 'task.execute' as const;
export const VERIFY_JOB = 'task.verify' as const;

/** How often a task covering several pages records the pages done: a write per page cost a quarter of the execution time on PGlite. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Carries an approved task out: queued -> in_progress -> completed (with deliverables) or
 * failed (with error details), then schedules verification. A task whose worker died stays
 * in_progress until pg-boss retries the job: a one-page task is then failed rather than run
 * twice; a task covering several pages resumes after the pages recorded as done.
 *
 * With a WordPress connector the change is written to the site; what WordPress cannot do
 * (a theme template, a redirect) falls back to the manual deliverable, with the reason.
 */
export function createExecutor(deps: {
  tasks: Pick<TasksService, 'worker'>;
  connectors: Pick<ConnectorsService, 'forSite'>;
  log: FastifyBaseLogger;
  progressEveryMs?: number;
  metrics?: Pick<Metrics, 'connector'>;
}) {
  const progressEvery = deps.progressEveryMs ?? PROGRESS_EVERY_MS;
  const { worker } = deps.tasks;
  type Deliverable = AppliedDeliverable | ManualDeliverable;

  async function applyOne(connector: SiteConnector, task: TaskToApply, resumed: boolean): Promise<Deliverable> {
    // A type no connector changes the site for (a brief, a page to write) is a deliverable for a
    // person whatever the site's connector: it is handed over, never looked for on the site.
    if (isBrief(task)) {
      const brief = manualDeliverable(task);
      if (!brief) throw new Error(`a ${task.type} task has no deliverable`);
      return brief;
    }
    let outcome;
    try {
      outcome = await connector.apply(task, { resumed });
    } catch (error) {
      deps.metrics?.connector(connector.type, 'failed');
      throw error;
    }
    deps.metrics?.connector(connector.type, 'completed');
    if ('applied' in outcome) return outcome.applied;
    // What the site's connector cannot do is left to a person, with the reason.
    const manual = manualDeliverable(task);
    if (!manual) throw new Error(`${connector.label} cannot carry this task out (${outcome.unsupported}) and it has no manual deliverable`);
    return { ...manual, note: `Not changed through ${connector.label}: ${outcome.unsupported}.` };
  }

  /**
   * A task covering several pages is carried out page by page, the pages done recorded about
   * once a second (a retried attempt resumes after them). If one page fails, the task is
   * failed and the pages already changed are put back, so it leaves the site as it was.
   */
  async function deliverablesFor(task: TaskToApply & { site_id: string }, lease: string, progress: Deliverable[], resumed: boolean) {
    const connector = await deps.connectors.forSite(task.site_id);
    const done = [...progress];
    let saved = done.length;
    let savedAt = Date.now();
    try {
      const pages = pagesOf(task);
      const already = new Set(done.map((d) => d.url));
      for (const [i, page] of pages.entries()) {
        if (already.has(page.target)) continue;
        try {
          done.push(await applyOne(connector, page, resumed));
        } catch (error) {
          if (pages.length === 1) throw error;
          const failure = `page ${i + 1} of ${pages.length} (${page.target}) failed: ${error instanceof Error ? error.message : String(error)}`;
          const details = error instanceof ConnectorError ? error.details() : {};
          const changed = done.filter(isRestorable).filter((d) => d.changes.length > 0);
          // Failed first, under this attempt's lease: an attempt presumed dead must not put back pages the
          // attempt that replaced it is recording (and would then complete with).
          if (!(await worker.finish(task.id, { error: { message: `${failure}; putting back the ${changed.length} page(s) changed before it`, ...details } }, lease))) throw new LeaseLost();
          const undone = await Promise.allSettled(changed.map((d) => connector.restore(d, { force: false })));
          const notUndone = changed.filter((_, k) => undone[k]!.status === 'rejected' || (undone[k] as PromiseFulfilledResult<{ conflicts: unknown[] }>).value.conflicts.length > 0);
          const message = `${failure}; ${notUndone.length === 0 ? `the ${changed.length} page(s) changed before it were put back` : `${notUndone.length} page(s) changed before it could not be put back: ${notUndone.map((d) => d.url).join(', ')}`}`;
          // The deliverables left are the pages still changed on the site; with none, the task may simply be run again.
          await worker.noteFailure(task.id, { message, ...details, retryable: notUndone.length === 0 }, notUndone);
          throw new AlreadyFailed();
        }
        // Recorded about once a second (not per page): a crash loses at most that second's records, and the
        // resumed attempt finds those pages already written (the connector then records the planned before).
        if (pages.length > 1 && Date.now() - savedAt >= progressEvery) {
          const recorded = await worker.saveProgress(task.id, lease, done.slice(saved)).catch((error: unknown) => {
            // Best effort: the finish writes every page; a lost record only widens what a crash could lose.
            deps.log.warn({ err: error, taskId: task.id }, 'task progress not recorded');
            return 'unrecorded' as const;
          });
          // Refused: another attempt owns the task now (this one was presumed dead) and carries on from what is saved.
          if (recorded === false) throw new LeaseLost();
          if (recorded === true) saved = done.length;
          savedAt = Date.now();
        }
      }
      return done;
    } finally {
      await connector.close();
    }
  }

  return {
    /** Every attempt died (the job's retries are spent): the task is failed rather than left in progress for ever. */
    async abandonTask(taskId: string) {
      const ended = await worker.finish(taskId, { error: { message: 'Every attempt to carry this task out stopped before it ended; check the pages it covers (its execution history says what was recorded) and approve a new task if needed.', retryable: false } });
      if (ended) deps.log.error({ taskId }, 'task abandoned: every execution attempt died');
    },

    async runTask(taskId: string) {
      const task = await worker.find(taskId);
      if (!task) return;
      const lease = randomUUID();
      let progress: Deliverable[] = [];
      if (task.status === 'in_progress') {
        if (pagesOf(task).length === 1) {
          // A previous attempt died mid-way on its only page: what it did on the site is unknown, so do not redo it blindly.
          await worker.finish(taskId, { error: { message: 'The worker stopped while executing this task; check the page and approve a new task if needed.', retryable: false } });
          return;
        }
        // A task covering several pages resumes after the pages the stopped attempt recorded.
        const resumed = await worker.resume(taskId, lease);
        if (!resumed) return;
        progress = Array.isArray(resumed.deliverables) ? (resumed.deliverables as Deliverable[]) : [];
      } else if (!(await worker.start(taskId, lease))) {
        return; // cancelled meanwhile, or already taken
      }
      try {
        const deliverables = await deliverablesFor(task, lease, progress, task.status === 'in_progress');
        // Completed and its verification scheduled in one transaction: never a completed task nothing verifies.
        const completed = await worker.complete(taskId, deliverables, lease).catch(async (error: unknown) => {
          // The site has changed but the record of it could not be written: the task fails saying so,
          // with what changed (and how to put it back) as its deliverables.
          deps.log.error({ err: error, taskId }, 'task carried out, but its completion could not be recorded');
          const reason = { message: 'The change was made on the site, but its completion could not be recorded: check the page; what was changed is listed in the deliverables.', retryable: false };
          await worker.finish(taskId, { error: reason, changed: deliverables }, lease);
          throw new AlreadyFailed();
        });
        if (!completed) throw new LeaseLost();
      } catch (error) {
        if (error instanceof AlreadyFailed) return;
        if (error instanceof LeaseLost) {
          deps.log.warn({ taskId }, 'another execution attempt took this task over; this one stops without finishing it');
          return;
        }
        deps.log.error({ err: error, taskId }, 'task execution failed');
        const message = error instanceof Error ? error.message : 'execution failed';
        const details = error instanceof ConnectorError ? error.details() : {};
        // One page that failed was not changed (a connector that wrote and could not keep its change undoes it): its owner may run it again.
        await worker.finish(taskId, { error: { message, ...details, retryable: true } }, lease);
      }
    },
  };
}

/** This attempt no longer owns the task it was executing. */
class LeaseLost extends Error {}
/** The task was failed (and its changed pages put back) where the failure happened. */
class AlreadyFailed extends Error {}

export type Executor = ReturnType<typeof createExecutor>;
