import type { EmailNotificationsRepo } from './email-notifications.repo.ts';
import { webhookDisabledMail } from './notification-messages.ts';
import type { SendOnce } from './send-once.ts';
import type { WebhooksRepo } from './webhooks.repo.ts';

/**
 * The mail.webhook-disabled job: tells one owner or admin that the service disabled a webhook
 * endpoint, once per disabling (the delivery that caused it is the key). Read when it goes:
 * nothing when they left, or the endpoint was enabled again or deleted meanwhile.
 */
export function createWebhookDisabledNotice(deps: {
  webhooks: Pick<WebhooksRepo, 'find'>;
  members: Pick<EmailNotificationsRepo, 'recipient'>;
  sendOnce: SendOnce;
  publicUrl: string;
}) {
  return async function send(event: { userId: string; workspaceId: string; webhookId: string; deliveryId: string }) {
    const [member, endpoint] = await Promise.all([deps.members.recipient(event.userId, event.workspaceId), deps.webhooks.find(event.workspaceId, event.webhookId)]);
    if (!member || !endpoint || endpoint.enabled) return false;
    return deps.sendOnce({ kind: 'webhook-disabled', userId: event.userId, workspaceId: event.workspaceId, subjectKey: `${event.webhookId}:${event.deliveryId}` }, webhookDisabledMail({
      to: member.email, name: member.name, workspace: member.workspace_name, url: endpoint.url, description: endpoint.description,
      reason: endpoint.disabled_reason ?? 'It was disabled.', webhooksLink: `${deps.publicUrl}/workspaces`,
    }));
  };
}
