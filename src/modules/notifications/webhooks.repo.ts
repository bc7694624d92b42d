import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

const ENDPOINT = [
  'e.id', 'e.workspace_id', 'e.url', 'e.events', 'e.enabled', 'e.description', 'e.disabled_reason', 'e.consecutive_failures', 'e.created_at', 'e.updated_at',
] as const;
const DELIVERY = [
  'id', 'endpoint_id as webhook_id', 'event_id', 'event_type', 'status', 'attempts', 'last_status_code', 'last_error', 'next_attempt_at', 'created_at', 'updated_at',
] as const;

/** Webhook endpoints and their delivery log. Every read and write names the workspace: another workspace's endpoint reads as absent. */
export function createWebhooksRepo(db: Kysely<DB>) {
  const endpoints = () => db.selectFrom('webhook_endpoints as e')
    // The latest delivery, for the list's "last delivery" column.
    .leftJoinLateral((eb) => eb.selectFrom('webhook_deliveries as d').select(['d.status', 'd.event_type', 'd.updated_at'])
      .whereRef('d.endpoint_id', '=', 'e.id').orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(1).as('last'), (join) => join.onTrue())
    .select([...ENDPOINT, 'last.status as last_status', 'last.event_type as last_event_type', 'last.updated_at as last_at']);

  return {
    list: (workspaceId: string) => endpoints().where('e.workspace_id', '=', workspaceId).orderBy('e.created_at').orderBy('e.id').execute(),
    find: (workspaceId: string, id: string) => endpoints().where('e.workspace_id', '=', workspaceId).where('e.id', '=', id).executeTakeFirst(),

    async create(values: { id: string; workspaceId: string; url: string; events: string[]; enabled: boolean; description: string; secretSealed: string; createdBy: string }) {
      await db.insertInto('webhook_endpoints').values({
        id: values.id, workspace_id: values.workspaceId, url: values.url, events: JSON.stringify(values.events), enabled: values.enabled,
        description: values.description, secret_sealed: values.secretSealed, created_by: values.createdBy,
      }).execute();
    },

    async update(workspaceId: string, id: string, changes: { url?: string; events?: string[]; enabled?: boolean; description?: string; secretSealed?: string }) {
      const result = await db.updateTable('webhook_endpoints').set({
        ...(changes.url === undefined ? {} : { url: changes.url }),
        ...(changes.events === undefined ? {} : { events: JSON.stringify(changes.events) }),
        // Enabled again by a person: the service's reason for disabling it no longer holds, and its failures start again from 0.
        ...(changes.enabled === undefined ? {} : { enabled: changes.enabled, ...(changes.enabled ? { disabled_reason: null, consecutive_failures: 0 } : {}) }),
        ...(changes.description === undefined ? {} : { description: changes.description }),
        ...(changes.secretSealed === undefined ? {} : { secret_sealed: changes.secretSealed }),
        updated_at: sql`now()`,
      }).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async remove(workspaceId: string, id: string) {
      const result = await db.deleteFrom('webhook_endpoints').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async deliveries(endpointId: string, page: number, pageSize: number) {
      const [items, count] = await Promise.all([
        db.selectFrom('webhook_deliveries').select(DELIVERY).where('endpoint_id', '=', endpointId)
          .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
        db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string>().as('n')).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.n) };
    },

    /** For the delivery job: takes one attempt of a pending delivery (counting it), with its endpoint; undefined once it is settled. */
    startAttempt: (deliveryId: string) => db.updateTable('webhook_deliveries as d')
      .from('webhook_endpoints as e')
      .set({ attempts: sql`d.attempts + 1`, updated_at: sql`now()` })
      .whereRef('e.id', '=', 'd.endpoint_id')
      .where('d.id', '=', deliveryId).where('d.status', '=', 'pending')
      .returning(['d.id', 'd.attempts', 'd.event_id', 'd.body', 'e.id as endpoint_id', 'e.workspace_id', 'e.url', 'e.enabled', 'e.secret_sealed'])
      .executeTakeFirst(),

    async recordAttempt(deliveryId: string, outcome: { status: 'pending' | 'succeeded' | 'failed'; code: number | null; error: string | null; nextAttemptAt: Date | null }) {
      await db.updateTable('webhook_deliveries').set({
        status: outcome.status, last_status_code: outcome.code, last_error: outcome.error, next_attempt_at: outcome.nextAttemptAt, updated_at: sql`now()`,
      }).where('id', '=', deliveryId).execute();
    },

    /** The service gives up on an endpoint (410 Gone, too many failures): no more deliveries until someone enables it again. True when it was enabled. */
    async disable(endpointId: string, reason: string) {
      const result = await db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, updated_at: sql`now()` })
        .where('id', '=', endpointId).where('enabled', '=', true).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A delivery succeeded: the endpoint's run of failures ends. */
    async clearFailures(endpointId: string) {
      await db.updateTable('webhook_endpoints').set({ consecutive_failures: 0 }).where('id', '=', endpointId).where('consecutive_failures', '>', 0).execute();
    },

    /** A delivery failed every attempt: the endpoint's failures in a row, with its workspace and whether it is still enabled. */
    countFailure: (endpointId: string) => db.updateTable('webhook_endpoints').set({ consecutive_failures: sql`consecutive_failures + 1` })
      .where('id', '=', endpointId).returning(['consecutive_failures', 'enabled', 'workspace_id']).executeTakeFirst(),

    /** The dead-letter handler: a delivery whose last attempt never finished is failed, if it is still pending; its endpoint. */
    abandon: (deliveryId: string, error: string) => db.updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: error, next_attempt_at: null, updated_at: sql`now()` })
      .where('id', '=', deliveryId).where('status', '=', 'pending').returning('endpoint_id').executeTakeFirst(),

    /** Who is told when the service disables an endpoint: the workspace's owners and admins (a disabled account is skipped when the mail goes). */
    managers: (workspaceId: string) => db.selectFrom('workspace_members as m')
      .select('m.user_id').where('m.workspace_id', '=', workspaceId).where('m.role', 'in', ['owner', 'admin'])
      .orderBy('m.user_id').execute(),
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
