/** What the executor hands a connector: the task as stored. */
export interface TaskToApply {
  id: string;
  type: string;
  target: string;
  configuration: Record<string, unknown>;
}

/** One field a connector changed, with the exact values on either side (what rollback restores). */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** What a connector that changes the site records as the task's deliverable. */
export interface AppliedDeliverable {
  connector: 'wordpress';
  url: string;
  resource: { kind: string; id: number };
  changes: FieldChange[];
  /** The live page's title and description before the change, to check a rollback is live. */
  live_before: { title: string | null; meta_description: string | null };
  summary: string;
}

export type ApplyOutcome = { applied: AppliedDeliverable } | { unsupported: string };

export interface RestoreOutcome {
  /** Each field put back: the value restored and the value it replaced. */
  restored: Array<{ field: string; restored: string; replaced: string }>;
  /** Fields someone edited after the task ran; nothing is written while there are any (unless forced). */
  conflicts: Array<{ field: string; expected: string; found: string }>;
}

/** A way of changing a site. The manual connector has none: its tasks produce deliverables only. */
export interface SiteConnector {
  type: 'wordpress';
  apply(task: TaskToApply): Promise<ApplyOutcome>;
  restore(deliverable: AppliedDeliverable, options: { force: boolean }): Promise<RestoreOutcome>;
  /** The public page's HTML, as visitors (and search engines) get it. */
  fetchLive(url: string): Promise<string>;
  close(): Promise<void>;
}
