import { Value } from 'typebox/value';
import type { TaskCategory } from '../../db/types.ts';
import { extractPageFacts } from '../crawler/extract.ts';
import type { ConnectorChange, LiveCheck, LiveProbe, ManualDraft, TaskType } from './task-type.ts';
import { addStructuredData, expandThinContent } from './types/content.ts';
import { fixH1 } from './types/h1.ts';
import { addImageAltText } from './types/image-alt-text.ts';
import { fixCanonical, fixIndexingBlock, fixSitemapErrors } from './types/indexing.ts';
import { addInternalLinks, fixBrokenLinks, fixRedirectChains } from './types/links.ts';
import { fixDuplicateMetaDescription, fixMissingMetaDescription } from './types/meta-description.ts';
import {
  consolidateCannibalizedPages, createContentForKeyword, optimizeTitleTag, prioritizeQuickWins, refreshDecliningContent,
} from './types/search-data.ts';
import { fixTitleTag } from './types/title-tag.ts';

/** Every task type. Adding one is adding its file under types/ and its line here. */
export const TASK_TYPE_LIST = [
  fixMissingMetaDescription, fixDuplicateMetaDescription, fixTitleTag, fixH1, addImageAltText, addInternalLinks,
  fixBrokenLinks, fixRedirectChains, fixIndexingBlock, fixCanonical, fixSitemapErrors, addStructuredData, expandThinContent,
  optimizeTitleTag, prioritizeQuickWins, createContentForKeyword, refreshDecliningContent, consolidateCannibalizedPages,
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

/** The page a task is about: its configuration's url, or its target. */
export function pageOf(task: StoredTask): string {
  const { url } = configurationOf(task);
  return typeof url === 'string' ? url : task.target;
}

/** Why a proposal may not become a task: an unknown type, a configuration outside its schema, or the type's own gate. */
export function configurationFailure(type: string, configuration: unknown): string | undefined {
  const definition = BY_NAME.get(type);
  if (!definition) return 'unknown task type';
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
export async function liveChecks(task: StoredTask, fetch: LiveProbe['fetch']): Promise<LiveCheck[]> {
  const definition = BY_NAME.get(task.type);
  const probe: LiveProbe = {
    fetch,
    async facts(url) {
      const page = await fetch(url);
      if (page.status !== 200 || !page.body) return { check: 'page_answers', expected: '200', actual: String(page.status), passed: false };
      return extractPageFacts(page.body);
    },
  };
  return (await definition?.liveChecks?.(configurationOf(task), pageOf(task), probe)) ?? [];
}

/** What the task changes through a CMS connector, or undefined when no connector changes the site for it. */
export function connectorChange(task: StoredTask): ConnectorChange | undefined {
  return BY_NAME.get(task.type)?.connectorChange?.(configurationOf(task));
}

export const categoryOf = (type: string): TaskCategory | undefined => BY_NAME.get(type)?.category;
