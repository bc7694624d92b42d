import type { AgentStatus, AuditStatus } from '../../db/types.ts';

/**
 * The audit lifecycle as data, like the task state machine: each action, the statuses it may
 * start from, and where it leads. The repository's conditional UPDATEs use exactly these
 * lists, so a retried or superseded attempt finds nothing to update.
 */
export const AUDIT_TRANSITIONS = {
  /** A (new or retried) attempt takes the audit. */
  start: { from: ['queued', 'running'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  fail: { from: ['queued', 'running'], to: 'failed' },
} as const satisfies Record<string, { from: readonly AuditStatus[]; to: AuditStatus }>;

/** A site has at most one audit in these statuses (a partial unique index holds it). */
export const ACTIVE_AUDIT: readonly AuditStatus[] = ['queued', 'running'];

/**
 * The strategy agent's run on a completed audit. `start` admits `running` too: a run whose
 * worker died is taken over by the retried job.
 */
export const AGENT_TRANSITIONS = {
  start: { from: ['pending', 'running'], to: 'running' },
  finish: { from: ['running'], to: 'finished' },
  fail: { from: ['pending', 'running'], to: 'failed' },
  /** A failed run is tried again on the stored audit, without a new crawl. */
  retry: { from: ['failed'], to: 'pending' },
  /** The audit failed: there is nothing to plan from. */
  skip: { from: ['pending'], to: 'skipped' },
} as const satisfies Record<string, { from: readonly AgentStatus[]; to: AgentStatus }>;

export type AgentAction = keyof typeof AGENT_TRANSITIONS;
