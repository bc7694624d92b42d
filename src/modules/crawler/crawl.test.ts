import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { crawlSite } from './crawl.ts';

const byPath = (result: Awaited<ReturnType<typeof crawlSite>>) =>
  new Map(result.pages.map((p) => [new URL(p.url).pathname, p]));

describe('crawler', () => {
  it('follows internal links breadth-first, reads sitemaps and records statuses and depth', async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/a">A</a> <a href="/b#frag">B</a> <a href="https://elsewhere.example/">out</a>' }) },
      '/a': { body: page({ body: '<a href="/c">C</a><a href="/missing">gone</a>' }) },
      '/b': { body: page() },
      '/c': { body: page() },
      '/only-in-sitemap': { body: page() },
      '/sitemap.xml': {
        headers: { 'content-type': 'application/xml' },
        body: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/only-in-sitemap</loc></url></urlset>',
      },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 100, allowPrivate: true });
    const pages = byPath(result);
    assert.deepEqual([...pages.keys()].sort(), ['/', '/a', '/b', '/c', '/missing', '/only-in-sitemap']);
    assert.equal(pages.get('/')?.depth, 0);
    assert.equal(pages.get('/c')?.depth, 2);
    assert.equal(pages.get('/missing')?.status, 404);
    assert.equal(pages.get('/only-in-sitemap')?.depth, null, 'known only from the sitemap');
    assert.ok(result.sitemapUrls.has(`${site.origin}/only-in-sitemap`));
    assert.equal(site.hitsFor('/b').length, 1, 'fragments are dropped, each URL fetched once');
    assert.match(String(site.hits[0]?.userAgent), /SiteOptimizationBot\//);
  });

  it('follows redirect chains, records them and detects loops', async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/old">old</a><a href="/loop1">loop</a>' }) },
      '/old': { status: 301, headers: { location: '/older' } },
      '/older': { status: 302, headers: { location: '/new' } },
      '/new': { body: page() },
      '/loop1': { status: 301, headers: { location: '/loop2' } },
      '/loop2': { status: 301, headers: { location: '/loop1' } },
    });
    t.after(() => site.close());
    const pages = byPath(await crawlSite({ domain: site.host, maxPages: 100, allowPrivate: true }));
    assert.deepEqual(pages.get('/old')?.redirectChain.map((h) => h.status), [301, 302]);
    assert.equal(pages.get('/old')?.redirectTarget, `${site.origin}/new`);
    assert.equal(pages.get('/new')?.status, 200);
    assert.equal(pages.get('/loop1')?.redirectLoop, true);
  });

  it('obeys robots.txt: disallowed pages are recorded but never fetched', async (t) => {
    const site = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' },
      '/': { body: page({ body: '<a href="/private/x">p</a><a href="/public">q</a>' }) },
      '/private/x': { body: page() },
      '/public': { body: page() },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 100, allowPrivate: true });
    const pages = byPath(result);
    assert.equal(pages.get('/private/x')?.blockedByRobots, true);
    assert.equal(site.hitsFor('/private/x').length, 0);
    assert.equal(pages.get('/public')?.status, 200);
    assert.equal(result.robots.blocksEverything, false);
  });

  it('never fetches action addresses ("?add-to-cart=", "/cart/add", a comment\'s "?replytocom="): they act, or show the page again', async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="?add-to-cart=1240" rel="nofollow">Add</a><a href="/cart/add?id=7">Buy</a><a href="/product/felco-2/">Felco</a>' }) },
      '/product/felco-2/': { body: page({ body: '<a href="/product/felco-2/?add-to-cart=1240">Add to cart</a><a href="/product/felco-2/?replytocom=12#respond">Reply</a><a href="/product/felco-2/?share=facebook">Share</a>' }) },
      '/cart/add': { body: page() },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 100, allowPrivate: true });
    assert.deepEqual(result.pages.map((p) => new URL(p.url).pathname + new URL(p.url).search).sort(), ['/', '/product/felco-2/']);
    assert.equal(site.hitsFor('/cart/add').length, 0);
  });

  it('spaces requests by Crawl-delay for its user agent', async (t) => {
    const site = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: SiteOptimizationBot\nCrawl-delay: 1\n' },
      '/': { body: page({ body: '<a href="/a">a</a>' }) },
      '/a': { body: page() },
    });
    t.after(() => site.close());
    await crawlSite({ domain: site.host, maxPages: 10, allowPrivate: true });
    const [home, a] = [site.hitsFor('/')[0]!, site.hitsFor('/a')[0]!];
    assert.ok(a.at - home.at >= 950, `pages ${a.at - home.at} ms apart`);
  });

  it('backs off on 429 with Retry-After and then gets the page', async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/busy">busy</a>' }) },
      '/busy': (_req, hit) => (hit === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { body: page() }),
    });
    t.after(() => site.close());
    const pages = byPath(await crawlSite({ domain: site.host, maxPages: 10, allowPrivate: true }));
    assert.equal(pages.get('/busy')?.status, 200);
    const [first, second] = site.hitsFor('/busy');
    assert.ok(second!.at - first!.at >= 950, 'waited for Retry-After');
  });

  it('stops at max_pages', async (t) => {
    const links = Array.from({ length: 20 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('');
    const routes = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/p${i}`, { body: page() }]));
    const site = await startFixtureSite({ '/': { body: page({ body: links }) }, ...routes });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true });
    assert.equal(result.pages.length, 5);
    assert.equal(result.stoppedAtPageCap, true);
    assert.equal(site.hits.filter((h) => h.path.startsWith('/p')).length, 4);
  });

  it('refuses private addresses unless they are allowed, for IP literals and for names that resolve to them', async (t) => {
    const site = await startFixtureSite({ '/': { body: page() } });
    t.after(() => site.close());
    for (const domain of [site.host, site.host.replace('127.0.0.1', 'localhost')]) {
      const blocked = await crawlSite({ domain, maxPages: 5, allowPrivate: false });
      assert.equal(blocked.pages[0]?.status, 0, domain);
      assert.match(String(blocked.pages[0]?.error), /private or reserved/);
    }
    assert.equal(site.hitsFor('/').length, 0, 'not a single request reached the private host');
    const allowed = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true });
    assert.equal(allowed.pages[0]?.status, 200);
  });

  it('reads gzip sitemaps through a sitemap index named in robots.txt', async (t) => {
    const child = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/from-gz</loc></url></urlset>';
    const site = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\nSitemap: /index.xml\n' },
      '/': { body: page() },
      '/from-gz': { body: page() },
      '/index.xml': {
        headers: { 'content-type': 'application/xml' },
        body: '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/child.xml.gz</loc></sitemap></sitemapindex>',
      },
      '/child.xml.gz': { headers: { 'content-type': 'application/x-gzip' }, body: gzipSync(child) },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 10, allowPrivate: true });
    assert.equal(byPath(result).get('/from-gz')?.status, 200);
  });

  it('truncates bodies over the cap and says so', async (t) => {
    const site = await startFixtureSite({ '/': { body: page({ body: `<p>${'word '.repeat(50_000)}</p>` }) } });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 1, allowPrivate: true, maxBytes: 10_000 });
    assert.equal(result.pages[0]?.truncated, true);
    assert.ok((result.pages[0]?.facts?.wordCount ?? 0) < 3000);
  });
});
