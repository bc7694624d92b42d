import type { TaskCategory, TaskPriority, TaskStatus } from '../../db/types.ts';
import { conflict, notFound, ProblemError } from '../../lib/problem.ts';
import type { JobSender } from '../../jobs/queue.ts';
import type { Transact } from '../../db/transact.ts';
import type { Kysely } from 'kysely';
import type { DB, ExpectedClicksColumn } from '../../db/types.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { EventEmitter } from '../events/events.service.ts';
import type { SearchDataService } from '../search-data/search-data.service.ts';
import { claimsOf, isBrief, pageOf } from '../task-types/index.ts';
import { isRestorable } from '../connectors/connector.types.ts';
import { OPEN_STATUSES, statusInWords, TRANSITIONS } from './state-machine.ts';
import type { TaskOrder, TaskSeek, TasksRepo } from './tasks.repo.ts';
import { fileNamePart, keysetBatches, mapBatches, type CsvColumn, type CsvExport } from '../../lib/csv-export.ts';
import { EXECUTOR_ACTOR } from '../../jobs/worker-instance.ts';

interface ListQuery {
  site_id?: string | undefined;
  workspace_id?: string | undefined;
  status?: TaskStatus | undefined;
  category?: TaskCategory | undefined;
  type?: string | undefined;
  priority?: TaskPriority | undefined;
  page?: number | undefined;
  page_size?: number | undefined;
  order?: 'priority' | 'expected_clicks' | undefined;
}

/**
 * The query a task moves on its page (a quick win's, a brief's for links): its impact is read
 * for that query. A page-wide change (a title searchers skip, a refresh) is read for the page.
 */
function queryOf(configuration: unknown): string | undefined {
  const { keyword } = (configuration ?? {}) as { keyword?: unknown };
  return typeof keyword === 'string' ? keyword : undefined;
}

/** '<url>#title' claims in words: "the title of https://…", "the title of 3 pages". */
function claimsInWords(claims: readonly string[]): string {
  const fields = [...new Set(claims.map((c) => c.slice(c.lastIndexOf('#') + 1)))];
  const field = fields.map((f) => (f.startsWith('content:') ? 'the content' : `the ${f.replaceAll('_', ' ')}`)).join(' and ');
  return claims.length === 1 ? `${field} of ${claims[0]!.slice(0, claims[0]!.lastIndexOf('#'))}` : `${field} of ${claims.length} of its pages`;
}

export function createTasksService(deps: {
  repo: TasksRepo;
  sites: Pick<SitesService, 'getSite' | 'requireAccess'>;
  queue: JobSender;
  transact: Transact;
  /** Task events (completed, failed, verified, rolled back), emitted in the transaction of the move. */
  events: EventEmitter;
  search: Pick<SearchDataService, 'impactAround'>;
  /** The task's latest rollback, for its details (the rollbacks module records them). */
  latestRollback: (taskId: string) => Promise<unknown>;
}) {
  const { repo } = deps;

  /** The page's search metrics before and after the task completed (undefined before it completed, or without data). */
  async function impactOf(taskId: string, page: string, query: string | undefined, expected: unknown) {
    const done = await repo.completedAt(taskId);
    const impact = done && (await deps.search.impactAround(done.site_id, page, done.at, query));
    if (!impact) return undefined;
    // The change in clicks, brought to 28 days, beside what the proposal expected.
    const realised = Math.round(((impact.after.clicks - impact.before.clicks) * 28) / impact.window_days);
    return { ...impact, realised_clicks_28d: realised, expected_clicks: (expected ?? null) as ExpectedClicksColumn | null };
  }

  /** A site filter naming another user's site is a 404, as the site itself would be. */
  async function checkSite(ownerId: string, siteId: string | undefined) {
    if (siteId) await deps.sites.getSite(ownerId, siteId);
  }

  /** The list's filter, once the site and workspace it names are checked (404 for one the caller may not see). */
  async function filterOf(ownerId: string, query: ListQuery) {
    await checkSite(ownerId, query.site_id);
    if (query.workspace_id && !(await repo.isMember(ownerId, query.workspace_id))) throw notFound('Workspace');
    return { siteId: query.site_id, workspaceId: query.workspace_id, status: query.status, category: query.category, type: query.type, priority: query.priority };
  }

  async function page(ownerId: string, query: ListQuery, order: TaskOrder) {
    const filter = await filterOf(ownerId, query);
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? 20;
    const { items, total } = await repo.page(ownerId, filter, order, page, pageSize);
    return { items, total, page, page_size: pageSize };
  }

  /**
   * Queues a task's execution in the transaction `trx` (it exists only if that commits). A send
   * that fails rolls the transaction back: the caller is told to try again, and nothing changed.
   */
  async function queueExecution(trx: Kysely<DB>, taskId: string) {
    try {
      await deps.queue.send('task.execute', { taskId }, { tx: trx });
    } catch (error) {
      throw new ProblemError('service_unavailable', 'The task could not be queued, so nothing was changed; try again in a moment', {
        headers: { 'retry-after': '5' }, cause: error,
      });
    }
  }

  /** What each action a user takes is called in a 409's words. */
  const ACTION_WORDS = { approve: 'approved', cancel: 'cancelled', retry: 'tried again' } as const;

  /** Approve, cancel or retry: 200 with the new status, 409 saying why not, 404 if not the caller's. */
  async function act(ownerId: string, taskId: string, action: 'approve' | 'cancel' | 'retry', detail?: { reason: string }) {
    await deps.sites.requireAccess(ownerId, { task: taskId }, 'editor');
    // The transition and its execution job commit together: never a queued task that no job will run.
    const status = await deps.transact(async (trx) => {
      // A failed task runs again only if no open task took one of its fields meanwhile (one change per field of a page).
      if (action === 'retry') {
        const other = await repo.claimedMeanwhile(trx, ownerId, taskId);
        if (other) throw conflict(`The open task "${other.title}" now changes the same field of this page: approve or cancel that one first, then try this one again`);
      }
      const moved = await repo.transition(ownerId, taskId, action, `user:${ownerId}`, detail, {}, trx);
      if (moved === 'queued') await queueExecution(trx, taskId);
      return moved;
    });
    if (status) return { id: taskId, status, message: TRANSITIONS[action].message };
    const current = await repo.findStatus(ownerId, taskId);
    if (!current) throw notFound('Task');
    if (action === 'retry' && current === 'failed') {
      throw conflict('This task cannot simply be run again: its failure may have left pages changed (see its error). Check the pages it names, then approve a new task if one is still needed');
    }
    // In words, with the status itself in brackets (the contract: the current status in the detail).
    throw conflict(`The task is ${statusInWords(current)} (${current}); it can be ${ACTION_WORDS[action]} only while ${TRANSITIONS[action].from.map(statusInWords).join(' or ')}`);
  }

  return {
    list: (ownerId: string, query: ListQuery) => page(ownerId, query, 'newest'),
    /** Every task the list's filter selects as a CSV file, newest first, each with its whole history in one cell. */
    async exportAll(ownerId: string, query: ListQuery): Promise<CsvExport<TaskExportRow>> {
      const filter = await filterOf(ownerId, query);
      const site = query.site_id ? await deps.sites.getSite(ownerId, query.site_id) : undefined;
      return {
        filename: `${site ? fileNamePart(site.domain) : 'all-sites'}-tasks${query.status ? `-${query.status}` : ''}.csv`,
        columns: TASK_COLUMNS,
        batches: mapBatches(keysetBatches(
          (after: TaskSeek | undefined, limit: number) => repo.exportPage(ownerId, filter, after, limit),
          (last) => ({ created_at: last.seek_created_at, id: last.id }),
          1_000,
        ), async (tasks) => {
          const events = await repo.eventsOf(tasks.map((t) => t.id));
          const history = new Map<string, string[]>();
          for (const e of events) history.set(e.task_id, [...(history.get(e.task_id) ?? []), historyLine(e)]);
          return tasks.map((t) => ({ ...t, history: history.get(t.id) ?? [] }));
        }),
      };
    },
    awaitingApproval: (ownerId: string, query: ListQuery) => page(ownerId, { ...query, status: 'awaiting_approval' }, query.order ?? 'priority'),
    approve: (ownerId: string, taskId: string) => act(ownerId, taskId, 'approve'),
    /** The reason, when given, is kept in the history with the transition. */
    cancel: (ownerId: string, taskId: string, reason?: string) => act(ownerId, taskId, 'cancel', reason?.trim() ? { reason: reason.trim() } : undefined),
    /** A failed task whose failure left the site as it was, queued again: a new attempt in its history. */
    retry: (ownerId: string, taskId: string) => act(ownerId, taskId, 'retry'),

    async detail(ownerId: string, taskId: string) {
      const task = await repo.findDetail(ownerId, taskId);
      if (!task) throw notFound('Task');
      const [history, verification, rollback] = await Promise.all([repo.history(taskId), repo.verification(taskId), deps.latestRollback(taskId)]);
      const deliverables = Array.isArray(task.deliverables) ? task.deliverables : [];
      return {
        ...task,
        execution_history: history.map((e) => ({ from: e.from_status, to: e.to_status, actor: e.actor, at: e.at, detail: e.detail })),
        verification: verification ?? null,
        rollback: rollback ?? null,
        outcome: isBrief(task) ? 'brief' as const : 'site_change' as const,
        can_roll_back: task.status === 'completed' && deliverables.some(isRestorable),
        can_retry: task.status === 'failed' && (task.error as { retryable?: unknown } | null)?.retryable === true,
      };
    },

    /** Whether the task's changes are live: pending until checked, not_applicable for tasks that will not run. */
    async verificationStatus(ownerId: string, taskId: string) {
      const task = await repo.findDetail(ownerId, taskId);
      if (!task) throw notFound('Task');
      // The page whose search metrics show the impact: the configuration's url, or a target that is a URL (not "keyword:...").
      const url = pageOf(task);
      const page = url !== task.target || /^https?:\/\//.test(url) ? url : undefined;
      const [verification, impact] = await Promise.all([
        repo.verification(taskId),
        page && (task.status === 'completed' || task.status === 'rolled_back') ? impactOf(taskId, page, queryOf(task.configuration), task.expected_clicks) : undefined,
      ]);
      if (verification) {
        return { task_id: taskId, status: verification.status, checks: verification.checks as object[], checked_at: verification.checked_at, impact: impact ?? null };
      }
      const closed = task.status === 'cancelled' || task.status === 'failed' || task.status === 'rolled_back';
      return { task_id: taskId, status: closed ? ('not_applicable' as const) : ('pending' as const), checks: [], checked_at: null, impact: impact ?? null };
    },

    /** For the executor and the verifier (internal actors, no owner). */
    worker: {
      find: (taskId: string) => repo.findForWork(taskId),
      /** queued -> in_progress, owned by this execution attempt (`lease`). */
      start: (taskId: string, lease: string) => repo.transition(null, taskId, 'start', EXECUTOR_ACTOR, undefined, { lease }),
      /** Ends the task failed with its error (and what it left changed), and says so (task.failed) in the same transaction. */
      finish: (taskId: string, outcome: { error: unknown; changed?: unknown[] }, lease?: string) =>
        deps.transact(async (trx) => {
          const moved = await repo.finish(taskId, outcome, lease, trx);
          if (moved) await deps.events.emit(trx, { type: 'task.failed', taskId });
          return moved;
        }),
      /** in_progress -> completed with its deliverables, and its verification scheduled, in one transaction; false once another attempt owns the task. */
      complete: (taskId: string, deliverables: unknown, lease: string) =>
        deps.transact(async (trx) => {
          if (!(await repo.finish(taskId, { deliverables }, lease, trx))) return false;
          await deps.queue.send('task.verify', { taskId, attempt: 1 }, { tx: trx });
          await deps.events.emit(trx, { type: 'task.completed', taskId });
          return true;
        }),
      saveProgress: (taskId: string, lease: string, done: unknown[]) => repo.saveProgress(taskId, lease, done),
      noteFailure: (taskId: string, error: unknown, stillChanged: unknown[]) => repo.noteFailure(taskId, error, stillChanged),
      resume: (taskId: string, lease: string) => repo.resume(taskId, lease),
      /** Records a verification; one that says the change is live emits task.verified with it. */
      saveVerification: (taskId: string, v: Parameters<TasksRepo['saveVerification']>[1]) =>
        deps.transact(async (trx) => {
          await repo.saveVerification(taskId, v, trx);
          if (v.status === 'verified') await deps.events.emit(trx, { type: 'task.verified', taskId });
        }),
      verification: (taskId: string) => repo.verification(taskId),
    },

    /** For rollbacks: the owner's task with its deliverables (undefined when not theirs). */
    findForRollback: (ownerId: string, taskId: string) => repo.findDetail(ownerId, taskId),
    /** completed -> rolled_back through the state machine, in the rollback's transaction; false when the task left completed. */
    markRolledBack: async (taskId: string, actor: string, rollbackId: string, trx: Kysely<DB>) => {
      if ((await repo.transition(null, taskId, 'rollback', actor, { rollback_id: rollbackId }, {}, trx)) === undefined) return false;
      await deps.events.emit(trx, { type: 'task.rolled_back', taskId });
      return true;
    },

    /**
     * For the agents: stores a proposal that passed its gates, claiming the page fields it
     * changes; or says, in words, why not (an open task of its type and target, or one that
     * already changes one of those fields).
     */
    async propose(proposal: Omit<Parameters<TasksRepo['insertProposal']>[0], 'claims'>): Promise<{ id: string } | { refused: string }> {
      const claims = claimsOf(proposal);
      const id = await repo.insertProposal({ ...proposal, claims });
      if (id) return { id };
      const other = await repo.blocking(proposal.siteId, proposal.type, proposal.target, claims);
      if (other?.kind === 'claims') {
        return { refused: `the open task "${other.title}" already changes ${claimsInWords(other.shared)}: one change to a field of a page at a time` };
      }
      return { refused: 'an open task of this type already covers this target' };
    },
    proposedFromAudit: (siteId: string, type: string, target: string, auditId: string) => repo.openFromAudit(siteId, type, target, auditId),

    /** For the strategy agent: every task of a site not yet closed (proposed, queued or running): the pages they will change. */
    openTasks: (siteId: string) => repo.openTasks(siteId, OPEN_STATUSES),
    /** For the strategy agent: withdraws a proposal through the cancel transition, the reason in its history. */
    withdraw: (taskId: string, reason: string) => repo.transition(null, taskId, 'cancel', 'agent:strategy', { reason }),

    /** Task counts by status for a site the caller has already been checked to own. */
    async countsBySite(siteId: string): Promise<Record<string, number>> {
      const rows = await repo.countsBySite(siteId);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;

type TaskExportRow = Awaited<ReturnType<TasksRepo['exportPage']>>[number] & { history: string[] };
const iso = (at: Date | string) => new Date(at).toISOString();
/** One move of a task in words: "2026-11-20T10:04:00.000Z awaiting_approval → queued by ana@example.com (reason: ...)". */
function historyLine(e: Awaited<ReturnType<TasksRepo['eventsOf']>>[number]): string {
  const who = e.email ?? e.actor;
  const reason = (e.detail as { reason?: unknown } | null)?.reason;
  return `${iso(e.at)} ${e.from_status ? `${e.from_status} → ` : ''}${e.to_status} by ${who}${typeof reason === 'string' ? ` (reason: ${reason})` : ''}`;
}
const TASK_COLUMNS: Array<CsvColumn<TaskExportRow>> = [
  { header: 'id', value: (t) => t.id },
  { header: 'site', value: (t) => t.domain },
  { header: 'type', value: (t) => t.type },
  { header: 'category', value: (t) => t.category },
  { header: 'title', value: (t) => t.title },
  { header: 'target', value: (t) => t.target },
  { header: 'status', value: (t) => t.status },
  { header: 'priority', value: (t) => t.priority },
  { header: 'expected_clicks_28d', value: (t) => (t.expected_clicks as { clicks?: number } | null)?.clicks },
  { header: 'created_at', value: (t) => iso(t.created_at) },
  { header: 'updated_at', value: (t) => iso(t.updated_at) },
  { header: 'history', value: (t) => t.history.join('\n') },
];
