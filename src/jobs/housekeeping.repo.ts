import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * How long rows that only grow are kept. Each is past any use by then: a reset link or a
 * refresh token a day after it expired (its error can still say "expired" meanwhile), a
 * invitation a month after it expired (the workspace's list shows recent ones), a webhook
 * delivery 90 days or beyond an endpoint's newest 1,000, a notification's send claim a
 * month after (no job retries that long), a revocation once its token has expired, a sync's
 * staged query rows a day after (a sync promotes them within its job's hour, or they are left
 * by one that died).
 */
export const RETENTION = {
  passwordResetsDays: 1,
  refreshTokensDays: 1,
  invitationsDays: 30,
  webhookDeliveriesDays: 90,
  webhookDeliveriesPerEndpoint: 1000,
  notificationSendsDays: 30,
  oauthStatesDays: 1,
  stagedQueryRowsDays: 1,
} as const;

const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;
const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/** The daily housekeeping's deletes, one per table; each answers how many rows went. */
export function createHousekeepingRepo(db: Kysely<DB>) {
  return {
    passwordResets: async () => count(await db.deleteFrom('password_resets').where('expires_at', '<', daysAgo(RETENTION.passwordResetsDays)).executeTakeFirst()),

    /** A month after it expired: accepted, revoked or not, every invitation is finished by then (they live 7 days). */
    invitations: async () => count(await db.deleteFrom('workspace_invitations').where('expires_at', '<', daysAgo(RETENTION.invitationsDays)).executeTakeFirst()),

    /** Older than 90 days, or beyond an endpoint's newest 1,000 (unless still pending: its job will settle it). */
    webhookDeliveries: async () => {
      const old = await db.deleteFrom('webhook_deliveries').where('created_at', '<', daysAgo(RETENTION.webhookDeliveriesDays)).executeTakeFirst();
      const beyond = await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('id', 'in', (eb) => eb.selectFrom(
        eb.selectFrom('webhook_deliveries').select(['id', sql<number>`row_number() over (partition by endpoint_id order by created_at desc, id desc)`.as('n')]).as('ranked'),
      ).select('ranked.id').where('ranked.n', '>', RETENTION.webhookDeliveriesPerEndpoint)).executeTakeFirst();
      return count(old) + count(beyond);
    },

    refreshTokens: async () => count(await db.deleteFrom('refresh_tokens').where('expires_at', '<', daysAgo(RETENTION.refreshTokensDays)).executeTakeFirst()),
    tokenRevocations: async () => count(await db.deleteFrom('token_revocations').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst()),
    notificationSends: async () => count(await db.deleteFrom('notification_sends').where('claimed_at', '<', daysAgo(RETENTION.notificationSendsDays)).executeTakeFirst()),
    /** Consent screens abandoned: saveState clears them only when someone starts another. */
    oauthStates: async () => count(await db.deleteFrom('oauth_states').where('created_at', '<', daysAgo(RETENTION.oauthStatesDays)).executeTakeFirst()),
    stagedQueryRows: async () => count(await db.deleteFrom('search_query_staging').where('staged_at', '<', daysAgo(RETENTION.stagedQueryRowsDays)).executeTakeFirst()),
  };
}

export type HousekeepingRepo = ReturnType<typeof createHousekeepingRepo>;
