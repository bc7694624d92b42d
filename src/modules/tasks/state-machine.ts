import type { TaskStatus } from '../../db/types.ts';

/**
 * The task lifecycle as data: each action, the statuses it may start from, and where it
 * leads. The repository's conditional UPDATE enforces exactly this table, so concurrent
 * requests for one task have one winner.
 */
export const TRANSITIONS = {
  approve: { from: ['awaiting_approval'], to: 'queued', message: 'Task approved and queued for execution' },
  cancel: { from: ['awaiting_approval', 'queued'], to: 'cancelled', message: 'Task cancelled' },
  start: { from: ['queued'], to: 'in_progress', message: 'Task execution started' },
  complete: { from: ['in_progress'], to: 'completed', message: 'Task completed' },
  fail: { from: ['in_progress'], to: 'failed', message: 'Task failed' },
  rollback: { from: ['completed'], to: 'rolled_back', message: 'Task changes rolled back' },
  /**
   * A new attempt at a failed task, from scratch (its error and deliverables cleared): only
   * when its failure left the site as it was, which the executor records as `retryable`.
   */
  retry: { from: ['failed'], to: 'queued', message: 'Task queued again for a new attempt', afresh: true },
} as const satisfies Record<string, { from: readonly TaskStatus[]; to: TaskStatus; message: string; afresh?: true }>;

export type TaskAction = keyof typeof TRANSITIONS;

/** Statuses in which a task still counts as open (the no-duplicate gate). */
export const OPEN_STATUSES: readonly TaskStatus[] = ['awaiting_approval', 'queued', 'in_progress'];

export const PRIORITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;

/** A status as people say it, for messages: "awaiting approval", "in progress". */
export const statusInWords = (status: TaskStatus) => status.replace(/_/g, ' ');
