import { escapeHtml } from '../../../lib/strings.ts';
import { priorityOf } from '../proposal.ts';
import { proposeByPage, type PageFix } from './grouping.ts';
import type { Planner } from './planner.ts';

const CANONICAL = ['canonical_to_error', 'canonical_to_redirect', 'canonical_to_noindex', 'canonical_multiple', 'canonical_relative', 'canonical_not_http'];
const SITEMAP = ['sitemap_noindex_url', 'sitemap_blocked_url', 'sitemap_redirect_url', 'sitemap_broken_url'];
const MAX_SITEMAP_CHANGES = 500;

const SITEMAP_ACTIONS: Record<string, string> = {
  sitemap_noindex_url: 'remove it: the page asks not to be indexed',
  sitemap_blocked_url: 'remove it: robots.txt blocks it',
  sitemap_redirect_url: 'replace it with the URL it redirects to',
  sitemap_broken_url: 'remove it: it answers with an error',
};

/**
 * fix_indexing_block, fix_canonical and fix_sitemap_errors. A noindex on an inner page is
 * taken as meant (carts, thank-you pages); a noindex home page or a robots.txt that blocks
 * everything is almost always a staging setting left on, so only those are proposed.
 */
export const indexingPlanner: Planner = {
  checks: ['home_noindex', 'robots_txt_blocks_all', ...CANONICAL, ...SITEMAP],
  async plan(ctx) {
    for (const [url, [finding]] of ctx.byUrl(['home_noindex', 'robots_txt_blocks_all'])) {
      const f = finding!;
      const robots = f.check_id === 'robots_txt_blocks_all';
      await ctx.propose({
        type: 'fix_indexing_block', category: 'technical', priority: 'critical',
        title: robots ? 'Let search engines crawl the site' : 'Let search engines index the home page',
        description: robots ? `${url} disallows the whole site for crawlers.` : `The home page ${url} asks search engines not to index it.`,
        target: url,
        configuration: {
          url, issue: f.check_id, before: f.value,
          instructions: robots
            ? `In ${url}, remove "Disallow: /" from the group for all user agents (keep rules for private paths). WordPress: Settings -> Reading -> untick "Discourage search engines".`
            : `On ${url}, remove "noindex" from <meta name="robots"> and from any X-Robots-Tag header. WordPress: Settings -> Reading -> untick "Discourage search engines".`,
        },
        evidence: [ctx.evidence(f)],
      });
    }

    const canonicals = ctx.byUrl(CANONICAL);
    const fixes: Array<PageFix & { problem: string }> = [];
    for (const [url, list] of canonicals) {
      const f = list[0]!;
      const current = (f.value ?? '').split(' | ')[0] ?? '';
      let after: string | undefined;
      if (f.check_id === 'canonical_to_redirect') {
        const final = await ctx.finalUrlOf(current);
        if ('reason' in final) {
          await ctx.reject('fix_canonical', url, `the canonical redirects, and its end is unknown: ${final.reason}`);
          continue;
        }
        after = final.url;
      } else if (f.check_id === 'canonical_relative') after = new URL(current, url).href;
      else if (f.check_id === 'canonical_multiple' && /^https?:\/\//.test(current)) after = current;
      else after = url; // the canonical points at an error, a noindex page or no web address: the page itself is the one to index
      fixes.push({
        url, priority: priorityOf(list.map((x) => x.check_id), canonicals.size), problem: `the canonical ${f.value ?? ''} ${describe(f.check_id)}`,
        configuration: { url, field: 'canonical', before: f.value, after, html: `<link rel="canonical" href="${escapeHtml(after)}">` },
        evidence: list.map(ctx.evidence),
      });
    }
    // One wrong canonical on every page is one setting of the site's generator or theme: one task (in parts of 50).
    const checks = [...new Set([...canonicals.values()].flat().map((f) => f.check_id))];
    await proposeByPage(ctx, 'fix_canonical', fixes, {
      category: 'technical', checks,
      single: ({ url }) => ({ title: 'Fix the canonical link', description: `${url}: ${fixes.find((x) => x.url === url)!.problem}.` }),
      group: (pages, total, part) => ({
        title: `Fix the canonical links of ${pages} pages`,
        description: `${total} pages have a wrong canonical (${checks.map(describe).join('; ')}): usually one setting of the site's generator or theme. This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count})` : pages === total ? 'each of them' : `${pages} of them`} the canonical it should have; each page's before -> after is listed.`,
      }),
    });

    const listed = [...ctx.byUrl(SITEMAP)].flatMap(([, list]) => list);
    if (listed.length > 0) {
      const changes = listed.slice(0, MAX_SITEMAP_CHANGES).map((f) => ({
        url: f.url, problem: f.check_id, action: SITEMAP_ACTIONS[f.check_id],
        ...(f.check_id === 'sitemap_redirect_url' && f.value ? { replace_with: f.value } : {}),
      }));
      await ctx.propose({
        type: 'fix_sitemap_errors', category: 'technical', priority: priorityOf(listed.map((f) => f.check_id), listed.length),
        title: `Clean ${listed.length} URL${listed.length > 1 ? 's' : ''} out of the sitemap`,
        description: 'The sitemap lists URLs search engines should not be sent to; it should list only indexable pages that answer 200.',
        target: new URL('/sitemap.xml', ctx.homeUrl).href,
        configuration: { sitemap: new URL('/sitemap.xml', ctx.homeUrl).href, changes, truncated: listed.length > MAX_SITEMAP_CHANGES },
        evidence: listed.slice(0, MAX_SITEMAP_CHANGES).map(ctx.evidence),
      });
    }
  },
};

function describe(checkId: string) {
  switch (checkId) {
    case 'canonical_to_error': return 'answers with an error';
    case 'canonical_to_redirect': return 'redirects';
    case 'canonical_to_noindex': return 'is a noindex page';
    case 'canonical_multiple': return 'is one of several';
    case 'canonical_not_http': return 'is not a web address';
    default: return 'is relative';
  }
}
