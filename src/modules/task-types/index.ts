import { Type, type TObject } from 'typebox';
import { Value } from 'typebox/value';
import { pageKey } from '../../lib/page-key.ts';
import type { TaskCategory } from '../../db/types.ts';
import { extractPageFacts, type PageFacts } from '../crawler/extract.ts';
import type { ConnectorChange, LiveCheck, LiveLab, LiveProbe, LiveRender, ManualDraft, TaskType } from './task-type.ts';
import { renderRuleFor } from '../crawler/render-rules.ts';
import { addStructuredData, expandThinContent } from './types/content.ts';
import { fixH1 } from './types/h1.ts';
import { addHreflang } from './types/hreflang.ts';
import { fixHtmlLang } from './types/html-lang.ts';
import { addImageAltText } from './types/image-alt-text.ts';
import { fixCanonical, fixIndexingBlock, fixSitemapErrors } from './types/indexing.ts';
import { addInternalLinks, fixBrokenLinks, fixRedirectChains } from './types/links.ts';
import { fixDuplicateMetaDescription, fixMissingMetaDescription } from './types/meta-description.ts';
import {
  consolidateCannibalizedPages, createContentForKeyword, optimizeTitleTag, prioritizeQuickWins, refreshDecliningContent, strengthenPageForQuery,
} from './types/search-data.ts';
import { fixTitleTag } from './types/title-tag.ts';
import { renderOnServer } from './types/rendering.ts';
import { improvePageSpeed } from './types/page-speed.ts';

/** Every task type. Adding one is adding its file under types/ and its line here. */
export const TASK_TYPE_LIST = [
  fixMissingMetaDescription, fixDuplicateMetaDescription, fixTitleTag, fixH1, addImageAltText, addInternalLinks,
  fixBrokenLinks, fixRedirectChains, fixIndexingBlock, fixCanonical, fixSitemapErrors, addHreflang, fixHtmlLang, addStructuredData, expandThinContent,
  optimizeTitleTag, prioritizeQuickWins, strengthenPageForQuery, createContentForKeyword, refreshDecliningContent, consolidateCannibalizedPages,
  renderOnServer, improvePageSpeed,
] as const;

export type TaskTypeName = (typeof TASK_TYPE_LIST)[number]['type'];
const BY_NAME = new Map<string, TaskType>(TASK_TYPE_LIST.map((t) => [t.type, t]));

/** Each type's category (what the agents and the tasks list filter by). */
export const TASK_CATEGORIES = Object.fromEntries(TASK_TYPE_LIST.map((t) => [t.type, t.category])) as { [T in (typeof TASK_TYPE_LIST)[number] as T['type']]: T['category'] };

/** A task as stored: its type names its definition; configuration is what the agent wrote. */
interface StoredTask {
  type: string;
  target: string;
  configuration: unknown;
}
const configurationOf = (task: StoredTask) => (typeof task.configuration === 'object' && task.configuration !== null ? task.configuration : {}) as Record<string, unknown>;

/** At most this many pages in one task: beyond it a template-wide problem becomes several tasks, each reviewable. */
export const PAGES_PER_TASK = 50;

/** The configuration of a task that covers several pages: each page with its own values, in the type's single-page shape. */
const groupedSchemas = new Map<string, TObject>();
function groupedSchemaOf(definition: TaskType): TObject {
  let schema = groupedSchemas.get(definition.type);
  if (!schema) {
    schema = Type.Object({
      pages: Type.Array(definition.configuration, { minItems: 2, maxItems: PAGES_PER_TASK, description: 'Each page with its own values (url, before, after)' }),
      group: Type.Optional(Type.Object({ checks: Type.Array(Type.String()), pages: Type.Integer({ description: 'Pages with the problem in the audit' }) })),
    }, { additionalProperties: true, description: `${(definition.configuration as { description?: string }).description ?? definition.type}: one problem on many pages, as one task` });
    groupedSchemas.set(definition.type, schema);
  }
  return schema;
}

/** What a task's configuration may be (OpenAPI): its type's, or for types that allow it, that per page. */
export const configurationSchemaOf = (definition: TaskType) =>
  definition.perPage ? Type.Union([definition.configuration, groupedSchemaOf(definition)]) : definition.configuration;

/**
 * The single-page tasks a stored task stands for: a task covering several pages is carried
 * out, verified and rolled back page by page, each page with its own configuration.
 */
export function pagesOf<T extends StoredTask>(task: T): T[] {
  const { pages } = configurationOf(task);
  // Other types may have a `pages` field of their own (the pages a cannibalised query splits over).
  if (!BY_NAME.get(task.type)?.perPage || !Array.isArray(pages)) return [task];
  return pages.map((page: unknown) => {
    const url = typeof page === 'object' && page !== null && typeof (page as { url?: unknown }).url === 'string' ? (page as { url: string }).url : task.target;
    return { ...task, target: url, configuration: page };
  });
}

/** The page a task is about: its configuration's url, or its target. */
export function pageOf(task: StoredTask): string {
  const { url } = configurationOf(task);
  return typeof url === 'string' ? url : task.target;
}

/** Why a proposal may not become a task: an unknown type, a configuration outside its schema, or the type's own gate. */
export function configurationFailure(type: string, configuration: unknown): string | undefined {
  const definition = BY_NAME.get(type);
  if (!definition) return 'unknown task type';
  const pages = (configuration as { pages?: unknown } | null)?.pages;
  if (definition.perPage && pages !== undefined) {
    const grouped = groupedSchemaOf(definition);
    if (!Value.Check(grouped, configuration)) {
      const first = Value.Errors(grouped, configuration)[0];
      return `the configuration does not match the ${type} schema for several pages (${first?.instancePath || '/'} ${first?.message ?? 'invalid'})`;
    }
    for (const page of pages as Array<{ url?: string }>) {
      const failure = definition.gate(page);
      if (failure) return `${page.url ?? 'a page'}: ${failure}`;
    }
    const urls = (pages as Array<{ url?: string }>).map((p) => p.url);
    if (urls.some((u) => typeof u !== 'string') || new Set(urls).size !== urls.length) return 'each page of the task needs its own url, once';
    return undefined;
  }
  if (!Value.Check(definition.configuration, configuration)) {
    const first = Value.Errors(definition.configuration, configuration)[0];
    return `the configuration does not match the ${type} schema (${first?.instancePath || '/'} ${first?.message ?? 'invalid'})`;
  }
  return definition.gate(configuration);
}

/** The manual deliverable of a task (its url and the type's draft), or undefined for an unknown type. */
export function manualDraft(task: StoredTask): (ManualDraft & { url: string }) | undefined {
  const definition = BY_NAME.get(task.type);
  const url = pageOf(task);
  return definition && { url, ...definition.manual(configurationOf(task), url) };
}

/** What "the change is live" means for the task, checked on the public site; [] when it cannot be checked from outside. */
export async function liveChecks(
  task: StoredTask, fetch: LiveProbe['fetch'], rendering?: { mode: 'auto' | 'always'; render: LiveRender }, lab?: LiveLab,
): Promise<LiveCheck[]> {
  const definition = BY_NAME.get(task.type);
  type Read = { page: { headers: Record<string, string>; body: string }; facts: PageFacts } | LiveCheck;
  const rawFacts = async (url: string): Promise<Read> => {
    const page = await fetch(url);
    if (page.status !== 200 || !page.body) return { check: 'page_answers', expected: '200', actual: String(page.status), passed: false };
    return { page: { headers: page.headers, body: page.body }, facts: extractPageFacts(page.body) };
  };
  const probe: LiveProbe = {
    fetch,
    async rawFacts(url) {
      const read = await rawFacts(url);
      return 'facts' in read ? read.facts : read;
    },
    // As the audit reads a page: rendered where the site renders every page, or where its HTML is a script's shell
    // (a change a client-rendered site makes shows only once its scripts run). A failed render leaves the raw page.
    async facts(url) {
      const read = await rawFacts(url);
      if (!('facts' in read) || !rendering) return 'facts' in read ? read.facts : read;
      if (rendering.mode !== 'always' && renderRuleFor(read.facts) === undefined) return read.facts;
      const html = await rendering.render(url, { contentType: read.page.headers['content-type'] ?? 'text/html', body: read.page.body });
      return html === undefined ? read.facts : extractPageFacts(html);
    },
    async lab(url) {
      if (!lab) return { check: 'lighthouse_runs', expected: 'a Lighthouse run', actual: 'Chromium is not installed on this server', passed: false };
      const result = await lab(url);
      return 'error' in result ? { check: 'lighthouse_runs', expected: 'a Lighthouse run', actual: result.error, passed: false } : result;
    },
  };
  const pages = pagesOf(task);
  if (pages.length === 1 && pages[0] === task) return (await definition?.liveChecks?.(configurationOf(task), pageOf(task), probe)) ?? [];
  const checks: LiveCheck[] = [];
  for (const page of pages) {
    for (const check of (await definition?.liveChecks?.(configurationOf(page), pageOf(page), probe)) ?? []) checks.push({ ...check, url: pageOf(page) });
  }
  return checks;
}

/** A brief: a deliverable for a person (a plan, a page to write), which no connector carries out on the site. */
export function isBrief(task: StoredTask): boolean {
  const definition = BY_NAME.get(task.type);
  return definition !== undefined && (definition.connectorChange === undefined || definition.isBrief?.(configurationOf(task)) === true);
}

/** What the task changes through a CMS connector, or undefined when no connector changes the site for it. */
export function connectorChange(task: StoredTask): ConnectorChange | undefined {
  return BY_NAME.get(task.type)?.connectorChange?.(configurationOf(task));
}

export const categoryOf = (type: string): TaskCategory | undefined => BY_NAME.get(type)?.category;

/**
 * The fields of pages a task changes, one `<url>#<field>` per page ('#title',
 * '#meta_description', '#content:<edit>'): what two open tasks may never share. A brief
 * changes nothing itself and claims nothing.
 */
export function claimsOf(task: StoredTask): string[] {
  const claims = new Set<string>();
  for (const page of pagesOf(task)) {
    const change = connectorChange(page);
    // One page however the task writes its address (a crawl's, Search Console's).
    const url = pageKey(pageOf(page));
    if (change && 'field' in change) claims.add(`${url}#${change.field === 'content' ? `content:${change.edit.kind}` : change.field}`);
  }
  return [...claims];
}
