import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { parseSitemap, SITEMAP_MAX_BYTES } from './sitemap.ts';

const urlset = (n: number) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>https://x.test/${i}</loc></url>`).join('')}</urlset>`;

describe('sitemap validation', () => {
  it('reads a valid urlset and a gzip one alike', () => {
    assert.deepEqual(parseSitemap(urlset(2)), { kind: 'urlset', locations: ['https://x.test/0', 'https://x.test/1'] });
    assert.deepEqual(parseSitemap(gzipSync(urlset(1))).locations, ['https://x.test/0']);
  });

  it('refuses files over 50 MB, compressed or not', () => {
    assert.match(parseSitemap(urlset(1), { truncated: true }).problem!, /larger than 50 MB/);
    const bomb = gzipSync(Buffer.alloc(SITEMAP_MAX_BYTES + 1, 0x20));
    assert.deepEqual(parseSitemap(bomb), { kind: 'invalid', locations: [], problem: 'larger than 50 MB uncompressed' });
  });

  it('says what is wrong: not XML, wrong root, malformed', () => {
    assert.match(parseSitemap('https://x.test/a\nhttps://x.test/b').problem!, /^not XML/);
    assert.match(parseSitemap('<html><body>Soft 404</body></html>').problem!, /root element is <html>/);
    const broken = parseSitemap('<urlset><url><loc>https://x.test/a</loc></url>');
    assert.equal(broken.kind, 'urlset');
    assert.match(broken.problem!, /not well-formed XML/);
  });
});
