import type { PlanningContext } from '../planning-context.ts';
import { priorityOf } from '../proposal.ts';
import type { Planner } from './planner.ts';

const MAX_SOURCES = 3;
const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);

/** fix_broken_links, fix_redirect_chains (links to redirects) and add_internal_links (orphans). */
export const linksPlanner: Planner = {
  checks: ['broken_internal_links', 'links_to_redirect', 'orphan_page'],
  async plan(ctx) {
    const broken = ctx.byUrl(['broken_internal_links']);
    for (const [url, list] of broken) {
      await ctx.propose({
        type: 'fix_broken_links', category: 'technical', priority: priorityOf(['broken_internal_links'], broken.size),
        title: `Fix ${list.length} broken link${list.length > 1 ? 's' : ''}`,
        description: `${url} links to pages that answer with an error.`,
        target: url,
        configuration: { url, changes: list.map((f) => ({ link_to: f.value, action: 'point the link at a working page, or remove it' })) },
        evidence: list.map(ctx.evidence),
      });
    }

    const redirects = ctx.byUrl(['links_to_redirect']);
    for (const [url, list] of redirects) {
      const changes: Array<{ link_to: string; final_url: string }> = [];
      for (const finding of list) {
        const final = finding.value ? await ctx.finalUrlOf(finding.value) : undefined;
        if (final && final !== finding.value) changes.push({ link_to: finding.value!, final_url: final });
      }
      if (changes.length < list.length) {
        await ctx.reject('fix_redirect_chains', url, `${list.length - changes.length} redirecting link(s) do not end at a page that answers 200 (or wait for the next run)`);
      }
      if (changes.length === 0) continue;
      await ctx.propose({
        type: 'fix_redirect_chains', category: 'technical', priority: priorityOf(['links_to_redirect'], redirects.size),
        title: `Link straight to ${changes.length} final URL${changes.length > 1 ? 's' : ''}`,
        description: `${url} links to URLs that redirect; linking to where they end saves a hop for visitors and crawlers.`,
        target: url,
        configuration: { url, changes },
        evidence: list.filter((f) => changes.some((c) => c.link_to === f.value)).map(ctx.evidence),
      });
    }

    const orphans = ctx.byUrl(['orphan_page']);
    for (const [url, [finding]] of orphans) {
      const page = ctx.pageByUrl.get(url);
      const anchor = ctx.siteSuffix && page?.title?.endsWith(ctx.siteSuffix) ? page.title.slice(0, -ctx.siteSuffix.length) : page?.title;
      if (!anchor) {
        await ctx.reject('add_internal_links', url, 'the orphan page has no title to use as anchor text');
        continue;
      }
      const sources = relatedPages(ctx, url, anchor, new Set(orphans.keys()));
      await ctx.propose({
        type: 'add_internal_links', category: 'seo', priority: priorityOf(['orphan_page'], orphans.size),
        title: 'Link to a page no other page links to',
        description: `${url} is only known from the sitemap; links from related pages let visitors and crawlers reach it.`,
        target: url,
        configuration: { url, anchor_text: anchor, sources, html: `<a href="${url}">${anchor.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a>` },
        evidence: [ctx.evidence(finding!)],
      });
    }
  },
};

/** The pages whose titles share the most words with the orphan's (the home page when none do). */
function relatedPages(ctx: PlanningContext, url: string, anchor: string, orphans: Set<string>) {
  const wanted = words(anchor);
  const scored = ctx.pages
    .filter((p) => p.status === 200 && p.url !== url && !orphans.has(p.url) && p.title)
    .map((p) => {
      const shared = [...words(p.title!)].filter((w) => wanted.has(w));
      return { url: p.url, shared };
    })
    .filter((p) => p.shared.length > 0)
    .sort((a, b) => b.shared.length - a.shared.length || a.url.length - b.url.length)
    .slice(0, MAX_SOURCES)
    .map((p) => ({ url: p.url, reason: `its title shares: ${p.shared.join(', ')}` }));
  return scored.length > 0 ? scored : [{ url: ctx.homeUrl, reason: 'no page with a related title; the home page reaches every visitor' }];
}
