import { Type } from 'typebox';
import { Nullable } from '../../../lib/schema.ts';
import { extractPageFacts } from '../../crawler/extract.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { parseRobots } from '../../crawler/robots.ts';
import { parseSitemap } from '../../crawler/sitemap.ts';
import { Configuration, defineTaskType, isCheck, type LiveProbe } from '../task-type.ts';

const MAX_CHILD_SITEMAPS = 50;

export const fixIndexingBlock = defineTaskType({
  type: 'fix_indexing_block',
  category: 'technical',
  configuration: Configuration({
    url: Type.String({ description: 'robots.txt, or the page carrying noindex' }),
    issue: Type.String({ description: 'The check that found it: robots_txt_blocks_all, noindex_meta, noindex_header' }),
    before: Type.Optional(Nullable(Type.String())),
    instructions: Type.String(),
  }, 'robots.txt blocking everything, or a noindex home page: exact instructions'),
  gate: (c) => (typeof c.instructions === 'string' ? undefined : 'no deliverable defined'),
  manual: (c) => ({ instructions: c.instructions }),
  async liveChecks(c, url, probe) {
    if (c.issue === 'robots_txt_blocks_all') {
      const robots = await probe.fetch(url);
      const rules = parseRobots(url, robots.status, robots.body);
      return [{ check: 'robots_txt_allows_site', expected: 'allowed', actual: rules.blocksEverything ? 'blocked' : 'allowed', passed: !rules.blocksEverything }];
    }
    const page = await probe.fetch(url);
    if (page.status !== 200 || !page.body) return [{ check: 'page_answers', expected: '200', actual: String(page.status), passed: false }];
    const directives = [...extractPageFacts(page.body).metaRobots, ...(page.headers['x-robots-tag'] ?? '').toLowerCase().split(/\s*,\s*/)];
    const blocked = directives.some((d) => d === 'noindex' || d === 'none');
    return [{ check: 'indexable', expected: 'no noindex', actual: blocked ? 'noindex' : 'no noindex', passed: !blocked }];
  },
});

export const fixCanonical = defineTaskType({
  type: 'fix_canonical',
  category: 'technical',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    field: Type.Optional(Type.Literal('canonical')),
    before: Nullable(Type.String()),
    after: Type.String({ description: 'The absolute canonical URL' }),
    html: Type.String(),
  }, 'A canonical to an error, redirect or noindex page, several, or a relative one: the exact canonical link'),
  gate: (c) => (typeof c.after === 'string' && /^https?:\/\//.test(c.after) ? undefined : 'no absolute canonical URL defined'),
  manual: (c, url) => ({ instructions: `In the <head> of ${url}, make this the only canonical link.`, html: c.html }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const canonicals = f.canonicals.map((link) => normalizeUrl(link, url) ?? link);
    const passed = f.canonicals.length === 1 && canonicals[0] === normalizeUrl(c.after ?? '', url) && /^https?:\/\//.test(f.canonicals[0]!);
    return [{ check: 'canonical', expected: c.after ?? null, actual: f.canonicals.join(' | ') || null, passed }];
  },
  // The copies of pages one server pattern makes (index.html beside the directory URL, say) are one task.
  perPage: true,
});

export const fixSitemapErrors = defineTaskType({
  type: 'fix_sitemap_errors',
  category: 'technical',
  configuration: Configuration({
    sitemap: Type.String(),
    changes: Type.Array(Type.Object({ url: Type.String(), replace_with: Type.Optional(Type.String()) }, { additionalProperties: true })),
    truncated: Type.Optional(Type.Boolean()),
  }, 'The sitemap lists noindex, blocked, redirecting or broken URLs: what to remove or replace'),
  gate: (c) => (c.changes.length > 0 ? undefined : 'no change defined'),
  manual: (c) => ({ instructions: `In the sitemap (${c.sitemap}), apply each change below; most CMS sitemap plugins do this when the page is excluded or its redirect fixed.`, changes: c.changes }),
  async liveChecks(c, url, probe) {
    const listed = await sitemapUrls(url, probe);
    if (!listed) return [{ check: 'sitemap_answers', expected: '200', actual: 'unreadable', passed: false }];
    return c.changes.map((change) => {
      const stillListed = listed.has(change.url);
      const replaced = change.replace_with === undefined || listed.has(change.replace_with);
      return { check: change.replace_with ? 'sitemap_url_replaced' : 'sitemap_url_removed', expected: change.replace_with ?? null, actual: stillListed ? change.url : null, passed: !stillListed && replaced };
    });
  },
});

/** Every URL the sitemap (and, for an index, its child sitemaps) lists; undefined when it cannot be read. */
async function sitemapUrls(sitemapUrl: string, probe: LiveProbe): Promise<Set<string> | undefined> {
  const root = await probe.fetch(sitemapUrl);
  if (root.status !== 200 || !root.body) return undefined;
  const document = parseSitemap(root.body);
  if (document.kind !== 'sitemapindex') return new Set(document.locations);
  const urls = new Set<string>();
  for (const child of document.locations.slice(0, MAX_CHILD_SITEMAPS)) {
    const page = await probe.fetch(child);
    if (page.status === 200 && page.body) for (const loc of parseSitemap(page.body).locations) urls.add(loc);
  }
  return urls;
}
