import type { LiveCheck, ManualDraft } from '../task-types/task-type.ts';

export type { LiveCheck };
export type ConnectorType = 'manual' | 'wordpress';
export const CONNECTOR_LABELS: Record<ConnectorType, string> = { manual: 'manual', wordpress: 'WordPress' };

/** What the executor hands a connector: the task as stored. */
export interface TaskToApply {
  id: string;
  type: string;
  target: string;
  /** As the agent wrote it; its type's file under task-types/ describes it. */
  configuration: unknown;
}

/** One field a connector changed, with the exact values on either side (what rollback restores). */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** What a connector that changes the site records as the task's deliverable (what rollback restores). */
export interface AppliedDeliverable {
  connector: Exclude<ConnectorType, 'manual'>;
  url: string;
  resource: { kind: string; id: number };
  changes: FieldChange[];
  /** The live page's title and description before the change, to check a rollback is live. */
  live_before: { title: string | null; meta_description: string | null };
  summary: string;
}

/** What the manual connector delivers: what to change, where (the exact HTML or text); a note when another connector fell back to it. */
export interface ManualDeliverable extends ManualDraft {
  connector: 'manual';
  url: string;
  note?: string;
}

export type ApplyOutcome = { applied: AppliedDeliverable | ManualDeliverable } | { unsupported: string };

/** A deliverable a connector can restore: it names the resource it changed and each field's values. */
export const isRestorable = (d: unknown): d is AppliedDeliverable =>
  typeof d === 'object' && d !== null && typeof (d as AppliedDeliverable).resource === 'object' && Array.isArray((d as AppliedDeliverable).changes);

export interface RestoreOutcome {
  /** Each field put back: the value restored and the value it replaced. */
  restored: Array<{ field: string; restored: string; replaced: string }>;
  /** Fields someone edited after the task ran; nothing is written while there are any (unless forced). */
  conflicts: Array<{ field: string; expected: string; found: string }>;
}

/**
 * A way of carrying tasks out on a site. The manual connector changes nothing: its tasks
 * produce deliverables for a person; a CMS connector (WordPress) writes the change and can
 * restore it.
 */
export interface SiteConnector {
  type: ConnectorType;
  /** How messages name it ("WordPress"). */
  label: string;
  /**
   * `resumed`: an earlier attempt may already have written this page without recording it
   * (it stopped within its last progress save): a field that already holds the new value is
   * then taken as that write, its value before being the one the task was planned from.
   */
  apply(task: TaskToApply, options?: { resumed?: boolean }): Promise<ApplyOutcome>;
  /** With `dryRun`, only finds the conflicts (a task covering several pages checks them all before restoring any). */
  restore(deliverable: AppliedDeliverable, options: { force: boolean; dryRun?: boolean }): Promise<RestoreOutcome>;
  /** Checks on the public page that a restore took effect. */
  restoreChecks(deliverable: AppliedDeliverable): Promise<LiveCheck[]>;
  close(): Promise<void>;
}
