import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';

/** The sitemaps protocol's limits for one file (sitemaps.org): 50,000 URLs, 50 MB uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface SitemapDocument {
  kind: 'urlset' | 'sitemapindex' | 'invalid';
  /** <loc> values: page URLs for a urlset, child sitemap URLs for an index. */
  locations: string[];
  /** Why the file is not a usable sitemap, or breaks the protocol's limits; absent when it is fine. */
  problem?: string;
}

/**
 * Parses a sitemap or sitemap index (plain or gzip-compressed) with a strict streaming XML
 * parser (saxes), as search engines do: a file that is not well-formed XML, or whose root
 * is not <urlset> or <sitemapindex>, is not a sitemap whatever its name.
 */
export function parseSitemap(body: Buffer | string, options: { truncated?: boolean } = {}): SitemapDocument {
  let text: string;
  let tooLarge = options.truncated === true;
  if (typeof body !== 'string' && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      text = gunzipSync(body, { maxOutputLength: SITEMAP_MAX_BYTES }).toString('utf8');
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return { kind: 'invalid', locations: [], problem: 'gzip data does not decompress' };
      return { kind: 'invalid', locations: [], problem: `larger than ${SITEMAP_MAX_BYTES / 1024 / 1024} MB uncompressed` };
    }
  } else text = typeof body === 'string' ? body : body.toString('utf8');

  let root: string | undefined;
  let xmlError: string | undefined;
  const locations: string[] = [];
  let loc: string | null = null;
  const parser = new SaxesParser({ position: true });
  parser.on('error', (error) => {
    xmlError ??= error.message;
  });
  parser.on('opentag', (tag) => {
    const local = tag.name.replace(/^.*:/, '');
    root ??= local;
    if (local === 'loc' && (root === 'urlset' || root === 'sitemapindex')) loc = '';
  });
  parser.on('text', (chunk) => {
    if (loc !== null) loc += chunk;
  });
  parser.on('cdata', (chunk) => {
    if (loc !== null) loc += chunk;
  });
  parser.on('closetag', (tag) => {
    if (loc !== null && tag.name.replace(/^.*:/, '') === 'loc') {
      if (loc.trim()) locations.push(loc.trim());
      loc = null;
    }
  });
  try {
    parser.write(text).close();
  } catch (error) {
    xmlError ??= (error as Error).message;
  }

  if (root !== 'urlset' && root !== 'sitemapindex') {
    const problem = root ? `root element is <${root}>, not <urlset> or <sitemapindex>` : `not XML (${xmlError ?? 'no root element'})`;
    return { kind: 'invalid', locations: [], problem: problem.slice(0, 300) };
  }
  const document: SitemapDocument = { kind: root, locations };
  if (tooLarge) document.problem = `larger than ${SITEMAP_MAX_BYTES / 1024 / 1024} MB`;
  else if (locations.length > SITEMAP_MAX_URLS) document.problem = `lists ${locations.length} URLs (the limit is ${SITEMAP_MAX_URLS})`;
  else if (xmlError && !options.truncated) document.problem = `not well-formed XML: ${xmlError}`.slice(0, 300);
  return document;
}
