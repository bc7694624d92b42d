import { escapeHtml } from '../../../lib/strings.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import type { PlanningContext } from '../planning-context.ts';
import { priorityOf } from '../proposal.ts';
import { expectedPageOf } from './broken-link-advice.ts';
import { proposeByPage, type PageFix } from './grouping.ts';
import type { Planner } from './planner.ts';

const MAX_SOURCES = 3;
/** A link to a page that is gone: where it went (or what replaces it) first; taken out only when nothing does. */
export const REPOINT = 'point the link at the page\'s new address (or a page that replaces it); remove it only if nothing does';
const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);

/** fix_broken_links, fix_redirect_chains (links to redirects) and add_internal_links (orphans). */
export const linksPlanner: Planner = {
  checks: ['broken_internal_links', 'links_to_redirect', 'orphan_page'],
  async plan(ctx) {
    const broken = ctx.byUrl(['broken_internal_links']);
    const fixes: Array<PageFix & { links: number }> = [];
    for (const [url, list] of broken) {
      // The audit keeps one example per page; the page itself names every broken link.
      const targets = await linkTargets(ctx, url, 'links_to_errors', (status) => status === 0 || status >= 400, list.map((f) => f.value ?? ''));
      fixes.push({
        url, priority: priorityOf(['broken_internal_links'], broken.size), evidence: list.map(ctx.evidence), links: targets.length,
        configuration: {
          url,
          changes: targets.map((link) => ({ link_to: link, status: ctx.pageByUrl.get(link)?.status ?? null, action: REPOINT })),
        },
      });
    }
    // Many links into one directory the site does not publish (a generator pointing cross-references at a local path): one cause, named on each link.
    const missing = missingSection(ctx, fixes.flatMap((f) => (f.configuration.changes as Array<{ link_to: string }>).map((c) => c.link_to)));
    // What to do with each link, said once: the missing section's cause, else a page the site is expected to have (its cart, a
    // privacy notice, a category of the catalogue: publish it, not remove the link), else repoint it; a link on most of the site's pages
    // is in its template (a menu, a footer): one fix there, not one a page.
    const template = templateLinks(ctx, fixes);
    for (const fix of fixes) {
      const changes = fix.configuration.changes as Array<{ link_to: string }>;
      fix.configuration.changes = changes.map((change) => ({ ...change, ...adviceFor(change.link_to, missing, template.get(change.link_to)) }));
    }
    // Broken links on many pages (a moved section, links a template or a translation repeats) are one task, each page's links listed.
    await proposeByPage(ctx, 'fix_broken_links', fixes, {
      category: 'technical', checks: ['broken_internal_links'],
      single: ({ url }) => {
        const n = fixes.find((f) => f.url === url)!.links;
        return { title: `Fix ${n} broken link${n > 1 ? 's' : ''}`, description: `${url} links to pages that answer with an error.` };
      },
      group: (pages, total, part) => {
        const links = fixes.reduce((sum, f) => sum + f.links, 0);
        return {
          title: `Fix broken links on ${pages} pages`,
          description: `${total} pages link to pages that answer with an error (${links} links in all). `
            + (template.size > 0 ? `${template.size} of the links are in the site's menu or footer, on most pages: fixed once there, they are fixed everywhere. ` : '')
            + (missing ? `${missing.links} of them point under ${missing.path}, where the site publishes no page: one cause, likely one setting where those links are made. ` : '')
            + `This task lists ${part.count > 1 ? `these ${pages} pages (part ${part.index + 1} of ${part.count}, heaviest first)` : pages === total ? 'each page' : `${pages} of them`} with its broken links and what to do with each.`,
        };
      },
    });

    const redirects = ctx.byUrl(['links_to_redirect']);
    for (const [url, list] of redirects) {
      const targets = await linkTargets(ctx, url, 'links_to_redirects', (status) => status >= 300 && status < 400, list.map((f) => f.value ?? ''));
      const changes: Array<{ link_to: string; final_url: string }> = [];
      const unresolved: string[] = [];
      for (const link of targets) {
        const final = await ctx.finalUrlOf(link);
        if ('url' in final && final.url !== link) changes.push({ link_to: link, final_url: final.url });
        else unresolved.push(`${link}: ${'reason' in final ? final.reason : 'it does not redirect'}`);
      }
      if (unresolved.length > 0) {
        // Says what happened to each link (an exhausted read budget, a loop, an end that answers 404), not one guess for all.
        await ctx.reject('fix_redirect_chains', url, `${unresolved.length} redirecting link(s) left out: ${unresolved.slice(0, 5).join('; ')}${unresolved.length > 5 ? '; …' : ''}`);
      }
      if (changes.length === 0) continue;
      await ctx.propose({
        type: 'fix_redirect_chains', category: 'technical', priority: priorityOf(['links_to_redirect'], redirects.size),
        title: `Link straight to ${changes.length} final URL${changes.length > 1 ? 's' : ''}`,
        description: `${url} links to URLs that redirect; linking to where they end saves a hop for visitors and crawlers.`,
        target: url,
        configuration: { url, changes },
        evidence: list.map(ctx.evidence),
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
        configuration: { url, anchor_text: anchor, sources, html: `<a href="${escapeHtml(url)}">${escapeHtml(anchor)}</a>` },
        evidence: [ctx.evidence(finding!)],
      });
    }
  },
};

/**
 * The page's internal links whose crawled status matches (broken, redirecting): as the crawl
 * kept them, else from the page downloaded again; the audit's examples when neither is there.
 */
async function linkTargets(
  ctx: PlanningContext, url: string, kept: 'links_to_errors' | 'links_to_redirects', matches: (status: number) => boolean, examples: string[],
): Promise<string[]> {
  const stored = await ctx.read(url);
  if (stored && stored !== 'deferred' && stored.source === 'crawl' && stored.stored[kept]?.length) return stored.stored[kept];
  const page = await ctx.download(url);
  if (!page || page === 'deferred') return examples.filter(Boolean);
  const found = new Set<string>();
  for (const link of page.links) {
    const target = normalizeUrl(link.href, url);
    const status = target === undefined ? undefined : ctx.pageByUrl.get(target)?.status;
    if (target && status !== undefined && status !== null && matches(status)) found.add(target);
  }
  return found.size > 0 ? [...found] : examples.filter(Boolean);
}

/**
 * The pages whose titles share the most telling words with the orphan's: words are weighted
 * by rarity across the site's titles (inverse document frequency), so the site name or
 * "made" count for little and "shelves" for a lot. The home page when none share any.
 */
function relatedPages(ctx: PlanningContext, url: string, anchor: string, orphans: Set<string>) {
  const strip = (title: string) => (ctx.siteSuffix && title.endsWith(ctx.siteSuffix) ? title.slice(0, -ctx.siteSuffix.length) : title);
  const candidates = ctx.pages.filter((p) => p.status === 200 && p.url !== url && !orphans.has(p.url) && p.title);
  const frequency = new Map<string, number>();
  for (const p of candidates) for (const w of words(strip(p.title!))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const wanted = words(anchor);
  const scored = candidates
    .map((p) => {
      const shared = [...words(strip(p.title!))].filter((w) => wanted.has(w));
      const score = shared.reduce((sum, w) => sum + Math.log((candidates.length + 1) / (frequency.get(w) ?? 1)), 0);
      return { url: p.url, shared, score };
    })
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.url.length - b.url.length)
    .slice(0, MAX_SOURCES)
    .map((p) => ({ url: p.url, reason: `its title shares: ${p.shared.join(', ')}` }));
  return scored.length > 0 ? scored : [{ url: ctx.homeUrl, reason: 'no page with a related title; the home page reaches every visitor' }];
}

/**
 * What to do with one broken link: the missing section's cause, else the page the site is expected to have, else REPOINT; said once
 * for a link of the menu or footer. A link to a page the site is expected to have is named by its rule as `page_expected`, so
 * that no connector takes it out.
 */
export function adviceFor(link: string, missing: { path: string; links: number } | undefined, templatePages: number | undefined) {
  const path = new URL(link).pathname;
  const inMissingSection = missing !== undefined && path.startsWith(missing.path);
  // (Named even in a missing section, whose cause is said first: such a link is kept all the same.)
  const expected = expectedPageOf(path);
  const advice = inMissingSection
    ? `the site publishes nothing under ${missing.path} (${missing.links} broken links point there): fix where these links are made (a generator's or template's setting), or publish that section`
    : expected ? `the link goes to ${expected.says}` : REPOINT;
  return {
    // (And where a page's own text links to it too, a home page's button: read by a shop's owner, whose hero button was missed.)
    action: templatePages === undefined ? advice : `in the site's menu or footer (on ${templatePages} pages): fix it once there, and in any button or text of a page that links to it too; ${advice}`,
    ...(templatePages === undefined ? {} : { in_template: true as const }),
    ...(expected ? { page_expected: expected.id } : {}),
  };
}

/** From this many broken links, and this share of them, into one directory without a page, the directory is the cause. */
const SECTION_MIN_LINKS = 10;
const SECTION_MIN_SHARE = 0.3;

/**
 * The directory most broken links point into, named as deep as all of them allow, under which the crawl found no
 * page that answers (`/usr/share/doc/python3-doc/html/`: cross-references a generator pointed
 * at a local path), or undefined when the links have no such common cause.
 */
/** Pages a broken link must be on, and the share of the site's pages, to be read as its template's. */
const TEMPLATE_MIN_PAGES = 3;
const TEMPLATE_MIN_SHARE = 0.5;

/** Broken links on most of the site's pages (at least TEMPLATE_MIN_PAGES and TEMPLATE_MIN_SHARE of its pages), with how many pages have each. */
export function templateLinks(ctx: Pick<PlanningContext, 'pages'>, fixes: ReadonlyArray<{ configuration: Record<string, unknown> }>): Map<string, number> {
  const pagesWith = new Map<string, number>();
  for (const fix of fixes) for (const change of fix.configuration.changes as Array<{ link_to: string }>) pagesWith.set(change.link_to, (pagesWith.get(change.link_to) ?? 0) + 1);
  const sitePages = ctx.pages.filter((p) => p.status === 200).length;
  return new Map([...pagesWith].filter(([, n]) => n >= TEMPLATE_MIN_PAGES && n >= sitePages * TEMPLATE_MIN_SHARE));
}

export function missingSection(ctx: Pick<PlanningContext, 'pages'>, links: readonly string[]): { path: string; links: number } | undefined {
  const counts = new Map<string, number>();
  for (const link of links) {
    const path = new URL(link).pathname;
    for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) {
      const dir = path.slice(0, at + 1);
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  const published = ctx.pages.filter((p) => p.status === 200).map((p) => new URL(p.url).pathname);
  const enough = Math.max(SECTION_MIN_LINKS, links.length * SECTION_MIN_SHARE);
  const unpublished = [...counts].filter(([dir, n]) => n >= enough && !published.some((p) => p.startsWith(dir)));
  // All the links of the cause, named as precisely as they allow: /usr/share/doc/python3-doc/html/, not /usr/.
  const most = Math.max(0, ...unpublished.map(([, n]) => n));
  const [path] = unpublished.filter(([, n]) => n === most).sort((a, b) => b[0].length - a[0].length)[0] ?? [];
  return path === undefined ? undefined : { path, links: most };
}
