import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isMemberOf, memberWorkspaces } from '../workspaces/access.repo.ts';

/** A rollback left `running` this long ago belongs to a process that died: it no longer blocks a retry. */
const STALE_AFTER = '10 minutes';

export function createRollbacksRepo(db: Kysely<DB>) {
  return {
    /**
     * Claims the task's rollback. The partial unique index admits one running or restored
     * rollback per task, so of concurrent requests exactly one gets an id.
     */
    async begin(taskId: string, siteId: string, actor: string): Promise<string | undefined> {
      await db
        .updateTable('task_rollbacks')
        .set({ status: 'failed', error: JSON.stringify({ message: 'interrupted: the process stopped during the rollback' }), finished_at: sql`now()` })
        .where('task_id', '=', taskId)
        .where('status', '=', 'running')
        .where('started_at', '<', sql<Date>`now() - ${STALE_AFTER}::interval`)
        .execute();
      try {
        const row = await db.insertInto('task_rollbacks').values({ task_id: taskId, site_id: siteId, actor, status: 'running' }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    /** Marks the rollback failed, with what it had already restored when it stopped (a rollback of several pages may stop mid-way). */
    async fail(id: string, error: unknown, restoredSoFar: unknown[] = []) {
      await db.updateTable('task_rollbacks')
        .set({ status: 'failed', error: JSON.stringify(error), ...(restoredSoFar.length > 0 ? { changes: JSON.stringify(restoredSoFar) } : {}), finished_at: sql`now()` })
        .where('id', '=', id).execute();
    },

    /** Marks the rollback restored (in the caller's transaction, which also moves the task). */
    async complete(id: string, result: { changes: unknown; checks: unknown }, trx: Kysely<DB> = db) {
      await trx
        .updateTable('task_rollbacks')
        .set({ status: 'restored', changes: JSON.stringify(result.changes), checks: JSON.stringify(result.checks), finished_at: sql`now()` })
        .where('id', '=', id)
        .execute();
    },

    /** The latest rollback attempt of a task (for its details). */
    latestFor(taskId: string) {
      return db
        .selectFrom('task_rollbacks')
        .select(['id', 'status', 'actor', 'changes', 'checks', 'error', 'started_at', 'finished_at'])
        .where('task_id', '=', taskId)
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .executeTakeFirst();
    },

    /** Whether the user is a member of the workspace (a filter naming another one is a 404). */
    isMember: (userId: string, workspaceId: string) => isMemberOf(db, userId, workspaceId),

    /** Rollbacks on the owner's sites, newest first. */
    async page(ownerId: string, siteId: string | undefined, page: number, pageSize: number, workspaceId?: string) {
      let base = db
        .selectFrom('task_rollbacks')
        .innerJoin('sites', 'sites.id', 'task_rollbacks.site_id')
        .innerJoin('tasks', 'tasks.id', 'task_rollbacks.task_id')
        .where('sites.workspace_id', 'in', memberWorkspaces(db, ownerId));
      if (siteId) base = base.where('task_rollbacks.site_id', '=', siteId);
      if (workspaceId) base = base.where('sites.workspace_id', '=', workspaceId);
      const [items, count] = await Promise.all([
        base
          .select([
            'task_rollbacks.id', 'task_rollbacks.task_id', 'task_rollbacks.site_id', 'tasks.type as task_type', 'tasks.title as task_title',
            'task_rollbacks.actor', 'task_rollbacks.status', 'task_rollbacks.changes', 'task_rollbacks.checks', 'task_rollbacks.error',
            'task_rollbacks.started_at', 'task_rollbacks.finished_at',
          ])
          .orderBy('task_rollbacks.started_at', 'desc')
          .orderBy('task_rollbacks.id')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },
  };
}

export type RollbacksRepo = ReturnType<typeof createRollbacksRepo>;
