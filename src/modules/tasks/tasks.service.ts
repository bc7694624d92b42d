import type { TaskCategory, TaskStatus } from '../../db/types.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { EXECUTE_JOB } from '../execution/executor.ts';
import type { RollbacksRepo } from '../rollbacks/rollbacks.repo.ts';
import type { SitesService } from '../sites/sites.service.ts';
import { TRANSITIONS } from './state-machine.ts';
import type { TasksRepo } from './tasks.repo.ts';

interface ListQuery {
  site_id?: string | undefined;
  status?: TaskStatus | undefined;
  category?: TaskCategory | undefined;
  page?: number | undefined;
  page_size?: number | undefined;
}

export function createTasksService(deps: {
  repo: TasksRepo;
  sites: Pick<SitesService, 'getSite'>;
  queue: Pick<JobQueue, 'send'>;
  rollbacks: Pick<RollbacksRepo, 'latestFor'>;
}) {
  const { repo } = deps;

  /** A site filter naming another user's site is a 404, as the site itself would be. */
  async function checkSite(ownerId: string, siteId: string | undefined) {
    if (siteId) await deps.sites.getSite(ownerId, siteId);
  }

  async function page(ownerId: string, query: ListQuery, order: 'newest' | 'priority') {
    await checkSite(ownerId, query.site_id);
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? 20;
    const filter = { siteId: query.site_id, status: query.status, category: query.category };
    const { items, total } = await repo.page(ownerId, filter, order, page, pageSize);
    return { items, total, page, page_size: pageSize };
  }

  /** Approve or cancel: 200 with the new status, 409 naming the current one, 404 if not the caller's. */
  async function act(ownerId: string, taskId: string, action: 'approve' | 'cancel') {
    const status = await repo.transition(ownerId, taskId, action, `user:${ownerId}`);
    if (status) {
      // Queued after the approval is committed, so the worker finds the task queued.
      if (action === 'approve') await deps.queue.send(EXECUTE_JOB, { taskId });
      return { id: taskId, status, message: TRANSITIONS[action].message };
    }
    const current = await repo.findStatus(ownerId, taskId);
    if (!current) throw notFound('Task');
    throw conflict(`The task is ${current}; it can be ${action === 'approve' ? 'approved' : 'cancelled'} only when ${TRANSITIONS[action].from.join(' or ')}`);
  }

  return {
    list: (ownerId: string, query: ListQuery) => page(ownerId, query, 'newest'),
    awaitingApproval: (ownerId: string, query: ListQuery) => page(ownerId, { ...query, status: 'awaiting_approval', category: undefined }, 'priority'),
    approve: (ownerId: string, taskId: string) => act(ownerId, taskId, 'approve'),
    cancel: (ownerId: string, taskId: string) => act(ownerId, taskId, 'cancel'),

    async detail(ownerId: string, taskId: string) {
      const task = await repo.findDetail(ownerId, taskId);
      if (!task) throw notFound('Task');
      const [history, verification, rollback] = await Promise.all([repo.history(taskId), repo.verification(taskId), deps.rollbacks.latestFor(taskId)]);
      return {
        ...task,
        execution_history: history.map((e) => ({ from: e.from_status, to: e.to_status, actor: e.actor, at: e.at, detail: e.detail })),
        verification: verification ?? null,
        rollback: rollback ?? null,
      };
    },

    /** Whether the task's changes are live: pending until checked, not_applicable for tasks that will not run. */
    async verificationStatus(ownerId: string, taskId: string) {
      const task = await repo.findDetail(ownerId, taskId);
      if (!task) throw notFound('Task');
      const config = (task.configuration ?? {}) as { url?: unknown };
      const page = typeof config.url === 'string' ? config.url : /^https?:\/\//.test(task.target) ? task.target : undefined;
      const [verification, impact] = await Promise.all([
        repo.verification(taskId),
        page && (task.status === 'completed' || task.status === 'rolled_back') ? repo.impact(taskId, page) : undefined,
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
      start: (taskId: string) => repo.transition(null, taskId, 'start', 'worker:executor'),
      finish: (taskId: string, outcome: { deliverables: unknown } | { error: unknown }) => repo.finish(taskId, outcome),
      saveVerification: (taskId: string, v: Parameters<TasksRepo['saveVerification']>[1]) => repo.saveVerification(taskId, v),
      verification: (taskId: string) => repo.verification(taskId),
    },

    /** For the strategy agent: stores a proposal that passed its gates (undefined: an open duplicate exists). */
    propose: (proposal: Parameters<TasksRepo['insertProposal']>[0]) => repo.insertProposal(proposal),

    /** For the strategy agent: its proposals still awaiting approval on a site. */
    openProposals: (siteId: string) => repo.openProposals(siteId),
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
