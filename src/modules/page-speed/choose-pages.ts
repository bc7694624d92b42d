import type { CrawlResult, CrawledPage } from '../crawler/crawl.types.ts';

/**
 * Which pages Lighthouse measures: one per template, at most `limit` (20) a site. A site's speed is mostly its
 * templates' (every product page shares the product template's scripts, styles and hero image), so one page of each
 * says most of it at a fraction of the cost of measuring every page (Lighthouse takes 5-15 s a page).
 *
 * A template is read off the URL's shape, as crawlers' reports segment sites: the first path segment names the
 * section, the depth below it the kind of page. The rules are named data, each with an example and a counter-example.
 */
export interface TemplateRule {
  id: string;
  /** The template key for a path's segments, or undefined when the rule does not apply. */
  key(segments: readonly string[]): string | undefined;
  example: string;
  counterExample: string;
}

/** Two-letter language prefixes (/en/, /pt-br/): the section is the segment after them. */
const LANGUAGE = /^[a-z]{2}([-_][a-z]{2,4})?$/i;
const rest = (segments: readonly string[], from: number) => segments.slice(from).map(() => '*').join('/');

export const TEMPLATE_RULES: readonly TemplateRule[] = [
  { id: 'home', key: (s) => (s.length === 0 ? '/' : undefined), example: '/', counterExample: '/about' },
  {
    id: 'language_section',
    key: (s) => (s.length >= 3 && LANGUAGE.test(s[0]!) ? `/{lang}/${s[1]}/${rest(s, 2)}` : undefined),
    example: '/en/blog/first-post -> /{lang}/blog/*', counterExample: '/blog/2024/first-post',
  },
  { id: 'language_home', key: (s) => (s.length <= 2 && LANGUAGE.test(s[0]!) ? (s.length === 1 ? '/{lang}/' : '/{lang}/*') : undefined), example: '/de/ -> /{lang}/', counterExample: '/docs/' },
  { id: 'top_level', key: (s) => (s.length === 1 ? '/*' : undefined), example: '/about, /contact -> /*', counterExample: '/coffee/ethiopia' },
  { id: 'section', key: (s) => `/${s[0]}/${rest(s, 1)}`, example: '/coffee/ethiopia, /coffee/colombia -> /coffee/*', counterExample: '/' },
];

export function templateOf(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  for (const rule of TEMPLATE_RULES) {
    const key = rule.key(segments);
    if (key !== undefined) return key;
  }
  return '/';
}

export interface ChosenPage {
  url: string;
  template: string;
  /** The crawled pages of its template: how many pages its numbers stand for. */
  pages_in_template: number;
}

/** Pages worth measuring: HTML that answered 200, not asked to stay out of search, not a copy that names another canonical. */
function measurable(page: CrawledPage): boolean {
  if (page.status !== 200 || page.blockedByRobots || page.trap || !page.contentType.includes('html')) return false;
  const facts = page.facts;
  if (!facts) return false;
  if (facts.metaRobots.some((r) => /noindex/i.test(r)) || page.xRobotsTag.some((r) => /noindex/i.test(r))) return false;
  const canonical = facts.canonicals[0];
  if (canonical === undefined) return true;
  try {
    return new URL(canonical, page.url).href === page.url;
  } catch {
    return true;
  }
}

/**
 * One page per template, the home page first, then the largest templates; in each, the page nearest the home page and
 * most linked to (the template's most visited page, as far as the crawl can tell), a URL without a query before one
 * with.
 */
export function choosePages(crawl: Pick<CrawlResult, 'pages' | 'urls' | 'startUrl'>, limit: number): ChosenPage[] {
  if (limit <= 0) return [];
  const inlinks = new Map<string, number>();
  for (const page of crawl.pages) {
    for (const id of page.outlinks) {
      const target = crawl.urls[id];
      if (target !== undefined && target !== page.url) inlinks.set(target, (inlinks.get(target) ?? 0) + 1);
    }
  }
  const templates = new Map<string, CrawledPage[]>();
  for (const page of crawl.pages) {
    if (!measurable(page)) continue;
    const key = templateOf(page.url);
    const members = templates.get(key);
    if (members) members.push(page);
    else templates.set(key, [page]);
  }
  const rank = (page: CrawledPage) => [page.depth ?? Number.MAX_SAFE_INTEGER, -(inlinks.get(page.url) ?? 0), page.url.includes('?') ? 1 : 0, page.url.length];
  const byRank = (a: CrawledPage, b: CrawledPage) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
    return a.url.localeCompare(b.url);
  };
  return [...templates]
    .map(([template, members]) => ({ template, best: members.sort(byRank)[0]!, size: members.length }))
    .sort((a, b) => Number(b.template === '/') - Number(a.template === '/') || b.size - a.size || a.template.localeCompare(b.template))
    .slice(0, limit)
    .map(({ template, best, size }) => ({ url: best.url, template, pages_in_template: size }));
}
