import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { which } from '../../../test/helpers/programs.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { runChecks } from '../checks/run-checks.ts';
import { startSpaSite } from '../demo/spa-site.ts';
import { CHROMIUM_MISSING, crawlSite } from './crawl.ts';
import type { RenderingOptions } from './crawl.types.ts';
import { createRenderer } from './renderer.ts';
import { createOutboundAgent } from '../../lib/safe-http.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? which('chromium');
// Where Chromium is missing these skip, saying so; CI installs it (.ci/run), and there a missing one fails instead.
const needsChromium = { skip: chromiumPath || process.env.CI ? false : 'Chromium is not installed (apt-get install chromium): rendering is not tested' };
const rendering = (mode: RenderingOptions['mode']): RenderingOptions => ({ mode, chromiumPath, concurrency: 2, timeoutMs: 10_000 });

const byPath = (result: Awaited<ReturnType<typeof crawlSite>>) => new Map(result.pages.map((p) => [new URL(p.url).pathname, p]));

describe('JavaScript rendering', () => {
  let spa: Awaited<ReturnType<typeof startSpaSite>>;
  let secret: http.Server;
  let secretHits = 0;

  before(async () => {
    // A private address the page's script calls: the renderer's guard must keep the browser away from it.
    secret = http.createServer((_request, response) => {
      secretHits += 1;
      response.end('{"token":"internal"}');
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    spa = await startSpaSite({ beacon: `http://127.0.0.1:${(secret.address() as AddressInfo).port}/metadata` });
  });
  after(async () => {
    await spa.close();
    await new Promise<void>((resolve) => secret.close(() => resolve()));
  });

  it('auto renders a client-rendered site: what only JavaScript shows is found, crawled and compared', needsChromium, async () => {
    assert.ok(chromiumPath, 'chromium is not installed: .ci/run installs it');
    // Only the site itself is a private address allowed: the beacon's port is not.
    const result = await crawlSite({ domain: spa.host, maxPages: 20, allowPrivate: { hosts: [spa.host] }, rendering: rendering('auto') });
    const pages = byPath(result);
    assert.deepEqual([...pages.keys()].sort(), ['/', '/about', '/journal/brewing-at-altitude', '/shop/ethiopia-guji'], 'the links exist only after JavaScript');
    const home = pages.get('/')!;
    assert.equal(home.rendering?.reason, 'template_sample');
    assert.equal(result.rendering?.template_renders_content, true);
    assert.equal(pages.get('/about')?.rendering?.reason, 'template_renders_content');
    assert.equal(result.rendering?.rendered, 4);
    assert.equal(result.rendering?.failed, 0);

    // Raw against rendered.
    assert.equal(home.rendering?.raw.title, 'Northwind Roasters');
    assert.equal(home.facts?.titles[0], 'Northwind Roasters: small-batch coffee, roasted every Monday', 'the checks read the rendered page');
    assert.deepEqual(home.rendering?.changes.map((c) => c.field).sort(), ['canonical', 'h1', 'internal_links', 'meta_description', 'title']);
    assert.ok(home.rendering!.text_in_raw! < 0.2, `text in raw ${home.rendering?.text_in_raw}`);
    assert.equal(home.rendering?.links_only_rendered.count, 3);
    assert.deepEqual(home.rendering?.links_without_href, ['Careers at Northwind']);
    const about = pages.get('/about')!;
    assert.deepEqual(about.rendering?.changes.find((c) => c.field === 'robots'), { field: 'robots', raw: null, rendered: 'noindex' });

    // Data a script fetched from the site's API is in the rendered page.
    const article = pages.get('/journal/brewing-at-altitude')!;
    assert.ok(article.facts?.main?.blocks.some((b) => b.includes('boils at about 93 °C')), 'the article fetched from /api is in the main content');

    // The guard: the page's call to a private address was refused, and nothing reached it.
    assert.ok(home.rendering!.requests.refused >= 1, 'the beacon is refused');
    assert.equal(secretHits, 0, 'nothing reached the private address');
    assert.ok(spa.hits.includes('/api/articles/brewing-at-altitude.json'));

    const checks = runChecks(result);
    for (const id of ['content_only_after_javascript', 'links_only_after_javascript', 'directive_changed_by_javascript', 'metadata_changed_by_javascript', 'links_without_href']) {
      assert.ok(checks.findings.count(id) > 0, `${id} is found`);
    }
    const directives = checks.findings.byCheck.get('directive_changed_by_javascript') ?? [];
    assert.ok(directives.some((f) => f.url.endsWith('/about') && f.value === 'robots: (none) -> noindex'), 'the noindex JavaScript adds is reported');
  });

  it('never audits the shell alone: one page, no text, nothing rendered', async () => {
    const result = await crawlSite({ domain: spa.host, maxPages: 20, allowPrivate: { hosts: [spa.host] }, rendering: rendering('never') });
    assert.deepEqual(result.pages.map((p) => new URL(p.url).pathname), ['/']);
    assert.equal(result.pages[0]?.rendering, undefined);
    assert.equal(result.pages[0]?.facts?.titles[0], 'Northwind Roasters');
    assert.deepEqual({ rendered: result.rendering?.rendered, available: result.rendering?.available }, { rendered: 0, available: false });
  });

  it('without Chromium the audit runs on raw HTML and says rendering was not available', async () => {
    const result = await crawlSite({ domain: spa.host, maxPages: 20, allowPrivate: { hosts: [spa.host] }, rendering: { mode: 'auto', chromiumPath: undefined } });
    assert.equal(result.pages.length, 1);
    assert.equal(result.rendering?.available, false);
    assert.equal(result.rendering?.unavailable, CHROMIUM_MISSING);
  });

  it('auto on a server-rendered site renders the home page once, and no other page', needsChromium, async (t) => {
    const words = 'Our bakery bakes sourdough bread every morning from flour milled in the valley, and sells it until it runs out. '.repeat(4);
    const site = await startFixtureSite({
      // A widget of links a script fills (four "popular" pages) is not a site built by JavaScript.
      '/': { body: page({ title: 'Valley Bakery: sourdough baked every morning', body: `<h1>Valley Bakery</h1><p>${words}</p><a href="/bread">Bread</a><a href="/cakes">Cakes</a><aside id="popular"></aside><script src="/analytics.js"></script><script>document.getElementById('popular').innerHTML = ['rye', 'spelt', 'buns', 'scones'].map((p) => '<a href="/bread#' + p + '">' + p + '</a><a href="/popular/' + p + '">' + p + '</a>').join('')</script>` }) },
      '/bread': { body: page({ title: 'Our sourdough loaves and rye breads', body: `<h1>Bread</h1><p>${words}</p>` }) },
      // A page of its own that is a script's shell: the rules render it.
      '/cakes': { body: '<!doctype html><html><head><title>Cakes</title></head><body><div id="root"></div><script>document.getElementById("root").innerHTML = "<h1>Cakes</h1><p>Lemon drizzle and carrot cake on Saturdays.</p>"</script></body></html>' },
      '/analytics.js': { headers: { 'content-type': 'text/javascript' }, body: 'window.analytics = true;' },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 20, allowPrivate: true, rendering: rendering('auto') });
    const pages = byPath(result);
    assert.equal(result.rendering?.template_renders_content, false, 'the template is in the HTML');
    assert.equal(pages.get('/')?.rendering?.reason, 'template_sample');
    assert.equal(pages.get('/')?.rendering?.text_in_raw, 1);
    assert.equal(pages.get('/')?.rendering?.links_only_rendered.count, 4, 'the widget\'s links are found, and crawled');
    assert.equal(pages.get('/bread')?.rendering, undefined, 'a server-rendered page is not rendered');
    assert.equal(pages.get('/cakes')?.rendering?.reason, 'empty_app_root');
    assert.equal(pages.get('/cakes')?.facts?.headings[0]?.text, 'Cakes');
    assert.deepEqual(result.rendering?.by_reason, { template_sample: 1, empty_app_root: 1 });
  });

  it('always renders every page, and a render that times out leaves the raw page audited with the reason', needsChromium, async (t) => {
    const site = await startFixtureSite({
      '/': { body: page({ title: 'Home', body: '<p>Welcome</p><a href="/slow">slow</a>' }) },
      // A script that never lets go of the page: the render is bounded.
      '/slow': { body: page({ title: 'Slow', body: '<p>Loops</p><script>for(;;){}</script>' }) },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 20, allowPrivate: true, rendering: { ...rendering('always'), timeoutMs: 1500 } });
    const pages = byPath(result);
    assert.equal(pages.get('/')?.rendering?.reason, 'always');
    assert.match(pages.get('/slow')?.rendering?.error ?? '', /render took over|Timeout/i);
    assert.equal(pages.get('/slow')?.facts?.titles[0], 'Slow', 'the raw page is audited');
    assert.equal(result.rendering?.failed, 1);
    assert.equal(runChecks(result).findings.count('render_failed'), 1);
  });

  it('does not fetch what robots.txt disallows while rendering, and says so', needsChromium, async (t) => {
    const site = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private-api/\n' },
      '/': { body: '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div><script>fetch("/private-api/items").then(r => r.text()).then(t => document.getElementById("root").textContent = t)</script></body></html>' },
      '/private-api/items': { headers: { 'content-type': 'text/plain' }, body: 'secret items' },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true, rendering: rendering('auto') });
    const home = result.pages[0]!;
    assert.deepEqual(home.rendering?.requests.disallowed, [`${site.origin}/private-api/items`]);
    assert.equal(site.hitsFor('/private-api/items').length, 0);
    assert.equal(runChecks(result).findings.count('render_resources_disallowed'), 1);
  });

  it('keeps every request of a page behind the guard: an iframe redirected to a private address, a shared worker, a script that navigates away', needsChromium, async (t) => {
    const secretPort = (secret.address() as AddressInfo).port;
    const before = secretHits;
    const site = await startFixtureSite({
      '/': { body: page({ title: 'Guarded', body: `<p>${'Words of the page. '.repeat(10)}</p><iframe src="/frame"></iframe><a href="/away">away</a>`
        + `<script>try { new SharedWorker('/worker.js') } catch (e) { document.title = 'no shared worker' }</script>` }) },
      '/frame': { status: 302, headers: { location: `http://127.0.0.1:${secretPort}/frame` } },
      '/worker.js': { headers: { 'content-type': 'text/javascript' }, body: `fetch('http://127.0.0.1:${secretPort}/from-worker')` },
      '/away': { body: page({ title: 'Away', body: `<script>location.href = 'http://127.0.0.1:${secretPort}/navigated'</script>` }) },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: { hosts: [site.host] }, rendering: rendering('always') });
    const pages = byPath(result);
    assert.equal(secretHits, before, 'nothing reached the private address');
    assert.ok(pages.get('/')!.rendering!.requests.refused >= 1, 'the redirected hop is refused');
    assert.equal(pages.get('/')?.facts?.titles[0], 'no shared worker');
    assert.match(pages.get('/away')?.rendering?.error ?? '', /navigated away/);
    assert.equal(pages.get('/away')?.facts?.titles[0], 'Away', 'the raw page is audited');

    // What reached the dead-end proxy (Chromium's own update and time checks): nothing of the page's.
    const agent = createOutboundAgent({ allowPrivate: { hosts: [site.host] }, connectionsPerOrigin: 2, timeoutMs: 5000 });
    const renderer = createRenderer({ executablePath: chromiumPath!, agent, allowPrivate: { hosts: [site.host] } });
    try {
      assert.equal((await renderer.render(`${site.origin}/`)).error, undefined);
      assert.deepEqual(renderer.escapedTargets.filter((line) => line.includes('127.0.0.1') || line.includes('localhost')), []);
    } finally {
      await renderer.close();
      await agent.close();
    }
    assert.equal(secretHits, before);
  });

  it('renders a Latin-1 page as the crawler read it (no "CafÃ©"), and reports a Chromium that does not start', needsChromium, async (t) => {
    const site = await startFixtureSite({
      '/': { headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: Buffer.from('<!doctype html><html><head><meta charset="iso-8859-1"><title>Caf\xe9 cr\xe8me</title></head><body><p>Caf\xe9</p></body></html>', 'latin1') },
    });
    t.after(() => site.close());
    const result = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true, rendering: rendering('auto') });
    assert.equal(result.pages[0]?.facts?.titles[0], 'Café crème');
    assert.deepEqual(result.pages[0]?.rendering?.changes, []);
    const broken = await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true, rendering: { ...rendering('auto'), chromiumPath: '/nonexistent/chromium' } });
    assert.equal(broken.rendering?.available, false);
    assert.match(broken.rendering?.unavailable ?? '', /^Chromium did not start/);
  });
});
