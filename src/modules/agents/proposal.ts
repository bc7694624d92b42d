import type { TaskCategory, TaskPriority } from '../../db/types.ts';
import { CHECKS_BY_ID } from '../checks/catalogue.ts';
import type { ExpectedClicks } from '../search-data/expected-clicks.ts';
import { TASK_CATEGORIES } from '../task-types/index.ts';

/** A task as the strategy agent proposes it, before its quality gates. */
export interface Proposal {
  type: TaskType;
  category: TaskCategory;
  priority: TaskPriority;
  title: string;
  description: string;
  /** What the task acts on (a URL, or the site's sitemap): with type, what makes two proposals the same. */
  target: string;
  configuration: Record<string, unknown>;
  evidence: Array<Record<string, unknown>>;
  /** Additional clicks in 28 days, when the site has search data. */
  expectedClicks?: ExpectedClicks;
}

/** Every task type the agents propose, with its category (each type's file under task-types/ says it). */
export const TASK_TYPES = TASK_CATEGORIES;
export type TaskType = keyof typeof TASK_TYPES;

const SEVERITY_PRIORITY: Record<string, TaskPriority> = { critical: 'critical', error: 'high', warning: 'medium', notice: 'low' };
const SEVERITY_RANK = ['critical', 'error', 'warning', 'notice'];

/** The most severe of the checks, first. */
export const bySeverity = (checkIds: string[]) =>
  [...checkIds].sort((a, b) => SEVERITY_RANK.indexOf(CHECKS_BY_ID.get(a)?.severity ?? 'notice') - SEVERITY_RANK.indexOf(CHECKS_BY_ID.get(b)?.severity ?? 'notice'));

/** One step up (low -> medium -> high), never to critical: that stays for what severity alone calls critical. */
export function raised(priority: TaskPriority): TaskPriority {
  return priority === 'low' ? 'medium' : priority === 'medium' ? 'high' : priority;
}

/**
 * Priority from the worst finding's severity, raised one step when the problem spans many
 * pages (10 or more), since its fix then moves the site's score and traffic the most.
 */
export function priorityOf(checkIds: string[], affectedPages = 1): TaskPriority {
  const base = SEVERITY_PRIORITY[CHECKS_BY_ID.get(bySeverity(checkIds)[0] ?? '')?.severity ?? 'notice'] ?? 'low';
  return affectedPages >= 10 ? raised(base) : base;
}

/** What makes one page weigh more than another in the site. */
export interface PageWeight {
  url: string;
  isHome: boolean;
  /** Click depth from the home page; null when known only from a sitemap. */
  depth: number | null;
  inlinks: number;
  /** Search impressions in 28 days (0 without search data). */
  impressions: number;
}

/** At most this share of a site's page-level fixes (descriptions, titles, headings) is high priority (issue 20: 30%). */
export const MAX_HIGH_SHARE = 0.3;
const TRAFFIC = 1000;

/**
 * Priority of page-level fixes (a description, a title) from the page's weight, not from
 * the check's severity: the same missing description matters on the home page, on a page
 * one click away that many pages link to, or on a page searchers see, and much less on a
 * page five clicks deep that one page links to. High for the home page, pages with search
 * traffic, and pages one click deep among the most linked-to of the site (top tenth); low
 * for deep or sitemap-only pages with at most one link in; medium otherwise. At most 30%
 * are high (the heaviest kept): a template that lacks a description on 237 pages is
 * one problem, not 237 urgent ones.
 */
export function prioritiesByWeight(pages: readonly PageWeight[], siteInlinks: readonly number[]): Map<string, TaskPriority> {
  const sorted = [...siteInlinks].sort((a, b) => a - b);
  const topTenth = sorted.length > 0 ? sorted[Math.floor(sorted.length * 0.9)]! : 0;
  const score = (p: PageWeight) =>
    (p.isHome ? 4 : 0) + (p.impressions >= TRAFFIC ? 3 : 0) + (p.depth === null ? 0 : 2 / (1 + p.depth)) + Math.log10(1 + p.inlinks);
  const out = new Map<string, TaskPriority>();
  const high: PageWeight[] = [];
  for (const p of pages) {
    if (p.isHome || p.impressions >= TRAFFIC || (p.depth !== null && p.depth <= 1 && p.inlinks >= Math.max(2, topTenth))) high.push(p);
    else out.set(p.url, (p.depth === null || p.depth >= 4) && p.inlinks <= 1 ? 'low' : 'medium');
  }
  const allowed = Math.floor(pages.length * MAX_HIGH_SHARE);
  high.sort((a, b) => score(b) - score(a) || a.url.localeCompare(b.url));
  high.forEach((p, i) => out.set(p.url, i < allowed || p.isHome ? 'high' : 'medium'));
  return out;
}
