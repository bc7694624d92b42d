import { pageLanguage } from '../crawler/language.ts';
import type { CrawlResult, CrawledPage } from '../crawler/crawl.ts';
import { hasAnchor } from '../crawler/fragments.ts';
import { normalizeUrl } from '../crawler/urls.ts';
import { checkAiAccess } from './ai-access-checks.ts';
import type { Findings } from './findings.ts';
import { isNoindex } from './page-checks.ts';
import { robotsUnavailable } from '../crawler/ai-access.ts';

/** A valid hreflang value (BCP 47 as Google reads it): a language, optionally with a script or region, or x-default. */
export const HREFLANG = /^(x-default|[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?)$/i;
const MAX_CLICK_DEPTH = 4;
export const LARGE_IMAGE_BYTES = 200 * 1024;

const isBroken = (page: CrawledPage | undefined) => page !== undefined && page.status !== null && (page.status === 0 || page.status >= 400);
const isRedirect = (page: CrawledPage | undefined) => page !== undefined && page.redirectChain.length > 0;

/** Checks that compare pages with each other, the link graph and the sitemaps. */
export function checkSite(crawl: CrawlResult, findings: Findings) {
  const byUrl = new Map(crawl.pages.map((p) => [p.url, p]));
  const html = crawl.pages.filter((p) => p.status === 200 && p.facts && !p.trap);
  const home = byUrl.get(crawl.startUrl);
  const homeFinal = home?.redirectTarget ? byUrl.get(home.redirectTarget) : home;

  if (crawl.robots.blocksEverything) findings.add('robots_txt_blocks_all', new URL('/robots.txt', crawl.startUrl).href);
  if (robotsUnavailable(crawl.robots.status)) findings.add('robots_txt_unavailable', new URL('/robots.txt', crawl.startUrl).href, crawl.robots.status === 0 ? 'no response' : `status ${crawl.robots.status}`);
  if (homeFinal && isNoindex(homeFinal)) findings.add('home_noindex', homeFinal.url);
  if (crawl.startUrl.startsWith('https:') && homeFinal?.status === 200 && !homeFinal.hsts) findings.add('hsts_missing', homeFinal.url);
  checkCrawl(crawl, findings);
  if (crawl.aiAccess) checkAiAccess(crawl.aiAccess, new URL('/robots.txt', crawl.startUrl).href, findings);
  // A file named sitemap.xml that is not a sitemap (an HTML page, another XML format) is none.
  const hasSitemap = crawl.sitemapsFetched.some((s) => s.status === 200 && s.kind !== undefined && s.kind !== 'invalid');
  if (!hasSitemap) findings.add('sitemap_missing', new URL('/sitemap.xml', crawl.startUrl).href);
  for (const sitemap of crawl.sitemapsFetched) if (sitemap.problem) findings.add('sitemap_invalid', sitemap.url, sitemap.problem);

  // Links between pages.
  const inlinks = new Map<number, number>();
  for (const page of html) {
    for (const id of page.outlinks) {
      inlinks.set(id, (inlinks.get(id) ?? 0) + 1);
      const target = byUrl.get(crawl.urls[id]!);
      if (isBroken(target)) findings.add('broken_internal_links', page.url, target!.url);
      else if (isRedirect(target)) findings.add('links_to_redirect', page.url, target!.url);
    }
  }

  // Fragment links: the target page (after its redirect) must have the id.
  for (const link of crawl.fragmentLinks) {
    let target = byUrl.get(link.to);
    if (target?.redirectTarget) target = byUrl.get(target.redirectTarget);
    if (!target?.facts || target.status !== 200 || target.trap || target.truncated) continue;
    if (!hasAnchor(target.anchors, link.fragment)) findings.add('broken_fragment_link', link.from, `${target.url}#${link.fragment}`);
  }

  // Images measured by the crawler.
  for (const page of html) {
    for (const src of page.images) {
      const bytes = crawl.imageBytes.get(src);
      if (bytes !== undefined && bytes > LARGE_IMAGE_BYTES) findings.add('image_too_large', page.url, `${src} (${Math.round(bytes / 1024)} KB)`);
    }
  }

  // Canonicals: resolved against the page; judged by what the crawl saw at the target.
  const canonicalElsewhere = new Set<string>();
  for (const page of html) {
    const raw = page.facts!.canonicals[0];
    const canonical = raw !== undefined ? normalizeUrl(raw, page.url) : undefined;
    if (!canonical || canonical === page.url) continue;
    canonicalElsewhere.add(page.url);
    findings.add('canonical_to_other_url', page.url, canonical);
    const target = byUrl.get(canonical);
    if (isBroken(target)) findings.add('canonical_to_error', page.url, canonical);
    else if (isRedirect(target)) findings.add('canonical_to_redirect', page.url, canonical);
    else if (target && isNoindex(target)) findings.add('canonical_to_noindex', page.url, canonical);
  }

  // Duplicates among the pages meant to be indexed.
  const indexable = html.filter((p) => !isNoindex(p) && !canonicalElsewhere.has(p.url));
  const duplicates = (key: (p: CrawledPage) => string | undefined, checkId: string) => {
    const groups = new Map<string, CrawledPage[]>();
    for (const page of indexable) {
      const value = key(page);
      // (Pushed, not copied: a site whose 20,000 pages share one title made every page copy the group so far.)
      if (!value) continue;
      const group = groups.get(value);
      if (group) group.push(page);
      else groups.set(value, [page]);
    }
    for (const [value, pages] of groups) if (pages.length > 1) for (const p of pages) findings.add(checkId, p.url, value);
  };
  duplicates((p) => p.facts!.titles[0] || undefined, 'title_duplicate');
  duplicates((p) => p.facts!.metaDescriptions[0] || undefined, 'meta_description_duplicate');
  duplicates((p) => (p.facts!.wordCount >= 20 ? p.facts!.textHash : undefined), 'duplicate_content');

  // hreflang: a site in two or more languages (each on two or more pages) needs it on every page.
  const languages = new Map<string, number>();
  for (const page of indexable) {
    const language = pageLanguage(page.url, page.facts!)?.toLowerCase().split(/[-_]/)[0];
    if (language) languages.set(language, (languages.get(language) ?? 0) + 1);
  }
  const siteLanguages = [...languages].filter(([, n]) => n >= 2).map(([language]) => language).sort();
  if (siteLanguages.length >= 2) {
    for (const page of indexable) if (page.facts!.hreflangs.length === 0) findings.add('hreflang_missing', page.url, `the site has pages in ${siteLanguages.join(', ')}`);
  }
  for (const page of html) {
    const alternates = page.facts!.hreflangs;
    if (alternates.length === 0) continue;
    for (const alternate of alternates) if (!HREFLANG.test(alternate.lang)) findings.add('hreflang_invalid_code', page.url, alternate.lang);
    if (!alternates.some((a) => a.lang.toLowerCase() === 'x-default')) findings.add('hreflang_missing_x_default', page.url);
    for (const alternate of alternates) {
      const target = byUrl.get(normalizeUrl(alternate.href, page.url) ?? '');
      if (!target?.facts || target.url === page.url) continue;
      const linksBack = target.facts.hreflangs.some((a) => normalizeUrl(a.href, target.url) === page.url);
      if (!linksBack) findings.add('hreflang_missing_return', page.url, target.url);
    }
  }

  // Sitemaps.
  for (const url of crawl.sitemapUrls) {
    const page = byUrl.get(url);
    if (!page) continue;
    if (page.blockedByRobots) findings.add('sitemap_blocked_url', url);
    else if (isBroken(page)) findings.add('sitemap_broken_url', url, String(page.status));
    else if (isRedirect(page)) findings.add('sitemap_redirect_url', url, page.redirectTarget);
    else if (isNoindex(page)) findings.add('sitemap_noindex_url', url);
  }
  if (hasSitemap) for (const page of indexable) if (!crawl.sitemapUrls.has(page.url)) findings.add('indexable_page_not_in_sitemap', page.url);

  // Structure: click depth over the link graph, and pages nothing links to.
  const depth = clickDepths(crawl, byUrl);
  const idOf = new Map(crawl.urls.map((url, id) => [url, id]));
  for (const page of html) {
    const d = depth.get(page.url);
    if (d !== undefined && d > MAX_CLICK_DEPTH) findings.add('click_depth_over_4', page.url, `${d} clicks`);
    if (page.depth === null && crawl.sitemapUrls.has(page.url) && !inlinks.get(idOf.get(page.url) ?? -1)) findings.add('orphan_page', page.url);
  }
}

/** What the crawl itself met: traps it stopped expanding, and the page cap. */
function checkCrawl(crawl: CrawlResult, findings: Findings) {
  for (const trap of crawl.traps) {
    findings.add('crawl_trap', trap.examples[0]!, `${trap.reason}. ${trap.count} URL(s) left out, e.g. ${trap.examples.slice(0, 3).join(' , ')}`);
  }
  if (crawl.stoppedAtPageCap) {
    const trapped = crawl.traps.reduce((sum, t) => sum + t.count, 0);
    findings.add(
      'crawl_stopped_at_cap',
      crawl.startUrl,
      `Stopped after ${crawl.pageCap} fetched pages (max_pages ${crawl.pageCap}); ${crawl.uncrawled} discovered URL(s) were not crawled` +
        (trapped > 0 ? `; ${trapped} trap URL(s) had been left out before` : ''),
    );
  }
}

/** Breadth-first from the home page over the links the crawl saw (following redirects). */
function clickDepths(crawl: CrawlResult, byUrl: Map<string, CrawledPage>): Map<string, number> {
  const depth = new Map<string, number>([[crawl.startUrl, 0]]);
  const queue = [crawl.startUrl];
  while (queue.length > 0) {
    const url = queue.shift()!;
    const page = byUrl.get(url);
    const next = page?.redirectTarget ? [page.redirectTarget] : Array.from(page?.outlinks ?? [], (id) => crawl.urls[id]!);
    const hop = page?.redirectTarget ? 0 : 1;
    for (const target of next) {
      if (depth.has(target)) continue;
      depth.set(target, depth.get(url)! + hop);
      queue.push(target);
    }
  }
  return depth;
}
