/** The events other modules emit; webhooks (and, later, e-mail) subscribe to them by type. */
export const EVENT_TYPES = ['audit.completed', 'proposals.created', 'task.completed', 'task.failed', 'task.verified', 'task.rolled_back'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a module says happened: ids only; the events module reads the rest in the same transaction. */
export type DomainEvent =
  | { type: 'audit.completed'; auditId: string }
  | { type: 'proposals.created'; auditId: string; count: number }
  | { type: 'task.completed' | 'task.failed' | 'task.verified' | 'task.rolled_back'; taskId: string };

/** The body every receiver gets (Standard Webhooks' recommended shape). */
export interface EventPayload {
  type: EventType | 'webhook.test';
  timestamp: string;
  data: Record<string, unknown>;
}
