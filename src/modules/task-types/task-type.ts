import type { LabResult } from '../page-speed/lab-result.ts';
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import type { TaskCategory } from '../../db/types.ts';
import type { PageFacts } from '../crawler/extract.ts';
import { displayWidth } from '../../lib/strings.ts';

/** A live check (verification, rollback): what was expected on the public site and what it shows. */
export interface LiveCheck {
  check: string;
  /** The page checked, when a task covers several. */
  url?: string;
  expected: string | null;
  actual: string | null;
  passed: boolean;
}

/** What a person is handed to carry a task out (the manual connector's deliverable, less connector and url). */
export interface ManualDraft {
  instructions: string;
  /** Exact HTML to put in place, where one element is to be added or replaced. */
  html?: string;
  changes?: unknown[];
}

/** The public site as verification reads it. */
export interface LiveProbe {
  fetch(url: string): Promise<{ status: number; body: string | undefined; headers: Record<string, string> }>;
  /** The page's facts as a search engine reads it (rendered in Chromium where its HTML is a script's shell), or the failed check "the page answers 200". */
  facts(url: string): Promise<PageFacts | LiveCheck>;
  /** The facts of the server's HTML alone, no script run (what crawlers that run none read). */
  rawFacts(url: string): Promise<PageFacts | LiveCheck>;
  /** The page measured in Lighthouse as the audit measures it (page-speed/lab-runner.ts), or the failed check saying why it could not be. */
  lab(url: string): Promise<LabResult | LiveCheck>;
}

/** Runs Lighthouse on a page for verification: its result, or why it could not. */
export type LiveLab = (url: string) => Promise<LabResult | { url: string; error: string }>;

/** Renders a page whose HTML the probe fetched (crawler/renderer.ts): the DOM after scripts, or undefined when it could not. */
export type LiveRender = (url: string, raw: { contentType: string; body: string }) => Promise<string | undefined>;

/**
 * What a task changes on a page, said independently of any CMS: a connector that writes to
 * the site (WordPress) maps it onto its own fields; `none` says why nothing matched.
 */
export type ConnectorChange =
  | { field: 'meta_description' | 'title'; value: string }
  | { field: 'content'; edit: ContentEdit; none: string }
  | { unsupported: string };
export type ContentEdit =
  | { kind: 'unwrap_links'; targets: string[] }
  | { kind: 'retarget_links'; moves: Array<[string, string]> }
  | { kind: 'set_image_alts'; alts: Array<[string, string]> }
  | { kind: 'demote_h1s'; keep?: string };

/**
 * Everything about one task type, in its own file: its category, the TypeBox schema of its
 * configuration (what will change, before -> after; it validates proposals and documents
 * the task's detail in OpenAPI), its quality gate, the manual deliverable, what "the change
 * is live" means, and what it changes through a connector. Methods (not function
 * properties) so that the registry can hold every type under one interface.
 */
export interface TaskType<C extends TObject = TObject, N extends string = string, K extends TaskCategory = TaskCategory> {
  type: N;
  category: K;
  configuration: C;
  /** Why a proposal may not become a task (beyond its schema), or undefined. */
  gate(config: Static<C>): string | undefined;
  manual(config: Static<C>, url: string): ManualDraft;
  /** An empty list (or none): the change cannot be checked from outside. */
  liveChecks?(config: Static<C>, url: string, probe: LiveProbe): Promise<LiveCheck[]>;
  /** Undefined: no connector changes the site for this type (its manual deliverable stands). */
  connectorChange?(config: Static<C>): ConnectorChange;
  /** A configuration that is a brief although its type changes the site (stored before the type drafted its change). */
  isBrief?(config: Static<C>): boolean;
  /**
   * One problem on many pages (one template, one missing field everywhere) may be one task:
   * its configuration is then `{ pages: [<this type's configuration>, ...] }`, each page with
   * its own values, carried out, verified and rolled back page by page.
   */
  perPage?: true;
}

export const defineTaskType = <const C extends TObject, const N extends string, const K extends TaskCategory>(definition: TaskType<C, N, K>) => definition;

/** A configuration object: its listed fields typed, anything else kept (planners may add fields). */
export const Configuration = <P extends TProperties>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

/** A site-wide task names this many of its pages, and the verifier checks them. */
export const SITE_WIDE_EXAMPLES = 10;

/** One template cause on more pages than a task lists: one change fixes them all, checked on some of them. */
export const SiteWide = (pages: string) => Type.Optional(Type.Object({
  pages: Type.Integer({ minimum: 1, description: pages }),
  examples: Type.Array(Type.String(), { maxItems: SITE_WIDE_EXAMPLES, description: 'Some of them, checked after the change' }),
}, { description: 'One template causes it on more pages than a task lists: its one change fixes them all (the other fields are the first example\'s)' }));

/** A string whose display width (wide CJK characters count twice) is within the bounds. */
export const isText = (value: unknown, min: number, max: number) => typeof value === 'string' && displayWidth(value) >= min && displayWidth(value) <= max;
export const isCheck = (value: unknown): value is LiveCheck => typeof value === 'object' && value !== null && 'passed' in value;
