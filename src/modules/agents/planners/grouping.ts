import type { TaskPriority } from '../../../db/types.ts';
import { configurationFailure, PAGES_PER_TASK } from '../../task-types/index.ts';
import { SITE_WIDE_EXAMPLES } from '../../task-types/task-type.ts';
import type { PlanningContext } from '../planning-context.ts';
import type { Proposal, TaskType } from '../proposal.ts';

/** From this many pages with one problem, the pages share one task (several past PAGES_PER_TASK). */
export const GROUP_MIN = 3;

/** One page's drafted fix: the type's single-page configuration, its evidence and its priority from the page's weight. */
export interface PageFix {
  url: string;
  priority: TaskPriority;
  configuration: Record<string, unknown>;
  evidence: Array<Record<string, unknown>>;
}

const RANK: TaskPriority[] = ['critical', 'high', 'medium', 'low'];

/** The priority most of the pages have (the lower on a tie): a group is as urgent as its typical page, not its heaviest. */
function commonest(fixes: readonly PageFix[]): TaskPriority {
  const counts = new Map<TaskPriority, number>();
  for (const f of fixes) counts.set(f.priority, (counts.get(f.priority) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || RANK.indexOf(b[0]) - RANK.indexOf(a[0]))[0]![0];
}

/**
 * Proposes one problem found on many pages (a missing description, titles over the limit)
 * as it is: one task whose configuration lists the pages, each with its own drafted value,
 * heaviest pages first, in balanced parts of at most PAGES_PER_TASK so each stays
 * reviewable, all as urgent as most of the problem's pages. Pages an open proposal of this type already covers are left out; with fewer
 * than GROUP_MIN pages left, each page gets its own task.
 */
export async function proposeByPage(
  ctx: PlanningContext,
  type: TaskType,
  fixes: readonly PageFix[],
  words: {
    single(fix: PageFix): Pick<Proposal, 'title' | 'description'>;
    group(pages: number, total: number, part: { index: number; count: number }): Pick<Proposal, 'title' | 'description'>;
    category: Proposal['category'];
    checks: readonly string[];
  },
): Promise<void> {
  const covered = ctx.covered(type);
  const fresh: PageFix[] = [];
  for (const fix of fixes.filter((f) => !covered.has(f.url))) {
    // A second URL of one page: the change is made once, on the page it copies (the copy's own fix is its canonical).
    const copied = type === 'fix_canonical' ? undefined : ctx.copyOf(fix.url);
    if (copied) {
      await ctx.reject(type, fix.url, `serves the same page as ${copied}: its fix is a canonical to it, and this change is made there`);
      continue;
    }
    // A page whose value fails the type's gate is refused alone, not with the pages it would share a task with.
    const failure = configurationFailure(type, fix.configuration);
    if (failure) await ctx.reject(type, fix.url, failure);
    else fresh.push(fix);
  }
  if (fresh.length < GROUP_MIN) {
    for (const fix of fresh) {
      await ctx.propose({ type, category: words.category, priority: fix.priority, ...words.single(fix), target: fix.url, configuration: fix.configuration, evidence: fix.evidence });
    }
    return;
  }
  const ordered = [...fresh].sort((a, b) => RANK.indexOf(a.priority) - RANK.indexOf(b.priority) || a.url.localeCompare(b.url));
  const count = Math.ceil(ordered.length / PAGES_PER_TASK);
  const size = Math.ceil(ordered.length / count);
  // One problem, one urgency: its parts exist to keep each reviewable, not to rank its pages.
  const priority = commonest(ordered);
  for (let index = 0; index < count; index++) {
    const part = ordered.slice(index * size, (index + 1) * size);
    await ctx.propose({
      type, category: words.category, priority,
      ...words.group(part.length, fixes.length, { index, count }),
      // The heaviest page names the task: with its type, what tells two proposals apart.
      target: part[0]!.url,
      configuration: {
        pages: part.map(({ configuration: { group: _, ...page } }) => page),
        group: { checks: [...words.checks], pages: fixes.length },
      },
      evidence: part.flatMap((f) => f.evidence),
    });
  }
}

/**
 * Fixes with one template cause (causeOf says which; undefined: a cause of the page's own) on
 * more pages than one task lists become one site-wide task, named by its shortest URL and
 * checked on SITE_WIDE_EXAMPLES of its pages after the change: 692 pages of one template h1
 * were 14 tasks of the same change. Open tasks' pages stay in: the target stays the same, so the
 * next audit's proposal is the open one. Returns the fixes left for proposeByPage.
 */
export async function proposeSiteWide(
  ctx: PlanningContext,
  type: TaskType,
  fixes: readonly PageFix[],
  causeOf: (configuration: Record<string, unknown>) => string | undefined,
  words: (first: PageFix, pages: number) => Pick<Proposal, 'title' | 'description' | 'category'> & { instructions?: string },
): Promise<PageFix[]> {
  const byCause = new Map<string, PageFix[]>();
  for (const fix of fixes) {
    const cause = causeOf(fix.configuration);
    if (cause !== undefined && !ctx.copyOf(fix.url)) byCause.set(cause, [...(byCause.get(cause) ?? []), fix]);
  }
  const siteWide = new Set<string>();
  for (const group of byCause.values()) {
    if (group.length <= PAGES_PER_TASK) continue;
    const ordered = [...group].sort((a, b) => a.url.length - b.url.length || a.url.localeCompare(b.url));
    const first = ordered[0]!;
    const examples = ordered.slice(0, SITE_WIDE_EXAMPLES);
    const { instructions, ...proposal } = words(first, group.length);
    await ctx.propose({
      type, priority: commonest(group), ...proposal, target: first.url,
      configuration: { ...first.configuration, ...(instructions ? { instructions } : {}), site_wide: { pages: group.length, examples: examples.map((f) => f.url) } },
      evidence: examples.flatMap((f) => f.evidence),
    });
    for (const fix of group) siteWide.add(fix.url);
  }
  return fixes.filter((fix) => !siteWide.has(fix.url));
}
