import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WorkspaceParams } from '../workspaces/workspaces.schemas.ts';
import { NotificationSettingsBody, NotificationSettingsSchema, UnsubscribeQuery, UnsubscribeSchema } from './email-notifications.schemas.ts';
import type { EmailNotificationsService } from './email-notifications.service.ts';

/** A member's own e-mail settings for a workspace, and the one-click unsubscribe link every message carries. */
export async function emailNotificationsRoutes(app: FastifyInstance, deps: { notifications: EmailNotificationsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { notifications } = deps;
  const tags = ['notifications'];
  // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" as a form; the token is in the URL, so the body is not read.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));
  }

  r.get('/workspaces/:workspace_id/notifications', {
    schema: { tags, operationId: 'getNotificationSettings', summary: "The caller's e-mail settings for the workspace (any member)", params: WorkspaceParams, response: { 200: NotificationSettingsSchema } },
  }, (request) => notifications.getSettings(request.actor.sub, request.params.workspace_id));

  r.put('/workspaces/:workspace_id/notifications', {
    schema: {
      tags, operationId: 'updateNotificationSettings', summary: "Changes the caller's e-mail settings for the workspace: digest frequency, alerts (any member)",
      params: WorkspaceParams, body: NotificationSettingsBody, response: { 200: NotificationSettingsSchema },
    },
  }, (request) => notifications.saveSettings(request.actor.sub, request.params.workspace_id, request.body));

  r.get('/notifications/unsubscribe', {
    config: { public: true },
    schema: {
      tags, operationId: 'describeUnsubscribe', summary: "What an e-mail's unsubscribe link turns off; changes nothing (link scanners follow GETs)",
      querystring: UnsubscribeQuery, response: { 200: UnsubscribeSchema },
    },
  }, (request) => notifications.describeUnsubscribe(request.query.token));

  r.post('/notifications/unsubscribe', {
    config: { public: true },
    schema: {
      tags, operationId: 'unsubscribe', summary: 'One-click unsubscribe (RFC 8058): that kind of e-mail off for its member and workspace; no sign-in',
      querystring: UnsubscribeQuery, response: { 200: UnsubscribeSchema },
    },
  }, (request) => notifications.unsubscribe(request.query.token));
}
