import { atomically } from '../../db/transact.ts';
import { sql, type Kysely } from 'kysely';
import type { DB, TaskCategory, TaskPriority, TaskStatus } from '../../db/types.ts';
import { OPEN_STATUSES, PRIORITY_RANK, TRANSITIONS, type TaskAction } from './state-machine.ts';
import { isMemberOf, memberWorkspaces } from '../workspaces/access.repo.ts';
import { EXECUTOR_ACTOR } from '../../jobs/worker-instance.ts';

/** Where the tasks export goes on from: the last row read's creation time (PostgreSQL's text, to the microsecond) and id. */
export interface TaskSeek { created_at: string; id: string }

const SUMMARY = [
  'tasks.id', 'tasks.title', 'tasks.description', 'tasks.type', 'tasks.status', 'tasks.priority', 'tasks.site_id',
  'tasks.created_at', 'tasks.expected_clicks',
] as const;

export interface TaskFilter {
  siteId?: string | undefined;
  workspaceId?: string | undefined;
  status?: TaskStatus | undefined;
  category?: TaskCategory | undefined;
  type?: string | undefined;
  priority?: TaskPriority | undefined;
}

/** newest: the task list's order; priority: the approval queue's (the contract's); expected_clicks: the queue by worth. */
export type TaskOrder = 'newest' | 'priority' | 'expected_clicks';

const priorityRank = sql<number>`case tasks.priority ${sql.join(
  Object.entries(PRIORITY_RANK).map(([priority, rank]) => sql`when ${priority} then ${rank}`),
  sql` `,
)} end`;

/**
 * The lock under which a site's claims are checked and written (a transaction-scoped advisory
 * lock, in the two-key space: 'tasks' and the site, apart from the migrations' single-key lock).
 */
const lockSiteClaims = (trx: Kysely<DB>, siteId: string) => sql`select pg_advisory_xact_lock(hashtext('tasks.claims'), hashtext(${siteId}))`.execute(trx);

/** Every query joins the task's site and names its owner: another user's task reads as absent. */
export function createTasksRepo(db: Kysely<DB>) {
  const owned = (ownerId: string) =>
    db.selectFrom('tasks').innerJoin('sites', 'sites.id', 'tasks.site_id').where('sites.workspace_id', 'in', memberWorkspaces(db, ownerId));

  const filtered = (ownerId: string, filter: TaskFilter) => {
    let query = owned(ownerId);
    if (filter.siteId) query = query.where('tasks.site_id', '=', filter.siteId);
    if (filter.workspaceId) query = query.where('sites.workspace_id', '=', filter.workspaceId);
    if (filter.status) query = query.where('tasks.status', '=', filter.status);
    if (filter.category) query = query.where('tasks.category', '=', filter.category);
    if (filter.type) query = query.where('tasks.type', '=', filter.type);
    if (filter.priority) query = query.where('tasks.priority', '=', filter.priority);
    return query;
  };

  return {
    /** Whether the user is a member of the workspace (a filter naming another one is a 404). */
    isMember: (userId: string, workspaceId: string) => isMemberOf(db, userId, workspaceId),

    async page(ownerId: string, filter: TaskFilter, order: TaskOrder, page: number, pageSize: number) {
      let query = filtered(ownerId, filter).select(SUMMARY);
      if (order === 'newest') query = query.orderBy('tasks.created_at', 'desc');
      // Critical first (a site or page out of search loses everything, whatever its clicks say), then the most expected
      // clicks, tasks without an estimate (no search data, or none possible) last, then as the contract's order.
      if (order === 'expected_clicks') {
        query = query.orderBy(sql`tasks.priority = 'critical'`, 'desc').orderBy(sql`(tasks.expected_clicks->>'clicks')::int desc nulls last`);
      }
      if (order !== 'newest') query = query.orderBy(priorityRank).orderBy('tasks.created_at');
      query = query.orderBy('tasks.id');
      const [items, count] = await Promise.all([
        query.limit(pageSize).offset((page - 1) * pageSize).execute(),
        filtered(ownerId, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },

    /**
     * Rows of the tasks export: the list's filter and order (newest first, then by id), with each task's site, target and
     * last change; the rows after `after` (the last row read: a task's creation never changes, so the order is stable).
     */
    exportPage(ownerId: string, filter: TaskFilter, after: TaskSeek | undefined, limit: number) {
      let query = filtered(ownerId, filter)
        // The creation time as PostgreSQL writes it: a Date would lose its microseconds, and the seek its place.
        .select([...SUMMARY, 'tasks.category', 'tasks.target', 'tasks.updated_at', 'sites.domain', sql<string>`tasks.created_at::text`.as('seek_created_at')]);
      if (after) {
        query = query.where(sql<boolean>`(tasks.created_at < ${after.created_at}::timestamptz
          or (tasks.created_at = ${after.created_at}::timestamptz and tasks.id > ${after.id}::uuid))`);
      }
      return query.orderBy('tasks.created_at', 'desc').orderBy('tasks.id').limit(limit).execute();
    },

    /** The history of these tasks (already read through the caller's filter), oldest first, a user's moves with their e-mail. */
    eventsOf(taskIds: readonly string[]) {
      if (taskIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('task_events')
        .leftJoin('users', (join) => join.on(sql<boolean>`task_events.actor = 'user:' || users.id::text`))
        .select(['task_events.task_id', 'task_events.from_status', 'task_events.to_status', 'task_events.actor', 'task_events.detail', 'task_events.at', 'users.email'])
        .where('task_events.task_id', 'in', taskIds)
        .orderBy('task_events.id')
        .execute();
    },

    findDetail(ownerId: string, taskId: string) {
      return owned(ownerId)
        .select([...SUMMARY, 'tasks.category', 'tasks.target', 'tasks.configuration', 'tasks.evidence', 'tasks.deliverables', 'tasks.error', 'tasks.updated_at'])
        .where('tasks.id', '=', taskId)
        .executeTakeFirst();
    },

    history(taskId: string) {
      return db
        .selectFrom('task_events')
        .select(['from_status', 'to_status', 'actor', 'detail', 'at'])
        .where('task_id', '=', taskId)
        .orderBy('id')
        .execute();
    },

    async findStatus(ownerId: string, taskId: string): Promise<TaskStatus | undefined> {
      const row = await owned(ownerId).select('tasks.status').where('tasks.id', '=', taskId).executeTakeFirst();
      return row?.status;
    },

    /**
     * Applies an action if the task's status allows it, in one statement: the row is locked,
     * the guard checked, the status changed and the history row written together. Of
     * concurrent requests for one task exactly one sees the old status and wins (the others
     * wait for its lock, then see the new status). Returns the new status, or undefined when
     * the guard does not hold or the task is not the owner's (ownerId null: an internal
     * actor such as the worker).
     */
    async transition(
      ownerId: string | null,
      taskId: string,
      action: TaskAction,
      actor: string,
      detail?: unknown,
      /**
       * Columns written in the same UPDATE (deliverables, error, the execution lease taken): a
       * reader never sees one without the other. `ifLease`: only while that execution attempt
       * still owns the task.
       */
      also: { deliverables?: string; error?: string; lease?: string; ifLease?: string } = {},
      trx: Kysely<DB> = db,
    ): Promise<TaskStatus | undefined> {
      const rule = TRANSITIONS[action];
      const { from, to } = rule;
      const afresh = 'afresh' in rule;
      const owner = ownerId === null ? sql`` : sql`and site_id in (select s.id from sites s join workspace_members m on m.workspace_id = s.workspace_id where m.user_id = ${ownerId})`;
      const extra = [
        ...(also.deliverables !== undefined ? [sql`deliverables = ${also.deliverables}::jsonb`] : []),
        ...('error' in also ? [sql`error = ${also.error ?? null}::jsonb`] : []),
        ...(also.lease !== undefined ? [sql`execution_lease = ${also.lease}::uuid`] : []),
      ];
      const leased = also.ifLease === undefined ? sql`` : sql`and tasks.execution_lease = ${also.ifLease}::uuid`;
      // An attempt afresh clears the last one's outcome, and follows only a failure that left the site as it was.
      if (afresh) extra.push(sql`error = null`, sql`deliverables = '[]'::jsonb`);
      const retryable = afresh ? sql`and tasks.error @> '{"retryable": true}'::jsonb` : sql``;
      const result = await sql<{ from_status: TaskStatus }>`
        with current as (
          select id, status from tasks where id = ${taskId} ${owner} for update
        ), moved as (
          update tasks set status = ${to}, updated_at = now()${sql.join(extra.map((e) => sql`, ${e}`), sql``)}
          from current
          where tasks.id = current.id and current.status in (${sql.join(from.map((f) => sql`${f}`))}) ${leased} ${retryable}
          returning current.status as from_status
        )
        insert into task_events (task_id, from_status, to_status, actor, detail)
        select ${taskId}, from_status, ${to}, ${actor}, ${detail === undefined ? null : JSON.stringify(detail)}::jsonb from moved
        returning from_status`.execute(trx);
      return result.rows.length === 1 ? to : undefined;
    },

    /**
     * Internal: a proposal that passed the agent's quality gates. Not stored (undefined) when an
     * open task of its type already covers its target, or already claims one of the page fields
     * it would change (`claims`, from claimsOf): the check and the insert hold the site's lock,
     * so two agents proposing at once cannot both claim one field.
     */
    async insertProposal(task: {
      siteId: string; type: string; category: TaskCategory; priority: TaskPriority; title: string; description: string;
      target: string; configuration: unknown; evidence: unknown; claims?: string[]; expectedClicks?: unknown;
    }) {
      const claims = task.claims ?? [];
      return atomically(db, async (trx) => {
        await lockSiteClaims(trx, task.siteId);
        if (claims.length > 0) {
          const taken = await trx.selectFrom('tasks').select('id')
            .where('site_id', '=', task.siteId).where('status', 'in', OPEN_STATUSES).where(sql<boolean>`claims && ${claims}::text[]`)
            .executeTakeFirst();
          if (taken) return undefined;
        }
        const row = await trx
          .insertInto('tasks')
          .values({
            site_id: task.siteId, type: task.type, category: task.category, priority: task.priority, title: task.title,
            description: task.description, target: task.target, configuration: JSON.stringify(task.configuration),
            evidence: JSON.stringify(task.evidence), claims,
            expected_clicks: task.expectedClicks === undefined ? null : JSON.stringify(task.expectedClicks),
          })
          .onConflict((oc) => oc.columns(['site_id', 'type', 'target']).where('status', 'in', OPEN_STATUSES).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (row) await trx.insertInto('task_events').values({ task_id: row.id, from_status: null, to_status: 'awaiting_approval', actor: 'agent:strategy' }).execute();
        return row?.id;
      });
    },

    /**
     * Before a failed task runs again (in the transaction that queues it): the open task that
     * claimed one of its fields meanwhile, if any. Holds the site's lock until that transaction ends.
     */
    async claimedMeanwhile(trx: Kysely<DB>, ownerId: string, taskId: string) {
      const task = await trx.selectFrom('tasks').innerJoin('sites', 'sites.id', 'tasks.site_id').select(['tasks.site_id', 'tasks.claims'])
        .where('tasks.id', '=', taskId).where('sites.workspace_id', 'in', memberWorkspaces(db, ownerId)).where('tasks.status', '=', 'failed').executeTakeFirst();
      if (!task || task.claims.length === 0) return undefined;
      await lockSiteClaims(trx, task.site_id);
      return trx.selectFrom('tasks').select(['id', 'title']).where('site_id', '=', task.site_id).where('id', '!=', taskId)
        .where('status', 'in', OPEN_STATUSES).where(sql<boolean>`claims && ${task.claims}::text[]`).executeTakeFirst();
    },

    /** Why a proposal was not stored: the open task of its type and target, or the open task that claims one of its fields. */
    async blocking(siteId: string, type: string, target: string, claims: readonly string[]) {
      const open = db.selectFrom('tasks').select(['id', 'title', 'claims']).where('site_id', '=', siteId).where('status', 'in', OPEN_STATUSES);
      const same = await open.where('type', '=', type).where('target', '=', target).executeTakeFirst();
      if (same) return { kind: 'same' as const, ...same };
      if (claims.length === 0) return undefined;
      const claiming = await open.where(sql<boolean>`claims && ${[...claims]}::text[]`).orderBy('created_at').executeTakeFirst();
      return claiming && { kind: 'claims' as const, ...claiming, shared: claiming.claims.filter((c) => claims.includes(c)) };
    },

    /** Whether an open task of this type and target was proposed from this audit (a retried agent run finds its own). */
    async openFromAudit(siteId: string, type: string, target: string, auditId: string) {
      const row = await db.selectFrom('tasks').select('id')
        .where('site_id', '=', siteId).where('type', '=', type).where('target', '=', target).where('status', 'in', OPEN_STATUSES)
        .where(sql<boolean>`evidence @> ${JSON.stringify([{ audit_id: auditId }])}::jsonb`)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Internal (strategy agent): a site's tasks in these statuses, with their configuration and evidence. */
    openTasks(siteId: string, statuses: readonly TaskStatus[]) {
      return db
        .selectFrom('tasks')
        .select(['id', 'type', 'status', 'target', 'configuration', 'evidence'])
        .where('site_id', '=', siteId)
        .where('status', 'in', statuses)
        .execute();
    },

    /** Internal (worker): a task with what executing it needs. */
    findForWork(taskId: string) {
      return db
        .selectFrom('tasks')
        .innerJoin('sites', 'sites.id', 'tasks.site_id')
        // The site's rendering setting, and whether its last audit found scripts adding content to every page (so it
        // rendered every page): verification reads a page as its audits do.
        .select(['tasks.id', 'tasks.site_id', 'tasks.type', 'tasks.status', 'tasks.target', 'tasks.configuration', 'tasks.deliverables', 'sites.rendering'])
        .select(sql<boolean | null>`(select (a.rendering->>'template_renders_content')::boolean from audits a
          where a.site_id = tasks.site_id and a.status = 'completed' order by a.finished_at desc limit 1)`.as('template_renders_content'))
        .where('tasks.id', '=', taskId)
        .executeTakeFirst();
    },

    /** Internal (worker): ends an in-progress task with its deliverables or its error, atomically (while `lease` owns it, when given). */
    /** Completes the task with its deliverables, or fails it with its error (and, with `changed`, what it left changed on the site). */
    finish(taskId: string, outcome: { deliverables: unknown } | { error: unknown; changed?: unknown[] }, lease?: string, trx: Kysely<DB> = db) {
      const ifLease = lease === undefined ? {} : { ifLease: lease };
      if ('deliverables' in outcome) {
        return this.transition(null, taskId, 'complete', EXECUTOR_ACTOR, undefined, { deliverables: JSON.stringify(outcome.deliverables), ...ifLease }, trx);
      }
      const changed = outcome.changed ? { deliverables: JSON.stringify(outcome.changed) } : {};
      return this.transition(null, taskId, 'fail', EXECUTOR_ACTOR, outcome.error, { error: JSON.stringify(outcome.error), ...changed, ...ifLease }, trx);
    },

    /** Internal (worker): a failed task's final word, once its changed pages were put back: the message and what is still changed. */
    async noteFailure(taskId: string, error: unknown, stillChanged: unknown[]) {
      await db.updateTable('tasks').set({ error: JSON.stringify(error), deliverables: JSON.stringify(stillChanged) })
        .where('id', '=', taskId).where('status', '=', 'failed').execute();
    },

    /**
     * Internal (worker): records the pages done since the last record (appended: a task's 50
     * pages would otherwise send the growing list again each time), while `lease` still owns
     * the task; false once another attempt took it over.
     */
    async saveProgress(taskId: string, lease: string, done: unknown[]): Promise<boolean> {
      const result = await db.updateTable('tasks').set({ deliverables: sql`deliverables || ${JSON.stringify(done)}::jsonb`, updated_at: sql`now()` })
        .where('id', '=', taskId).where('status', '=', 'in_progress').where('execution_lease', '=', lease)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /**
     * Internal (worker): a retried attempt takes an in-progress task over (its lease replaces
     * the dead or stalled attempt's) and gets the pages done so far; the history says so.
     * Undefined when the task is no longer in progress.
     */
    async resume(taskId: string, lease: string): Promise<{ deliverables: unknown } | undefined> {
      const result = await sql<{ deliverables: unknown }>`
        with taken as (
          update tasks set execution_lease = ${lease}::uuid, updated_at = now()
          where id = ${taskId} and status = 'in_progress'
          returning id, deliverables
        ), logged as (
          insert into task_events (task_id, from_status, to_status, actor, detail)
          select id, 'in_progress', 'in_progress', ${EXECUTOR_ACTOR}, jsonb_build_object(
            'message', 'resumed after the attempt that stopped',
            'pages_done', case when jsonb_typeof(deliverables) = 'array' then jsonb_array_length(deliverables) else 0 end
          ) from taken
        )
        select deliverables from taken`.execute(db);
      return result.rows[0];
    },

    async saveVerification(taskId: string, verification: { status: string; checks: unknown; attempts: number; checkedAt: Date | null }, trx: Kysely<DB> = db) {
      const values = {
        status: verification.status as 'pending',
        checks: JSON.stringify(verification.checks),
        attempts: verification.attempts,
        checked_at: verification.checkedAt,
      };
      await trx
        .insertInto('task_verifications')
        .values({ task_id: taskId, ...values })
        // Attempts can finish out of order (several workers): a later attempt's result is never overwritten by an earlier one.
        .onConflict((oc) => oc.column('task_id').doUpdateSet(values).where('task_verifications.attempts', '<=', verification.attempts))
        .execute();
    },

    /** When the task last completed, and its site (undefined before). */
    completedAt(taskId: string) {
      return db.selectFrom('task_events').innerJoin('tasks', 'tasks.id', 'task_events.task_id')
        .select(['task_events.at', 'tasks.site_id']).where('task_events.task_id', '=', taskId).where('task_events.to_status', '=', 'completed')
        .orderBy('task_events.id', 'desc').executeTakeFirst();
    },

    verification(taskId: string) {
      return db.selectFrom('task_verifications').select(['status', 'checks', 'attempts', 'checked_at']).where('task_id', '=', taskId).executeTakeFirst();
    },

    async countsBySite(siteId: string) {
      return db.selectFrom('tasks').select(['status', (eb) => eb.fn.countAll<number>().as('count')]).where('site_id', '=', siteId).groupBy('status').execute();
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
