import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

export function createAgentsRepo(db: Kysely<DB>) {
  return {
    async recordRejection(row: { siteId: string; auditId: string | null; type: string; target: string; reason: string; rule?: string | undefined }) {
      await db
        .insertInto('task_rejections')
        .values({ site_id: row.siteId, audit_id: row.auditId, type: row.type, target: row.target, reason: row.reason, rule: row.rule ?? null })
        .execute();
    },

    /** A retried agent run starts clean: the refusals of the run that died are recorded again by this one. */
    async dropRejections(auditId: string) {
      await db.deleteFrom('task_rejections').where('audit_id', '=', auditId).execute();
    },

    /** For admins: rejections across all sites (optionally one), newest first. */
    async rejections(filter: { siteId?: string | undefined }, page: number, pageSize: number) {
      let query = db.selectFrom('task_rejections');
      if (filter.siteId) query = query.where('site_id', '=', filter.siteId);
      const [items, count] = await Promise.all([
        query
          .select(['id', 'site_id', 'audit_id', 'type', 'target', 'reason', 'rule', 'created_at'])
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },
  };
}

export type AgentsRepo = ReturnType<typeof createAgentsRepo>;
