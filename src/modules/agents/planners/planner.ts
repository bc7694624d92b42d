import { DEFERRED, type PlanningContext, type ReadPage } from '../planning-context.ts';

export interface Planner {
  /** The audit checks whose findings this planner turns into proposals. */
  checks: readonly string[];
  plan(ctx: PlanningContext): Promise<void>;
}

export const NOT_INDEXABLE_REASON = 'the page is not indexable (noindex, or its canonical is another URL): its on-page details do not reach search results';

/**
 * The page's text for drafting (as the crawl kept it), or undefined once the refusal (not indexable, deferred,
 * unreadable) is recorded.
 */
export async function readOrReject(ctx: PlanningContext, type: string, url: string): Promise<ReadPage | undefined> {
  if (!ctx.indexable(url)) return void (await ctx.reject(type, url, NOT_INDEXABLE_REASON));
  const page = await ctx.read(url);
  if (page === 'deferred') return void (await ctx.reject(type, url, DEFERRED));
  if (!page) return void (await ctx.reject(type, url, 'the crawl kept no text of the page, and it does not answer 200 when read again'));
  return page;
}

/** The site's name as its titles show it (" | Garden Shop" -> "Garden Shop"). */
export const siteNameOf = (suffix: string) => suffix.replace(/^\s*[|–—-]\s*/, '').trim();
