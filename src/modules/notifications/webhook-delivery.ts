import type { FastifyBaseLogger } from 'fastify';
import { request } from 'undici';
import { assertPublicUrl, BlockedAddressError, createOutboundAgent, type PrivateTargets } from '../../lib/safe-http.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { WebhookOutcomes } from './webhook-failures.ts';
import { signWebhook } from './webhook-signature.ts';
import type { WebhooksRepo } from './webhooks.repo.ts';
import { secretContext } from './webhooks.service.ts';

/** One attempt's bound, connecting included. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Thrown to have the queue retry the delivery (with its backoff); the message is the delivery log's last error. */
class DeliveryFailed extends Error {}

/** The words of a connection failure, for the delivery log (no address of a refused private target). */
function describeError(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  for (const e of [error, cause]) if (e instanceof BlockedAddressError) return `refused: ${e.message}`;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || (error as Error).name === 'TimeoutError') return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * The job behind each webhook delivery: one signed POST per attempt, through the SSRF guard,
 * no redirect followed. A 2xx succeeds; 410 Gone disables the endpoint; any other answer or a
 * network error is logged on the delivery and retried by the queue (exponential backoff) until
 * the last attempt, which marks it failed and counts against the endpoint (webhook-failures.ts).
 */
export function createWebhookDeliverer(deps: {
  repo: WebhooksRepo;
  outcomes: WebhookOutcomes;
  secrets: SecretBox;
  allowPrivateTargets: PrivateTargets;
  /** Attempts in all (the job's retries + 1) and the queue's first retry delay, to tell when the next one is due. */
  maxAttempts: number;
  retryDelaySeconds: number;
  log: FastifyBaseLogger;
}) {
  const agent = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 4, timeoutMs: DELIVERY_TIMEOUT_MS });

  async function post(url: string, headers: Record<string, string>, body: string) {
    const parsed = new URL(url);
    assertPublicUrl(parsed, deps.allowPrivateTargets);
    const response = await request(parsed, {
      dispatcher: agent, method: 'POST', headers, body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
    return response.statusCode;
  }

  return {
    async deliver(deliveryId: string) {
      const attempt = await deps.repo.startAttempt(deliveryId);
      if (!attempt) return; // settled already (a job run twice), or its endpoint deleted
      const record = (outcome: Parameters<WebhooksRepo['recordAttempt']>[1]) => deps.repo.recordAttempt(deliveryId, outcome);
      if (!attempt.enabled) return record({ status: 'failed', code: null, error: 'the webhook was disabled before this delivery', nextAttemptAt: null });

      const secret = deps.secrets.open(attempt.secret_sealed, secretContext(attempt.endpoint_id));
      const headers = {
        ...signWebhook(secret, attempt.event_id, Math.floor(Date.now() / 1000), attempt.body),
        'content-type': 'application/json',
        'user-agent': 'site-optimization-webhooks/1',
      };
      let code: number | null = null;
      let error: string | null = null;
      try {
        code = await post(attempt.url, headers, attempt.body);
      } catch (e) {
        error = describeError(e);
      }
      if (code !== null && code >= 200 && code < 300) {
        return deps.outcomes.succeeded(deliveryId, attempt.endpoint_id, { status: 'succeeded', code, error: null, nextAttemptAt: null });
      }
      if (code === 410) {
        deps.log.warn({ webhookId: attempt.endpoint_id }, 'webhook endpoint answered 410 Gone: disabled');
        return deps.outcomes.gone(deliveryId, { id: attempt.endpoint_id, workspaceId: attempt.workspace_id },
          { status: 'failed', code, error: 'the endpoint answered 410 Gone: the webhook was disabled', nextAttemptAt: null });
      }
      error ??= code !== null && code >= 300 && code < 400 ? `the endpoint answered ${code} (redirects are not followed)` : `the endpoint answered ${code}`;
      if (attempt.attempts >= deps.maxAttempts) return deps.outcomes.failed(deliveryId, attempt.endpoint_id, { status: 'failed', code, error, nextAttemptAt: null });
      // The queue waits 1-2x the delay, doubling each time: the earliest the next attempt may come.
      const next = new Date(Date.now() + deps.retryDelaySeconds * 2 ** (attempt.attempts - 1) * 1000);
      await record({ status: 'pending', code, error, nextAttemptAt: next });
      throw new DeliveryFailed(`webhook delivery attempt ${attempt.attempts} failed: ${error}`);
    },

    close: () => agent.close(),
  };
}

export type WebhookDeliverer = ReturnType<typeof createWebhookDeliverer>;
