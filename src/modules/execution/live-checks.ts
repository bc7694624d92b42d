import { THIN_WORDS } from '../checks/page-checks.ts';
import { extractPageFacts, type PageFacts } from '../crawler/extract.ts';
import { parseRobots } from '../crawler/robots.ts';
import { parseSitemap } from '../crawler/sitemap.ts';
import { normalizeUrl } from '../crawler/urls.ts';
import { sameText } from '../../lib/strings.ts';

export interface VerificationCheck {
  check: string;
  expected: string | null;
  actual: string | null;
  passed: boolean;
}

export interface LivePage {
  status: number;
  body: string | undefined;
  headers: Record<string, string>;
}

type Fetch = (url: string) => Promise<LivePage>;

type Task = { type: string; target: string; configuration: Record<string, unknown> };

const MAX_CHILD_SITEMAPS = 50;

/**
 * What "the change is live" means for each task type, checked on the public site. An empty
 * list means the type cannot be checked from outside (the verification is then not_applicable).
 */
export async function liveChecks(task: Task, fetch: Fetch): Promise<VerificationCheck[]> {
  const config = task.configuration;
  const url = typeof config.url === 'string' ? config.url : task.target;
  const expected = config.after === undefined || config.after === null ? null : String(config.after);

  const facts = async (pageUrl: string): Promise<PageFacts | VerificationCheck> => {
    const page = await fetch(pageUrl);
    if (page.status !== 200 || !page.body) return { check: 'page_answers', expected: '200', actual: String(page.status), passed: false };
    return extractPageFacts(page.body);
  };
  const isCheck = (value: unknown): value is VerificationCheck => typeof value === 'object' && value !== null && 'passed' in value;
  const links = (f: PageFacts, base: string) => new Set(f.links.flatMap((l) => normalizeUrl(l.href, base) ?? []));

  switch (task.type) {
    case 'fix_indexing_block': {
      if (config.issue === 'robots_txt_blocks_all') {
        const robots = await fetch(url);
        const rules = parseRobots(url, robots.status, robots.body);
        return [{ check: 'robots_txt_allows_site', expected: 'allowed', actual: rules.blocksEverything ? 'blocked' : 'allowed', passed: !rules.blocksEverything }];
      }
      const page = await fetch(url);
      if (page.status !== 200 || !page.body) return [{ check: 'page_answers', expected: '200', actual: String(page.status), passed: false }];
      const directives = [...extractPageFacts(page.body).metaRobots, ...(page.headers['x-robots-tag'] ?? '').toLowerCase().split(/\s*,\s*/)];
      const blocked = directives.some((d) => d === 'noindex' || d === 'none');
      return [{ check: 'indexable', expected: 'no noindex', actual: blocked ? 'noindex' : 'no noindex', passed: !blocked }];
    }
    case 'fix_sitemap_errors': {
      const listed = await sitemapUrls(url, fetch);
      if (!listed) return [{ check: 'sitemap_answers', expected: '200', actual: 'unreadable', passed: false }];
      return (config.changes as Array<{ url: string; replace_with?: string }>).map((c) => {
        const stillListed = listed.has(c.url);
        const replaced = c.replace_with === undefined || listed.has(c.replace_with);
        return { check: c.replace_with ? 'sitemap_url_replaced' : 'sitemap_url_removed', expected: c.replace_with ?? null, actual: stillListed ? c.url : null, passed: !stillListed && replaced };
      });
    }
    case 'add_internal_links': {
      const sources = (config.sources as Array<{ url: string }>) ?? [];
      const linking: string[] = [];
      for (const source of sources) {
        const f = await facts(source.url);
        if (!isCheck(f) && links(f, source.url).has(url)) linking.push(source.url);
      }
      return [{ check: 'linked_from', expected: sources.map((s) => s.url).join(', '), actual: linking.join(', ') || null, passed: linking.length > 0 }];
    }
    default:
      break;
  }

  const f = await facts(url);
  if (isCheck(f)) return [f];
  switch (task.type) {
    case 'fix_missing_meta_description':
    case 'fix_duplicate_meta_description': {
      const actual = f.metaDescriptions[0] ?? null;
      return [{ check: 'meta_description', expected, actual, passed: f.metaDescriptions.length === 1 && sameText(actual, expected) }];
    }
    case 'fix_title_tag': {
      const actual = f.titles[0] ?? null;
      return [{ check: 'title', expected, actual, passed: f.titles.length === 1 && sameText(actual, expected) }];
    }
    case 'fix_h1': {
      const h1s = f.headings.filter((h) => h.level === 1).map((h) => h.text);
      const passed = h1s.length === 1 && (config.issue === 'multiple' || h1s[0] === expected);
      return [{ check: 'one_h1', expected, actual: h1s.join(' | ') || null, passed }];
    }
    case 'add_image_alt_text':
      return (config.images as Array<{ src: string; alt: string }>).map((image) => {
        const found = f.images.filter((i) => normalizeUrl(i.src, url) === image.src);
        const missing = found.filter((i) => !i.alt?.trim());
        return { check: 'image_alt', expected: image.alt, actual: found.length === 0 ? '(image removed)' : (found[0]!.alt ?? null), passed: missing.length === 0 };
      });
    case 'fix_broken_links': {
      const present = links(f, url);
      return (config.changes as Array<{ link_to: string }>).map((c) => ({ check: 'broken_link_removed', expected: null, actual: present.has(c.link_to) ? c.link_to : null, passed: !present.has(c.link_to) }));
    }
    case 'fix_redirect_chains': {
      const present = links(f, url);
      return (config.changes as Array<{ link_to: string; final_url: string }>).map((c) => ({
        check: 'link_to_final_url', expected: c.final_url, actual: present.has(c.link_to) ? c.link_to : present.has(c.final_url) ? c.final_url : null, passed: !present.has(c.link_to),
      }));
    }
    case 'fix_canonical': {
      const canonicals = f.canonicals.map((c) => normalizeUrl(c, url) ?? c);
      return [{ check: 'canonical', expected, actual: f.canonicals.join(' | ') || null, passed: f.canonicals.length === 1 && canonicals[0] === normalizeUrl(expected ?? '', url) && /^https?:\/\//.test(f.canonicals[0]!) }];
    }
    case 'add_structured_data': {
      if (config.issue === 'invalid') {
        const invalid = f.jsonLd.filter((b) => !b.valid).length;
        return [{ check: 'json_ld_parses', expected: '0 invalid blocks', actual: `${invalid} invalid blocks`, passed: invalid === 0 }];
      }
      const wanted = String((config.json_ld as { '@type'?: string } | null)?.['@type'] ?? 'WebSite');
      const types = f.jsonLd.filter((b) => b.valid).flatMap((b) => b.types);
      return [{ check: 'json_ld_type', expected: wanted, actual: types.join(', ') || null, passed: types.includes(wanted) }];
    }
    case 'expand_thin_content':
      return [{ check: 'word_count', expected: `>= ${THIN_WORDS}`, actual: String(f.wordCount), passed: f.wordCount >= THIN_WORDS }];
    default:
      return [];
  }
}

/** Every URL the sitemap (and, for an index, its child sitemaps) lists; undefined when it cannot be read. */
async function sitemapUrls(sitemapUrl: string, fetch: Fetch): Promise<Set<string> | undefined> {
  const root = await fetch(sitemapUrl);
  if (root.status !== 200 || !root.body) return undefined;
  const document = parseSitemap(root.body);
  if (document.kind !== 'sitemapindex') return new Set(document.locations);
  const urls = new Set<string>();
  for (const child of document.locations.slice(0, MAX_CHILD_SITEMAPS)) {
    const page = await fetch(child);
    if (page.status === 200 && page.body) for (const loc of parseSitemap(page.body).locations) urls.add(loc);
  }
  return urls;
}
