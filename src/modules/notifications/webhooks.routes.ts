import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { WorkspaceParams } from '../workspaces/workspaces.schemas.ts';
import {
  CreateWebhookBody, DeliveriesQuery, DeliveryPageSchema, TestSentSchema, UpdateWebhookBody, WebhookListSchema, WebhookParams, WebhookSchema,
  WebhookWithSecretSchema,
} from './webhooks.schemas.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** A workspace's webhook endpoints (admins and owners): Standard Webhooks, signed with a secret shown once. */
export async function webhooksRoutes(app: FastifyInstance, deps: { webhooks: WebhooksService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = deps;
  const tags = ['webhooks'];
  const base = '/workspaces/:workspace_id/webhooks';

  r.get(base, {
    schema: { tags, operationId: 'listWebhooks', summary: 'The workspace\'s webhook endpoints, with their last delivery (admin)', params: WorkspaceParams, response: { 200: WebhookListSchema } },
  }, (request) => webhooks.list(request.actor.sub, request.params.workspace_id));

  r.post(base, {
    schema: {
      tags, operationId: 'createWebhook', summary: 'Add a webhook endpoint; its signing secret is in this answer only (admin)',
      params: WorkspaceParams, body: CreateWebhookBody, response: { 201: WebhookWithSecretSchema },
    },
  }, async (request, reply) => reply.code(201).send(await webhooks.create(request.actor.sub, request.params.workspace_id, request.body)));

  r.get(`${base}/:webhook_id`, {
    schema: { tags, operationId: 'getWebhook', summary: 'A webhook endpoint (admin)', params: WebhookParams, response: { 200: WebhookSchema } },
  }, (request) => webhooks.get(request.actor.sub, request.params.workspace_id, request.params.webhook_id));

  r.patch(`${base}/:webhook_id`, {
    schema: {
      tags, operationId: 'updateWebhook', summary: 'Change a webhook\'s URL, events, description, or enable / disable it (admin)',
      params: WebhookParams, body: UpdateWebhookBody, response: { 200: WebhookSchema },
    },
  }, (request) => webhooks.update(request.actor.sub, request.params.workspace_id, request.params.webhook_id, request.body));

  r.delete(`${base}/:webhook_id`, {
    schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint and its delivery log (admin)', params: WebhookParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    await webhooks.remove(request.actor.sub, request.params.workspace_id, request.params.webhook_id);
    return reply.code(204).send(null);
  });

  r.post(`${base}/:webhook_id/rotate-secret`, {
    schema: {
      tags, operationId: 'rotateWebhookSecret', summary: 'Replace the signing secret; the new one is in this answer only, the old one stops at once (admin)',
      params: WebhookParams, response: { 200: WebhookWithSecretSchema },
    },
  }, (request) => webhooks.rotateSecret(request.actor.sub, request.params.workspace_id, request.params.webhook_id));

  r.post(`${base}/:webhook_id/test`, {
    schema: {
      tags, operationId: 'testWebhook', summary: 'Send a webhook.test event to the endpoint now, as a delivery (admin)',
      params: WebhookParams, response: { 202: TestSentSchema },
    },
  }, async (request, reply) => reply.code(202).send(await webhooks.sendTest(request.actor.sub, request.params.workspace_id, request.params.webhook_id)));

  r.get(`${base}/:webhook_id/deliveries`, {
    schema: {
      tags, operationId: 'listWebhookDeliveries', summary: 'The endpoint\'s delivery log, newest first: status, attempts, last answer (admin)',
      params: WebhookParams, querystring: DeliveriesQuery, response: { 200: DeliveryPageSchema },
    },
  }, (request) => webhooks.deliveries(request.actor.sub, request.params.workspace_id, request.params.webhook_id, request.query));
}
