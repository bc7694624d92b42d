import { randomUUID } from 'node:crypto';
import type { Transact } from '../../db/transact.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Events } from '../events/events.service.ts';
import type { EventType } from '../events/events.types.ts';
import type { WorkspacesService } from '../workspaces/workspaces.service.ts';
import { checkWebhookUrl } from './webhook-url.ts';
import { newWebhookSecret } from './webhook-signature.ts';
import type { WebhooksRepo } from './webhooks.repo.ts';
import type { CreateWebhookInput, UpdateWebhookInput } from './webhooks.schemas.ts';

/** What a sealed signing secret is bound to: it opens only for its endpoint. */
export const secretContext = (endpointId: string) => `webhook:${endpointId}`;

type EndpointRow = NonNullable<Awaited<ReturnType<WebhooksRepo['find']>>>;
const present = ({ last_status, last_event_type, last_at, ...row }: EndpointRow) => ({
  ...row,
  events: row.events as EventType[],
  last_delivery: last_status && last_event_type && last_at ? { status: last_status, event_type: last_event_type, at: last_at } : null,
});

/** A workspace's webhook endpoints: its admins and owners manage them; the signing secret is shown once. */
export function createWebhooksService(deps: {
  repo: WebhooksRepo;
  workspaces: Pick<WorkspacesService, 'requireWorkspace'>;
  events: Pick<Events, 'test'>;
  secrets: SecretBox;
  transact: Transact;
  allowPrivateTargets: PrivateTargets;
}) {
  const { repo } = deps;
  const admin = (userId: string, workspaceId: string) => deps.workspaces.requireWorkspace(userId, workspaceId, 'admin');
  async function endpoint(workspaceId: string, webhookId: string) {
    const row = await repo.find(workspaceId, webhookId);
    if (!row) throw notFound('Webhook');
    return present(row);
  }

  return {
    async list(userId: string, workspaceId: string) {
      await admin(userId, workspaceId);
      const items = (await repo.list(workspaceId)).map(present);
      return { items, total: items.length };
    },

    async get(userId: string, workspaceId: string, webhookId: string) {
      await admin(userId, workspaceId);
      return endpoint(workspaceId, webhookId);
    },

    async create(userId: string, workspaceId: string, input: CreateWebhookInput) {
      await admin(userId, workspaceId);
      const url = await checkWebhookUrl(input.url, deps.allowPrivateTargets);
      const id = randomUUID();
      const secret = newWebhookSecret();
      await repo.create({
        id, workspaceId, url, events: input.events ?? [], enabled: input.enabled ?? true, description: input.description?.trim() ?? '',
        secretSealed: deps.secrets.seal(secret, secretContext(id)), createdBy: userId,
      });
      return { ...(await endpoint(workspaceId, id)), secret };
    },

    async update(userId: string, workspaceId: string, webhookId: string, input: UpdateWebhookInput) {
      await admin(userId, workspaceId);
      const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, deps.allowPrivateTargets);
      const changed = await repo.update(workspaceId, webhookId, {
        ...(url === undefined ? {} : { url }),
        ...(input.events === undefined ? {} : { events: input.events }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(input.description === undefined ? {} : { description: input.description.trim() }),
      });
      if (!changed) throw notFound('Webhook');
      return endpoint(workspaceId, webhookId);
    },

    async remove(userId: string, workspaceId: string, webhookId: string) {
      await admin(userId, workspaceId);
      if (!(await repo.remove(workspaceId, webhookId))) throw notFound('Webhook');
    },

    /** A new signing secret, shown once; the old one stops working at once. */
    async rotateSecret(userId: string, workspaceId: string, webhookId: string) {
      await admin(userId, workspaceId);
      const secret = newWebhookSecret();
      if (!(await repo.update(workspaceId, webhookId, { secretSealed: deps.secrets.seal(secret, secretContext(webhookId)) }))) throw notFound('Webhook');
      return { ...(await endpoint(workspaceId, webhookId)), secret };
    },

    /** Sends a webhook.test event to an enabled endpoint now (as a delivery job), whatever types it takes. */
    async sendTest(userId: string, workspaceId: string, webhookId: string) {
      await admin(userId, workspaceId);
      if (!(await endpoint(workspaceId, webhookId)).enabled) throw conflict('The webhook is disabled: enable it, then send a test');
      const deliveryId = await deps.transact((trx) => deps.events.test(trx, webhookId, workspaceId));
      return { delivery_id: deliveryId, status: 'pending' as const, message: 'A webhook.test event is on its way; its delivery log shows the outcome' };
    },

    async deliveries(userId: string, workspaceId: string, webhookId: string, query: { page?: number | undefined; page_size?: number | undefined }) {
      await admin(userId, workspaceId);
      await endpoint(workspaceId, webhookId);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 20;
      return { ...(await repo.deliveries(webhookId, page, pageSize)), page, page_size: pageSize };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
