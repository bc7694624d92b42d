import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { createEventsRepo } from './events.repo.ts';
import type { DomainEvent, EventPayload, EventType } from './events.types.ts';

type Subject = { site_id: string; site_name: string; site_domain: string; workspace_id: string };
const siteOf = (s: Subject) => ({ id: s.site_id, name: s.site_name, domain: s.site_domain });

/**
 * Events between a module and whoever listens outside the service. A module calls `emit` with the
 * transaction that makes the event true: each matching enabled webhook endpoint of the site's
 * workspace gets a delivery row and a delivery job, which exist only if that transaction commits.
 */
export function createEvents(deps: { queue: JobSender; publicUrl: string }) {
  const link = (path: string) => `${deps.publicUrl}${path}`;

  /** The payload's data and the workspace it belongs to; undefined when the subject is gone. */
  async function describe(trx: Kysely<DB>, event: DomainEvent) {
    const repo = createEventsRepo(trx);
    if (event.type === 'audit.completed' || event.type === 'proposals.created') {
      const audit = await repo.audit(event.auditId);
      if (!audit) return undefined;
      const data = event.type === 'audit.completed'
        ? { audit_id: audit.id, score: audit.score, site: siteOf(audit), link: link(`/sites/${audit.site_id}`) }
        : { audit_id: audit.id, count: event.count, site: siteOf(audit), link: link(`/approvals?site_id=${audit.site_id}`) };
      return { workspaceId: audit.workspace_id, data };
    }
    const task = await repo.task(event.taskId);
    if (!task) return undefined;
    return {
      workspaceId: task.workspace_id,
      data: { task: { id: task.id, type: task.type, title: task.title, status: task.status }, site: siteOf(task), link: link(`/tasks/${task.id}`) },
    };
  }

  /** Logs one delivery per endpoint and sends their jobs, in `trx`. The delivery ids. */
  async function fanOut(trx: Kysely<DB>, endpointIds: string[], payload: EventPayload) {
    const ids = await createEventsRepo(trx).insertDeliveries(endpointIds, { id: randomUUID(), type: payload.type, body: JSON.stringify(payload) });
    for (const deliveryId of ids) await deps.queue.send('webhook.deliver', { deliveryId }, { tx: trx });
    return ids;
  }

  return {
    async emit(trx: Kysely<DB>, event: DomainEvent): Promise<number> {
      const described = await describe(trx, event);
      if (!described) return 0;
      const endpoints = await createEventsRepo(trx).subscribers(described.workspaceId, event.type);
      const payload = { type: event.type as EventType, timestamp: new Date().toISOString(), data: described.data };
      return (await fanOut(trx, endpoints.map((e) => e.id), payload)).length;
    },

    /** A `webhook.test` event to one endpoint, whatever types it takes. */
    async test(trx: Kysely<DB>, endpointId: string, workspaceId: string) {
      const payload: EventPayload = {
        type: 'webhook.test', timestamp: new Date().toISOString(),
        data: { webhook_id: endpointId, workspace_id: workspaceId, message: 'A test event: this endpoint receives and verifies webhooks', link: link(`/workspaces/${workspaceId}`) },
      };
      return (await fanOut(trx, [endpointId], payload))[0]!;
    },
  };
}

export type Events = ReturnType<typeof createEvents>;
/** What a module that emits needs. */
export type EventEmitter = Pick<Events, 'emit'>;
