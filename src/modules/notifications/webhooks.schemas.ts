import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { pageQueryProperties, Paged } from '../../lib/pagination.ts';
import { EVENT_TYPES } from '../events/events.types.ts';

const eventType = StringEnum(EVENT_TYPES);
const url = Type.String({ minLength: 1, maxLength: 2048, description: 'Where events are POSTed: https (http only where private targets are allowed)' });
const events = Type.Array(eventType, {
  maxItems: EVENT_TYPES.length, uniqueItems: true,
  description: `The event types it receives (${EVENT_TYPES.join(', ')}); empty or absent: all of them`,
});
const description = Type.String({ maxLength: 500, description: 'A note for the workspace (what receives it)' });

export const WebhookSchema = Type.Object({
  id: Uuid(),
  workspace_id: Uuid(),
  url: Type.String(),
  events: Type.Array(eventType),
  enabled: Type.Boolean(),
  description: Type.String(),
  disabled_reason: Nullable(Type.String({ description: 'Why the service disabled it (the endpoint answered 410 Gone, or 20 deliveries in a row failed); null otherwise' })),
  consecutive_failures: Type.Integer({ minimum: 0, description: 'Deliveries in a row that failed every attempt; at 20 the service disables the endpoint and e-mails the workspace\'s owners and admins. Back to 0 on a success or when enabled again' }),
  last_delivery: Nullable(Type.Object({
    status: StringEnum(['pending', 'succeeded', 'failed'] as const),
    event_type: Type.String(),
    at: Timestamp(),
  })),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export const WebhookListSchema = Type.Object({ items: Type.Array(WebhookSchema), total: Type.Integer({ minimum: 0 }) });
/** The endpoint as created (or with a new secret): the signing secret, shown only here. */
export const WebhookWithSecretSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'The signing secret (whsec_...): only shown now; verify webhook-signature with it' }),
});

export const CreateWebhookBody = Type.Object({
  url,
  events: Type.Optional(events),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  description: Type.Optional(description),
}, { additionalProperties: false });
export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(url),
  events: Type.Optional(events),
  enabled: Type.Optional(Type.Boolean({ description: 'Enabling again clears disabled_reason' })),
  description: Type.Optional(description),
}, { additionalProperties: false, minProperties: 1 });

export const WebhookParams = Type.Object({ workspace_id: Uuid(), webhook_id: Uuid() });
export const DeliveriesQuery = Type.Object(pageQueryProperties(20, 100), { additionalProperties: false });

export const DeliverySchema = Type.Object({
  id: Uuid(),
  webhook_id: Uuid(),
  event_id: Uuid({ description: 'The webhook-id header of its attempts' }),
  event_type: Type.String(),
  status: StringEnum(['pending', 'succeeded', 'failed'] as const, { description: 'pending: to be tried (again); succeeded: a 2xx; failed: every attempt failed, or the endpoint is gone or disabled' }),
  attempts: Type.Integer({ minimum: 0 }),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  next_attempt_at: Nullable(Timestamp('The earliest time of the next attempt (null when none is due)')),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export const DeliveryPageSchema = Paged(DeliverySchema);
export const TestSentSchema = Type.Object({ delivery_id: Uuid(), status: Type.Literal('pending'), message: Type.String() });

export type CreateWebhookInput = Static<typeof CreateWebhookBody>;
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;
