import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export interface SitemapDocument {
  kind: 'urlset' | 'sitemapindex' | 'unknown';
  /** <loc> values: page URLs for a urlset, child sitemap URLs for an index. */
  locations: string[];
}

/** Parses a sitemap or sitemap index (plain or gzip-compressed) with a streaming XML parser. */
export function parseSitemap(body: Buffer | string): SitemapDocument {
  let text: string;
  if (typeof body !== 'string' && body[0] === 0x1f && body[1] === 0x8b) text = gunzipSync(body).toString('utf8');
  else text = typeof body === 'string' ? body : body.toString('utf8');

  const document: SitemapDocument = { kind: 'unknown', locations: [] };
  let inLoc = false;
  let loc = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.replace(/^.*:/, '');
        if (document.kind === 'unknown' && (local === 'urlset' || local === 'sitemapindex')) document.kind = local;
        if (local === 'loc') {
          inLoc = true;
          loc = '';
        }
      },
      ontext(chunk) {
        if (inLoc) loc += chunk;
      },
      onclosetag(name) {
        if (name.replace(/^.*:/, '') === 'loc' && inLoc) {
          inLoc = false;
          if (loc.trim()) document.locations.push(loc.trim());
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return document;
}
