import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

const SITE = ['sites.id as site_id', 'sites.name as site_name', 'sites.domain as site_domain', 'sites.workspace_id'] as const;

/** What an event names, read in the transaction that makes it true, and the endpoints it goes to. */
export function createEventsRepo(db: Kysely<DB>) {
  return {
    audit: (auditId: string) => db.selectFrom('audits').innerJoin('sites', 'sites.id', 'audits.site_id')
      .select(['audits.id', 'audits.score', ...SITE]).where('audits.id', '=', auditId).executeTakeFirst(),

    task: (taskId: string) => db.selectFrom('tasks').innerJoin('sites', 'sites.id', 'tasks.site_id')
      .select(['tasks.id', 'tasks.type', 'tasks.title', 'tasks.status', ...SITE]).where('tasks.id', '=', taskId).executeTakeFirst(),

    /** The workspace's enabled endpoints that take this event type (an empty list takes every type). */
    subscribers: (workspaceId: string, type: string) => db.selectFrom('webhook_endpoints').select('id')
      .where('workspace_id', '=', workspaceId).where('enabled', '=', true)
      .where(sql<boolean>`(jsonb_array_length(events) = 0 or events @> ${JSON.stringify([type])}::jsonb)`)
      .execute(),

    /** One delivery row per endpoint; an event already logged for an endpoint (a retried emit) is not logged twice. */
    async insertDeliveries(endpointIds: string[], event: { id: string; type: string; body: string }) {
      if (endpointIds.length === 0) return [];
      const rows = await db.insertInto('webhook_deliveries')
        .values(endpointIds.map((endpoint_id) => ({ endpoint_id, event_id: event.id, event_type: event.type, body: event.body })))
        .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
        .returning('id').execute();
      return rows.map((r) => r.id);
    },
  };
}
