import type { Kysely } from 'kysely';
import type { Transact } from '../../db/transact.ts';
import type { DB } from '../../db/types.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { createWebhooksRepo, type WebhooksRepo } from './webhooks.repo.ts';

/**
 * Deliveries in a row that fail every attempt (about an hour of retries each) before the
 * service disables the endpoint: 20 is a day of hourly events or a few minutes of a busy
 * workspace's, failing throughout, so a receiver down for a deploy or a night keeps its
 * webhook, and one that is gone stops costing attempts. Any success sets the count back to 0.
 */
export const FAILURES_BEFORE_DISABLE = 20;

type Outcome = Parameters<WebhooksRepo['recordAttempt']>[1];

/**
 * How a delivery ends, each in one transaction with what follows from it: a success clears
 * the endpoint's failures; a delivery that failed every attempt (or whose last attempt never
 * finished: the dead-letter handler) counts one; the 20th in a row, or a 410 Gone, disables
 * the endpoint, and the mail jobs telling the workspace's owners and admins commit with it.
 */
export function createWebhookOutcomes(deps: { transact: Transact; queue: JobSender }) {
  const inTransaction = <T>(fn: (repo: WebhooksRepo, trx: Kysely<DB>) => Promise<T>) => deps.transact((trx) => fn(createWebhooksRepo(trx), trx));

  async function disableAndTell(repo: WebhooksRepo, trx: Kysely<DB>, cause: { endpointId: string; workspaceId: string; deliveryId: string }, reason: string) {
    if (!(await repo.disable(cause.endpointId, reason))) return; // disabled already: they were told then
    for (const { user_id } of await repo.managers(cause.workspaceId)) {
      await deps.queue.send('mail.webhook-disabled', { userId: user_id, workspaceId: cause.workspaceId, webhookId: cause.endpointId, deliveryId: cause.deliveryId }, { tx: trx });
    }
  }

  async function countFailure(repo: WebhooksRepo, trx: Kysely<DB>, endpointId: string, deliveryId: string, error: string | null) {
    const endpoint = await repo.countFailure(endpointId);
    if (!endpoint || endpoint.consecutive_failures < FAILURES_BEFORE_DISABLE) return;
    await disableAndTell(repo, trx, { endpointId, workspaceId: endpoint.workspace_id, deliveryId },
      `${endpoint.consecutive_failures} deliveries in a row failed every attempt${error ? ` (the last: ${error})` : ''}`);
  }

  return {
    succeeded: (deliveryId: string, endpointId: string, outcome: Outcome) => inTransaction(async (repo) => {
      await repo.recordAttempt(deliveryId, outcome);
      await repo.clearFailures(endpointId);
    }),

    /** The last attempt failed: the delivery is failed, and counts against its endpoint. */
    failed: (deliveryId: string, endpointId: string, outcome: Outcome) => inTransaction(async (repo, trx) => {
      await repo.recordAttempt(deliveryId, outcome);
      await countFailure(repo, trx, endpointId, deliveryId, outcome.error);
    }),

    /** 410 Gone: the delivery is failed and the endpoint disabled at once. */
    gone: (deliveryId: string, endpoint: { id: string; workspaceId: string }, outcome: Outcome) => inTransaction(async (repo, trx) => {
      await repo.recordAttempt(deliveryId, outcome);
      await disableAndTell(repo, trx, { endpointId: endpoint.id, workspaceId: endpoint.workspaceId, deliveryId }, 'The endpoint answered 410 Gone');
    }),

    /** The dead-letter handler: every attempt of the job ended without settling the delivery (timed out, its worker died, an error of ours). */
    abandoned: (deliveryId: string) => inTransaction(async (repo, trx) => {
      const error = 'the last attempt did not finish (it timed out or its worker stopped)';
      const row = await repo.abandon(deliveryId, error);
      if (row) await countFailure(repo, trx, row.endpoint_id, deliveryId, error);
      return row !== undefined;
    }),
  };
}

export type WebhookOutcomes = ReturnType<typeof createWebhookOutcomes>;
