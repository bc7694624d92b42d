import { detach, displayWidth } from '../../lib/strings.ts';
import type { CrawledPage } from '../crawler/crawl.ts';
import { normalizeUrl, sameSite } from '../crawler/urls.ts';
import { packMainContent } from '../crawler/main-content.ts';
import type { Findings } from './findings.ts';

export const TITLE_MIN = 20;
export const TITLE_MAX = 60;
/**
 * Moz's floor: under 50 characters a description rarely says enough. (Read on real
 * documentation sites, the pages' own 50-69-character opening sentences were descriptions a
 * professional would publish; Screaming Frog's 70 refused them.)
 */
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 160;
export const THIN_WORDS = 200;
export const SLOW_TTFB_MS = 800;
export const MAX_LINKS = 150;
export const ALT_MAX = 125;

const NON_DESCRIPTIVE = new Set([
  'click here', 'click this', 'here', 'go', 'more', 'read more', 'learn more', 'more info', 'more information',
  'link', 'this', 'this page', 'start', 'continue', 'right here', 'see more', 'details',
]);

/** The longest of NON_DESCRIPTIVE: a link's text longer than it, once its trailing marks are left out, is not one of them. */
const LONGEST_NON_DESCRIPTIVE = Math.max(...[...NON_DESCRIPTIVE].map((text) => text.length));
const TRAILING_MARKS = new Set(['.', '!', '…', '>', '»']);
/** What a regular expression's \s matches, by character code (asked of both ends of every link's text: no regular expression run a character). */
const isWhiteSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
/**
 * A link's text that says nothing of its target ("Read more »"). Most links' texts are longer than
 * any such phrase: measured first (lower case never shortens a text), so that those build no string.
 */
function nonDescriptive(text: string): boolean {
  let end = text.length;
  while (end > 0 && TRAILING_MARKS.has(text[end - 1]!)) end -= 1;
  while (end > 0 && isWhiteSpace(text.charCodeAt(end - 1))) end -= 1;
  let start = 0;
  while (start < end && isWhiteSpace(text.charCodeAt(start))) start += 1;
  if (end - start > LONGEST_NON_DESCRIPTIVE) return false;
  return NON_DESCRIPTIVE.has(text.toLowerCase().replace(/[.!…>»]+$/, '').trim());
}

export const isNoindex = (page: CrawledPage) =>
  [...(page.facts?.metaRobots ?? []), ...page.xRobotsTag].some((d) => d === 'noindex' || d === 'none');

export interface SiteContext {
  siteIsHttps: boolean;
  /** host[:port] the crawl started from: what counts as internal. */
  startHost: string;
}

export const siteContext = (startUrl: string): SiteContext => ({
  siteIsHttps: startUrl.startsWith('https:'),
  startHost: new URL(startUrl).host,
});

/** Checks that look at one page alone; they run as soon as the crawler has the page. */
export function checkPage(page: CrawledPage, findings: Findings, { siteIsHttps, startHost }: SiteContext) {
  const { url } = page;
  if (page.blockedByRobots) return findings.add('blocked_by_robots', url);
  if (page.trap) return; // reported once, by crawl_trap
  if (page.status === 0) return findings.add('page_unreachable', url, page.error);
  if (page.status === null) return;
  if (page.status >= 500) findings.add('page_5xx', url, String(page.status));
  else if (page.status >= 400) findings.add('page_4xx', url, String(page.status));
  if (page.redirectLoop) findings.add('redirect_loop', url, page.redirectChain.map((h) => h.url).join(' -> '));
  else if (page.redirectChain.length > 1) findings.add('redirect_chain', url, [...page.redirectChain.map((h) => h.url), page.redirectTarget].join(' -> '));
  if (siteIsHttps && url.startsWith('http:') && page.status === 200) findings.add('http_page_on_https_site', url);
  if (page.ttfbMs > SLOW_TTFB_MS) findings.add('slow_ttfb', url, `${page.ttfbMs} ms`);
  if (page.truncated) findings.add('html_truncated', url);
  if (page.xRobotsTag.includes('noindex') || page.xRobotsTag.includes('none')) findings.add('noindex_header', url, page.xRobotsTag.join(', '));
  if (page.charsetConflict) findings.add('charset_conflict', url, page.charsetConflict);

  const facts = page.facts;
  if (!facts) return;
  if (facts.metaRobots.includes('noindex') || facts.metaRobots.includes('none')) findings.add('noindex_meta', url, facts.metaRobots.join(', '));
  if ([...facts.metaRobots, ...page.xRobotsTag].some((d) => d === 'nofollow' || d === 'none')) findings.add('nofollow_page', url);

  if (facts.titles.length === 0) findings.add('title_missing', url);
  else {
    if (facts.titles.length > 1) findings.add('title_multiple', url, facts.titles.join(' | '));
    const title = facts.titles[0]!;
    if (title === '') findings.add('title_empty', url);
    else if (displayWidth(title) < TITLE_MIN) findings.add('title_too_short', url, title);
    else if (displayWidth(title) > TITLE_MAX) findings.add('title_too_long', url, title);
  }
  if (facts.metaDescriptions.length === 0) findings.add('meta_description_missing', url);
  else {
    if (facts.metaDescriptions.length > 1) findings.add('meta_description_multiple', url, facts.metaDescriptions.join(' | '));
    const description = facts.metaDescriptions[0]!;
    if (description === '') findings.add('meta_description_empty', url);
    else if (displayWidth(description) < DESCRIPTION_MIN) findings.add('meta_description_too_short', url, description);
    else if (displayWidth(description) > DESCRIPTION_MAX) findings.add('meta_description_too_long', url, description);
  }

  const h1s = facts.headings.filter((h) => h.level === 1);
  if (h1s.length === 0) findings.add('h1_missing', url);
  if (h1s.length > 1) findings.add('h1_multiple', url, h1s.map((h) => h.text).join(' | '));
  // The page's own headings: a sidebar's "Previous topic" h4 after the content's h1 skips nothing in the page.
  const outline = facts.main && facts.main.headings.length > 0 ? facts.main.headings : facts.headings;
  for (let i = 1; i < outline.length; i++) {
    const [previous, current] = [outline[i - 1]!, outline[i]!];
    if (current.level > previous.level + 1) {
      findings.add('heading_level_skipped', url, `h${previous.level} -> h${current.level}`);
      break;
    }
  }

  for (const image of facts.images) {
    if (image.alt === null) findings.add('image_missing_alt', url, image.src);
    else if (image.alt.length > ALT_MAX) findings.add('image_alt_too_long', url, image.src);
  }

  for (const link of facts.links) {
    const href = link.href.trim();
    // A javascript: link leads robots nowhere; "#" and "" are links to the page itself, which block nothing.
    if (/^javascript:/i.test(href)) findings.add('link_not_crawlable', url, href);
    else if (!link.code && nonDescriptive(link.text)) findings.add('link_text_non_descriptive', url, link.text);
    if (siteIsHttps && url.startsWith('https:') && /^http:\/\//i.test(href)) findings.add('http_links_on_https_site', url, href);
    if (link.nofollow) {
      const target = normalizeUrl(href, url);
      if (target && sameSite(target, startHost)) findings.add('internal_nofollow_links', url, target);
    }
  }
  if (facts.links.length > MAX_LINKS) findings.add('too_many_links', url, String(facts.links.length));
  if (siteIsHttps && url.startsWith('https:')) {
    const insecure = facts.formActions.find((action) => /^http:\/\//i.test(action));
    if (insecure) findings.add('http_form_action', url, insecure);
  }

  if (facts.canonicals.length === 0) findings.add('canonical_missing', url);
  if (facts.canonicals.length > 1) findings.add('canonical_multiple', url, facts.canonicals.join(' | '));
  const canonical = facts.canonicals[0];
  // A canonical with another scheme (file:, a build machine's path) names no page on the web: search engines ignore it.
  if (canonical !== undefined && /^[a-z][a-z\d+.-]*:/i.test(canonical) && !/^https?:/i.test(canonical)) findings.add('canonical_not_http', url, canonical);
  else if (canonical !== undefined && !/^https?:\/\//i.test(canonical)) findings.add('canonical_relative', url, canonical);

  if (facts.wordCount < THIN_WORDS) findings.add('thin_content', url, `${facts.wordCount} words`);
  if (!facts.lang) findings.add('html_lang_missing', url);
  if (!facts.hasViewport) findings.add('viewport_missing', url);
  if (facts.jsonLd.some((block) => !block.valid)) findings.add('json_ld_invalid', url);
}

/**
 * After its own checks a page keeps only what the cross-page checks read (first title and
 * description, robots, canonicals, hreflang, text hash), each as a string
 * of its own: V8 keeps a string sliced from a parsed chunk tied to the whole chunk, so
 * keeping a title would otherwise keep the page's HTML (32 KB a page, measured).
 */
export function slimPageFacts(page: CrawledPage) {
  const facts = page.facts;
  if (!facts) return;
  facts.titles = facts.titles.slice(0, 1).map(detach);
  facts.metaDescriptions = facts.metaDescriptions.slice(0, 1).map(detach);
  facts.metaRobots = facts.metaRobots.length === 0 ? EMPTY : facts.metaRobots.map(detach);
  facts.canonicals = facts.canonicals.length === 0 ? EMPTY : facts.canonicals.map(detach);
  facts.hreflangs = facts.hreflangs.length === 0 ? EMPTY : facts.hreflangs.map((h) => ({ lang: detach(h.lang), href: detach(h.href) }));
  facts.generator = facts.generator === null ? null : detach(facts.generator);
  facts.lang = facts.lang === null ? null : detach(facts.lang);
  if (facts.contentLang !== undefined) facts.contentLang = detach(facts.contentLang);
  if (facts.main) facts.main = packMainContent(facts.main);
  facts.images = EMPTY; // their URLs live on page.images
  facts.links = EMPTY;
  facts.headings = EMPTY;
  facts.formActions = EMPTY;
  facts.jsonLd = EMPTY;
  facts.assets = EMPTY; // the crawler kept the home page's for platform detection
  facts.anchorIds = EMPTY; // hashed onto page.anchors by the crawler
}

/** Shared by every slimmed page: 20,000 pages would otherwise hold 100,000 empty arrays. */
const EMPTY: never[] = [];
