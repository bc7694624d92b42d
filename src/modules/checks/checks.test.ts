import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { page, startFixtureSite, type FixtureResponse, type FixtureRoute } from '../../../test/helpers/fixture-site.ts';
import { crawlSite } from '../crawler/crawl.ts';
import { CHECKS } from './catalogue.ts';
import { Findings } from './findings.ts';
import { runChecks } from './run-checks.ts';
import { checkSite } from './site-checks.ts';
import { checkPage, siteContext } from './page-checks.ts';
import { extractPageFacts } from '../crawler/extract.ts';
import type { CrawlResult, CrawledPage } from '../crawler/crawl.ts';

/** Every check a test below saw find its planted problem. */
const covered = new Set<string>();
import { healthScore } from './score.ts';
import { checkRendering } from './rendering-checks.ts';
import type { PageRendering } from '../crawler/render-compare.ts';
import { checkPageSpeed } from './page-speed-checks.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';
import type { LabResult } from '../page-speed/lab-result.ts';

/** n distinct words, different for each seed, so pages are neither thin nor duplicates. */
const prose = (seed: string, n = 230) => Array.from({ length: n }, (_, i) => `${seed}word${i}`).join(' ');

/** A page that passes every check, given its absolute URL. */
function cleanPage(origin: string, path: string, options: { body?: string; head?: string } = {}) {
  const slug = path === '/' ? 'home' : path.replace(/\W/g, '');
  return page({
    title: `Clean page ${slug} of the fixture site`,
    description: `A description for ${slug} that is long enough to be shown in search results and unique to the page.`,
    head: `<link rel="canonical" href="${origin}${path}">${options.head ?? ''}`,
    body: `<h1>Clean ${slug}</h1><h2>Section</h2><p>${prose(slug)}</p>${options.body ?? ''}`,
  });
}

async function audit(build: (origin: string) => Record<string, FixtureRoute>, options: { maxBytes?: number; maxPages?: number } = {}) {
  let origin = '';
  const routes: Record<string, FixtureRoute> = {};
  const site = await startFixtureSite(routes);
  origin = site.origin;
  Object.assign(routes, build(origin));
  try {
    const crawl = await crawlSite({ domain: site.host, maxPages: 200, allowPrivate: true, ...options });
    return { ...runChecks(crawl), origin };
  } finally {
    await site.close();
  }
}

const sitemap = (origin: string, paths: string[]): FixtureRoute => ({
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
});

describe('checks on a clean site', () => {
  it('stay silent, every one of them, and the score is 100', async () => {
    const result = await audit((origin) => ({
      '/': { body: cleanPage(origin, '/', { body: '<a href="/about">About the team</a> <a href="/contact">Contact us</a>' }) },
      '/about': { body: cleanPage(origin, '/about', { body: '<a href="/">Home page</a><img src="/a.png" alt="Team photo">' }) },
      '/a.png': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(40_000) },
      '/contact': { body: cleanPage(origin, '/contact', { head: '<script type="application/ld+json">{"@type":"Organization"}</script>' }) },
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/sitemap.xml': sitemap(origin, ['/', '/about', '/contact']),
      '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: `# Fixture\n\n> A clean site.\n\n## Pages\n\n- [About](${origin}/about): the team\n` },
    }));
    assert.deepEqual(Object.fromEntries(result.findings.byCheck), {});
    assert.equal(result.score, 100);
    assert.equal(result.pagesAnalysed, 3);
  });
});

describe('checks on a site with planted problems', () => {
  it('each find their own problem on the page that has it', async () => {
    const pages: Record<string, ((origin: string) => FixtureRoute) | FixtureResponse> = {
      '/no-title': () => ({ body: `<html lang="en"><head><meta name="viewport" content="x"></head><body><h1>x</h1><p>${prose('nt')}</p></body></html>` }),
      '/short-title': (o) => ({ body: cleanPage(o, '/short-title').replace(/<title>[^<]*/, '<title>Short') }),
      '/long-title': (o) => ({ body: cleanPage(o, '/long-title').replace(/<title>[^<]*/, `<title>${'Long title '.repeat(8)}`) }),
      '/two-titles': (o) => ({ body: cleanPage(o, '/two-titles', { head: '<title>Second title of this page here</title>' }) }),
      '/dup-a': (o) => ({ body: cleanPage(o, '/dup-a').replace(/<title>[^<]*/, '<title>The same title on two pages') }),
      '/dup-b': (o) => ({ body: cleanPage(o, '/dup-b').replace(/<title>[^<]*/, '<title>The same title on two pages') }),
      '/no-description': (o) => ({ body: cleanPage(o, '/no-description').replace(/<meta name="description"[^>]*>/, '') }),
      '/short-description': (o) => ({ body: cleanPage(o, '/short-description').replace(/content="A description[^"]*"/, 'content="Too short."') }),
      '/no-h1': (o) => ({ body: cleanPage(o, '/no-h1').replace(/<h1>[^<]*<\/h1>/, '') }),
      '/two-h1': (o) => ({ body: cleanPage(o, '/two-h1', { body: '<h1>Another h1</h1>' }) }),
      '/skipped-heading': (o) => ({ body: cleanPage(o, '/skipped-heading', { body: '<h4>Too deep</h4>' }) }),
      '/image-no-alt': (o) => ({ body: cleanPage(o, '/image-no-alt', { body: '<img src="/x.png">' }) }),
      '/click-here': (o) => ({ body: cleanPage(o, '/click-here', { body: '<a href="/">click here</a><a href="javascript:void(0)">Menu</a>' }) }),
      '/thin': (o) => ({ body: page({ title: 'A thin page of the fixture site', head: `<link rel="canonical" href="${o}/thin">`, body: '<h1>Thin</h1><p>Few words.</p>' }) }),
      '/noindex': (o) => ({ body: cleanPage(o, '/noindex', { head: '<meta name="robots" content="noindex, nofollow">' }) }),
      '/header-noindex': (o) => ({ headers: { 'x-robots-tag': 'noindex' }, body: cleanPage(o, '/header-noindex') }),
      '/no-viewport': (o) => ({ body: cleanPage(o, '/no-viewport').replace(/<meta name="viewport"[^>]*>/, '') }),
      '/no-lang': (o) => ({ body: cleanPage(o, '/no-lang').replace('<html lang="en">', '<html>') }),
      '/bad-json-ld': (o) => ({ body: cleanPage(o, '/bad-json-ld', { head: '<script type="application/ld+json">{"@type": </script>' }) }),
      '/no-canonical': (o) => ({ body: cleanPage(o, '/no-canonical').replace(/<link rel="canonical"[^>]*>/, '') }),
      '/relative-canonical': (o) => ({ body: cleanPage(o, '/relative-canonical').replace(/href="[^"]*relative-canonical"/, 'href="/relative-canonical"') }),
      '/canonical-to-404': (o) => ({ body: cleanPage(o, '/canonical-to-404').replace(/href="[^"]*canonical-to-404"/, `href="${o}/gone"`) }),
      '/hreflang': (o) => ({ body: cleanPage(o, '/hreflang', { head: `<link rel="alternate" hreflang="english" href="${o}/">` }) }),
      '/broken-link': (o) => ({ body: cleanPage(o, '/broken-link', { body: '<a href="/gone">Our old page</a>' }) }),
      '/to-redirect': (o) => ({ body: cleanPage(o, '/to-redirect', { body: '<a href="/moved">Moved page</a>' }) }),
      '/moved': { status: 301, headers: { location: '/hop' } },
      '/hop': { status: 301, headers: { location: '/' } },
      '/server-error': { status: 500, body: 'oops' },
      '/orphan': (o) => ({ body: cleanPage(o, '/orphan') }),
    };
    const linked = Object.keys(pages).filter((p) => p !== '/orphan');
    const result = await audit((origin) => ({
      '/': { body: cleanPage(origin, '/', { body: linked.map((p) => `<a href="${p}">Go to ${p}</a>`).join(' ') }) },
      '/sitemap.xml': sitemap(origin, ['/', '/orphan', '/noindex', '/gone']),
      ...Object.fromEntries(Object.entries(pages).map(([path, make]) => [path, typeof make === 'function' ? make(origin) : make])),
    }));
    const expected: Array<[string, string]> = [
      ['title_missing', '/no-title'], ['title_too_short', '/short-title'], ['title_too_long', '/long-title'],
      ['title_multiple', '/two-titles'], ['title_duplicate', '/dup-a'], ['title_duplicate', '/dup-b'],
      ['meta_description_missing', '/no-description'], ['meta_description_too_short', '/short-description'],
      ['h1_missing', '/no-h1'], ['h1_multiple', '/two-h1'], ['heading_level_skipped', '/skipped-heading'],
      ['image_missing_alt', '/image-no-alt'], ['link_text_non_descriptive', '/click-here'], ['link_not_crawlable', '/click-here'],
      ['thin_content', '/thin'], ['noindex_meta', '/noindex'], ['nofollow_page', '/noindex'], ['noindex_header', '/header-noindex'],
      ['viewport_missing', '/no-viewport'], ['html_lang_missing', '/no-lang'], ['json_ld_invalid', '/bad-json-ld'],
      ['canonical_missing', '/no-canonical'], ['canonical_relative', '/relative-canonical'],
      ['canonical_to_error', '/canonical-to-404'], ['canonical_to_other_url', '/canonical-to-404'],
      ['hreflang_invalid_code', '/hreflang'], ['hreflang_missing_x_default', '/hreflang'], ['hreflang_missing_return', '/hreflang'],
      ['broken_internal_links', '/broken-link'], ['page_4xx', '/gone'], ['page_5xx', '/server-error'],
      ['links_to_redirect', '/to-redirect'], ['redirect_chain', '/moved'],
      ['sitemap_noindex_url', '/noindex'], ['sitemap_broken_url', '/gone'], ['orphan_page', '/orphan'],
      ['indexable_page_not_in_sitemap', '/two-h1'],
    ];
    const missing = expected.filter(([check, path]) => !(result.findings.byCheck.get(check) ?? []).some((f) => f.url === `${result.origin}${path}`));
    assert.deepEqual(missing, [], 'every planted problem is found');
    for (const [check] of expected) covered.add(check);
    const home = `${result.origin}/`;
    const onHome = [...result.findings.byCheck].filter(([, list]) => list.some((f) => f.url === home)).map(([id]) => id);
    assert.deepEqual(onHome.filter((id) => !['too_many_links', 'broken_internal_links', 'links_to_redirect'].includes(id)), [], 'the clean home page has no page-level problems');
    assert.ok(result.score < 100 && result.score > 0);
    assert.equal(result.findings.byCheck.get('title_too_short')?.[0]?.value, 'Short', 'the offending value is recorded');
  });
});

/** Asserts each [check, path] was found on that page, and records the check as covered. */
function assertFound(result: Awaited<ReturnType<typeof audit>>, expected: Array<[string, string]>) {
  const missing = expected.filter(([check, path]) => !(result.findings.byCheck.get(check) ?? []).some((f) => f.url === `${result.origin}${path}`));
  assert.deepEqual(missing, [], 'every planted problem is found');
  for (const [check] of expected) covered.add(check);
}

describe('checks on a second site with planted problems', () => {
  it('find the rest of the catalogue', async () => {
    const same = prose('samesame');
    const result = await audit(
      (o) => ({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' },
        '/': {
          body: cleanPage(o, '/', {
            body: ['/empty-title', '/empty-description', '/long-description', '/two-descriptions', '/same-desc-a', '/same-desc-b',
              '/long-alt', '/nofollow', '/many-links', '/huge', '/slow', '/two-canonicals', '/canonical-to-redirect',
              '/canonical-to-noindex', '/copy-a', '/copy-b', '/d1', '/private/page', '/loop1', '/dropped', '/big-image']
              .map((p) => `<a href="${p}">Go to ${p}</a>`).join(' '),
          }),
        },
        '/sitemap.xml': sitemap(o, ['/', '/private/page', '/moved']),
        '/empty-title': { body: cleanPage(o, '/empty-title').replace(/<title>[^<]*/, '<title>') },
        '/empty-description': { body: cleanPage(o, '/empty-description').replace(/content="A description[^"]*"/, 'content=""') },
        '/long-description': { body: cleanPage(o, '/long-description').replace(/content="A description[^"]*"/, `content="${'Long description words. '.repeat(10)}"`) },
        '/two-descriptions': { body: cleanPage(o, '/two-descriptions', { head: '<meta name="description" content="A second description that is long enough to count as one, repeated here.">' }) },
        '/same-desc-a': { body: cleanPage(o, '/same-desc-a').replace(/content="A description[^"]*"/, 'content="The very same description on two different pages of this site, which search engines dislike."') },
        '/same-desc-b': { body: cleanPage(o, '/same-desc-b').replace(/content="A description[^"]*"/, 'content="The very same description on two different pages of this site, which search engines dislike."') },
        '/long-alt': { body: cleanPage(o, '/long-alt', { body: `<img src="/i.png" alt="${'a very long alternative text '.repeat(6)}">` }) },
        '/nofollow': { body: cleanPage(o, '/nofollow', { body: '<a rel="nofollow" href="/">Home page</a>' }) },
        '/many-links': { body: cleanPage(o, '/many-links', { body: Array.from({ length: 151 }, (_, i) => `<a href="/?n=${i % 3}">Home ${i}</a>`).join('') }) },
        '/huge': { body: cleanPage(o, '/huge', { body: `<p>${'filler '.repeat(60_000)}</p>` }) },
        '/slow': async () => {
          await new Promise((resolve) => setTimeout(resolve, 850));
          return { body: cleanPage(o, '/slow') };
        },
        '/two-canonicals': { body: cleanPage(o, '/two-canonicals', { head: `<link rel="canonical" href="${o}/two-canonicals">` }) },
        '/canonical-to-redirect': { body: cleanPage(o, '/canonical-to-redirect').replace(/href="[^"]*canonical-to-redirect"/, `href="${o}/moved"`) },
        '/canonical-to-noindex': { body: cleanPage(o, '/canonical-to-noindex').replace(/href="[^"]*canonical-to-noindex"/, `href="${o}/hidden"`) },
        '/hidden': { body: cleanPage(o, '/hidden', { head: '<meta name="robots" content="noindex">' }) },
        '/moved': { status: 301, headers: { location: '/' } },
        '/copy-a': { body: page({ title: 'First copy of the same text here', head: `<link rel="canonical" href="${o}/copy-a">`, body: `<h1>Copy</h1><p>${same}</p>` }) },
        '/copy-b': { body: page({ title: 'Second copy of the same text here', description: 'Another description for the second copy, long enough to pass the length check easily.', head: `<link rel="canonical" href="${o}/copy-b">`, body: `<h1>Copy</h1><p>${same}</p>` }) },
        '/d1': { body: cleanPage(o, '/d1', { body: '<a href="/d2">Deeper</a>' }) },
        '/d2': { body: cleanPage(o, '/d2', { body: '<a href="/d3">Deeper</a>' }) },
        '/d3': { body: cleanPage(o, '/d3', { body: '<a href="/d4">Deeper</a>' }) },
        '/d4': { body: cleanPage(o, '/d4', { body: '<a href="/d5">Deeper</a>' }) },
        '/d5': { body: cleanPage(o, '/d5') },
        '/private/page': { body: cleanPage(o, '/private/page') },
        '/loop1': { status: 302, headers: { location: '/loop2' } },
        '/loop2': { status: 302, headers: { location: '/loop1' } },
        '/dropped': { destroy: true },
        '/big-image': { body: cleanPage(o, '/big-image', { body: '<img src="/big.jpg" alt="A big photo">' }) },
        '/big.jpg': { headers: { 'content-type': 'image/jpeg' }, body: Buffer.alloc(300_000) },
      }),
      { maxBytes: 200_000 },
    );
    assertFound(result, [
      ['title_empty', '/empty-title'], ['meta_description_empty', '/empty-description'],
      ['meta_description_too_long', '/long-description'], ['meta_description_multiple', '/two-descriptions'],
      ['meta_description_duplicate', '/same-desc-a'], ['meta_description_duplicate', '/same-desc-b'],
      ['image_alt_too_long', '/long-alt'], ['internal_nofollow_links', '/nofollow'], ['too_many_links', '/many-links'],
      ['html_truncated', '/huge'], ['slow_ttfb', '/slow'], ['canonical_multiple', '/two-canonicals'],
      ['canonical_to_redirect', '/canonical-to-redirect'], ['canonical_to_noindex', '/canonical-to-noindex'],
      ['duplicate_content', '/copy-a'], ['duplicate_content', '/copy-b'], ['click_depth_over_4', '/d5'],
      ['blocked_by_robots', '/private/page'], ['sitemap_blocked_url', '/private/page'], ['sitemap_redirect_url', '/moved'],
      ['redirect_loop', '/loop1'], ['page_unreachable', '/dropped'], ['image_too_large', '/big-image'],
    ]);
  });

  it('find a robots.txt that disallows everything, and a missing sitemap', async () => {
    const result = await audit(() => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
      '/': { body: page() },
    }));
    assertFound(result, [['robots_txt_blocks_all', '/robots.txt'], ['sitemap_missing', '/sitemap.xml']]);
    assert.ok(result.score <= 30, 'a site-wide block caps the score');
  });

  it('find a home page that is noindex', async () => {
    const result = await audit((o) => ({ '/': { body: cleanPage(o, '/', { head: '<meta name="robots" content="noindex">' }) } }));
    assertFound(result, [['home_noindex', '/']]);
    assert.ok(result.score <= 30);
  });
});

describe('checks that need an https site', () => {
  // The fixture server speaks plain http, so these run on pages as the crawler records them.
  const crawled = (url: string, html: string, extra: Partial<CrawledPage> = {}): CrawledPage => ({
    url, depth: 0, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html', ttfbMs: 10,
    truncated: false, xRobotsTag: [], hsts: false, outlinks: new Int32Array(0), images: [], facts: extractPageFacts(html), ...extra,
  });
  const run = (pages: CrawledPage[]) => {
    const crawl: CrawlResult = {
      startUrl: 'https://secure.test/', pages, imageBytes: new Map(), platformHints: { homeAssets: [], wordpressApi: false }, urls: pages.map((p) => p.url), sitemapUrls: new Set(),
      sitemapsFetched: [{ url: 'https://secure.test/sitemap.xml', status: 200, kind: 'urlset' }], robots: { status: 404, blocksEverything: false },
      homeHeaders: {}, stoppedAtPageCap: false, pageCap: 500, uncrawled: 0, traps: [], fragmentLinks: [],
    };
    const findings = new Findings();
    for (const p of pages) checkPage(p, findings, siteContext(crawl.startUrl));
    checkSite(crawl, findings);
    return findings;
  };

  it('find http pages, http links, http form actions and a missing HSTS header', () => {
    const findings = run([
      crawled('https://secure.test/', page({ body: '<a href="http://secure.test/old">Old version</a><form action="http://secure.test/send"></form>' })),
      crawled('http://secure.test/old', page(), { depth: 1 }),
    ]);
    const at = (check: string) => findings.byCheck.get(check)?.map((f) => f.url);
    assert.deepEqual(at('http_links_on_https_site'), ['https://secure.test/']);
    assert.deepEqual(at('http_form_action'), ['https://secure.test/']);
    assert.deepEqual(at('http_page_on_https_site'), ['http://secure.test/old']);
    assert.deepEqual(at('hsts_missing'), ['https://secure.test/']);
    for (const check of ['http_links_on_https_site', 'http_form_action', 'http_page_on_https_site', 'hsts_missing']) covered.add(check);
  });

  it('stay silent on an https site that does it right', () => {
    const findings = run([crawled('https://secure.test/', page({ body: '<a href="https://secure.test/new">New</a>' }), { hsts: true })]);
    for (const check of ['http_links_on_https_site', 'http_form_action', 'http_page_on_https_site', 'hsts_missing']) {
      assert.equal(findings.count(check), 0, check);
    }
  });
});

describe('checks as real documentation sites showed them (no finding that is not a problem)', () => {
  const at = (url: string, html: string): CrawledPage => ({
    url, depth: 0, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html', ttfbMs: 10,
    truncated: false, xRobotsTag: [], hsts: false, outlinks: new Int32Array(0), images: [], facts: extractPageFacts(html),
  });
  const found = (html: string) => {
    const findings = new Findings();
    checkPage(at('https://docs.test/page.html', html), findings, siteContext('https://docs.test/'));
    return [...findings.byCheck].map(([id, list]) => `${id} ${list.map((f) => f.value ?? '').join(' | ')}`.trim());
  };

  it('judge heading levels on the page\'s own headings, not a sidebar\'s "Previous topic"', () => {
    const sphinx = '<body><div class="body" role="main"><h1>abc</h1><p>Text.</p><h2>Usage</h2></div><div class="sphinxsidebar" role="navigation"><h4>Previous topic</h4></div></body>';
    assert.ok(!found(sphinx).some((f) => f.startsWith('heading_level_skipped')), found(sphinx).join('; '));
    assert.ok(found('<body><main><h1>abc</h1><h3>Skipped</h3></main></body>').some((f) => f.startsWith('heading_level_skipped h1 -> h3')));
  });

  it('do not call a link to the page itself uncrawlable, nor a keyword set as code non-descriptive', () => {
    const findings = found('<body><a href="#">About these documents</a><a href="">Abstract Objects Layer</a><a href="/ref#continue"><code>continue</code></a><a href="javascript:void(0)">Menu</a><a href="/x">here</a></body>');
    assert.deepEqual(findings.filter((f) => /^link_/.test(f)), ['link_not_crawlable javascript:void(0)', 'link_text_non_descriptive here']);
  });

  it('tell a canonical that is no web address (file:) from a relative one', () => {
    assert.ok(found('<head><link rel="canonical" href="file:///usr/share/doc/python3.11/html/library/abc.html"></head>').includes('canonical_not_http file:///usr/share/doc/python3.11/html/library/abc.html'));
    covered.add('canonical_not_http');
    assert.ok(found('<head><link rel="canonical" href="/page.html"></head>').includes('canonical_relative /page.html'));
  });
});

describe('checks on what the crawl met', () => {
  it('find fragment links to ids that do not exist, every one of a page', async () => {
    const result = await audit((o) => ({
      '/': { body: cleanPage(o, '/', { body: '<a href="/guide">Guide</a>' }) },
      '/guide': {
        body: cleanPage(o, '/guide', {
          body: '<h2 id="install">Install</h2><a name="old-anchor"></a><a href="#install">Install</a><a href="#top">Top</a>' +
            '<a href="#nowhere">Nowhere</a><a href="/reference#options">Options</a><a href="/reference#gone">Gone</a>' +
            '<a href="/reference#caf%C3%A9">Café</a><a href="/guide#old-anchor">Old</a>',
        }),
      },
      '/reference': { body: cleanPage(o, '/reference', { body: '<h2 id="options">Options</h2><p id="café">Café</p>' }) },
    }));
    assertFound(result, [['broken_fragment_link', '/guide']]);
    const values = result.findings.byCheck.get('broken_fragment_link')!.map((f) => f.value!.replace(result.origin, '')).sort();
    assert.deepEqual(values, ['/guide#nowhere', '/reference#gone'], 'each missing target once; existing ids, <a name>, #top and percent-encoded ids pass');
    assert.equal(result.breakdown.find((l) => l.check_id === 'broken_fragment_link')?.affected, 1, 'one page affected, two targets listed');
  });

  it('find a sitemap.xml that is no sitemap, a sitemap with another host, and one over 50,000 URLs', async () => {
    const many = Array.from({ length: 50_001 }, (_, i) => `<url><loc>/p${i}</loc></url>`).join('');
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\nSitemap: /foreign.xml\nSitemap: /huge.xml\nSitemap: /text.xml\n' },
      '/': { body: cleanPage(o, '/') },
      // The Apache manual's /sitemap.xml: its own XML source, not a sitemap.
      '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0"?><sitemap metafile="sitemap.xml.meta"><title>Sitemap</title></sitemap>' },
      '/foreign.xml': sitemap('http://other.example', ['/x']),
      '/huge.xml': { headers: { 'content-type': 'application/xml' }, body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${many}</urlset>` },
      '/text.xml': { headers: { 'content-type': 'text/plain' }, body: 'https://example.com/a\nhttps://example.com/b\n' },
    }));
    assertFound(result, [['sitemap_invalid', '/sitemap.xml'], ['sitemap_invalid', '/foreign.xml'], ['sitemap_invalid', '/huge.xml'], ['sitemap_invalid', '/text.xml']]);
    const why = Object.fromEntries(result.findings.byCheck.get('sitemap_invalid')!.map((f) => [new URL(f.url).pathname, f.value]));
    assert.match(why['/sitemap.xml']!, /root element is <sitemap>/);
    assert.match(why['/foreign.xml']!, /1 URL\(s\) of another host/);
    assert.match(why['/huge.xml']!, /50001 URLs/);
    assert.match(why['/text.xml']!, /not XML/);
    assert.equal(result.findings.count('sitemap_missing'), 0, 'the index of valid files still counts as a sitemap');
  });

  it('count a /sitemap.xml that is not a sitemap as no sitemap', async () => {
    const result = await audit((o) => ({
      '/': { body: cleanPage(o, '/') },
      '/sitemap.xml': { body: '<!doctype html><html><body>Soft 404</body></html>' },
    }));
    assertFound(result, [['sitemap_missing', '/sitemap.xml'], ['sitemap_invalid', '/sitemap.xml']]);
  });

  it('find a charset conflict between the header and the page', async () => {
    const result = await audit((o) => ({
      '/': { body: cleanPage(o, '/', { body: '<a href="/latin">Latin page</a>' }) },
      '/latin': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: cleanPage(o, '/latin').replace('<meta charset="utf-8">', '<meta charset="windows-1252">') },
    }));
    assertFound(result, [['charset_conflict', '/latin']]);
    assert.equal(result.findings.byCheck.get('charset_conflict')![0]!.value, 'header utf-8, page windows-1252');
    assert.equal(result.findings.byCheck.get('charset_conflict')!.length, 1, 'the home page declares the same charset twice: no conflict');
  });

  it('find the pages of a multilingual site without hreflang', async () => {
    const linked = ['/en/a', '/en/b', '/de/a', '/de/b', '/de/c'];
    const result = await audit((o) => ({
      '/': { body: cleanPage(o, '/', { body: linked.map((p) => `<a href="${p}">Page ${p}</a>`).join(' ') }) },
      ...Object.fromEntries(linked.map((p) => [p, { body: cleanPage(o, p).replace('lang="en"', `lang="${p.slice(1, 3)}"`) }])),
    }));
    assertFound(result, [['hreflang_missing', '/de/a'], ['hreflang_missing', '/en/b']]);
    assert.match(result.findings.byCheck.get('hreflang_missing')![0]!.value!, /de, en/);
    const single = await audit((o) => ({ '/': { body: cleanPage(o, '/', { body: '<a href="/b">B page</a>' }) }, '/b': { body: cleanPage(o, '/b') } }));
    assert.equal(single.findings.count('hreflang_missing'), 0, 'a site in one language needs no hreflang');
  });

  it('report a crawl trap and a crawl stopped at its cap, and leave robots.txt refusals out of the score', async () => {
    const pages = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'application/octet-stream' }, body: 'User-agent: *\nDisallow: /private\n' },
      '/': { body: cleanPage(o, '/', { body: ['/private/1', '/private/2', '/private/3', '/loop/', ...pages].map((p) => `<a href="${p}">Page ${p}</a>`).join(' ') }) },
      '/loop/': { body: cleanPage(o, '/loop/', { body: '<a href="loop/">Again</a>' }) },
      ...Object.fromEntries(pages.map((p) => [p, { body: cleanPage(o, p) }])),
    }), { maxPages: 4 });
    assertFound(result, [['crawl_stopped_at_cap', '/'], ['crawl_trap', '/loop/loop/'], ['blocked_by_robots', '/private/1']]);
    assert.match(result.findings.byCheck.get('crawl_stopped_at_cap')![0]!.value!, /Stopped after 4 fetched pages \(max_pages 4\); \d+ discovered URL\(s\) were not crawled/);
    assert.match(result.findings.byCheck.get('crawl_trap')![0]!.value!, /repeating path segments.*1 URL\(s\) left out/);
    assert.equal(result.pagesAnalysed, 4, 'the three blocked URLs are not analysed pages');
    assert.equal(result.breakdown.some((l) => ['blocked_by_robots', 'crawl_stopped_at_cap'].includes(l.check_id)), false, 'neither costs points');
  });
});

describe('checks on search and AI crawler access', () => {
  const robots = [
    'User-agent: GPTBot', 'Disallow: /', '',
    'User-agent: ClaudeBot', 'User-agent: Claude-SearchBot', 'Disallow: /', '',
    'User-agent: PerplexityBot', 'Disallow: /', '',
    'User-agent: Bingbot', 'Disallow: /sitemap.xml', '',
    'User-agent: *', 'Allow: /', '',
  ].join('\n');

  it('report blocked search crawlers with their consequence, a shared training opt-out, a blocked sitemap and a malformed llms.txt; none of the policy blocks costs a point', async () => {
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robots },
      '/': { body: cleanPage(o, '/') },
      '/sitemap.xml': sitemap(o, ['/']),
      '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: 'Our site\n## Docs\n- the guide\n' },
    }));
    assertFound(result, [
      ['search_crawler_blocked_home', '/robots.txt'], ['ai_crawler_block_contradiction', '/robots.txt'],
      ['sitemap_blocked_for_crawler', '/robots.txt'], ['llms_txt_invalid', '/llms.txt'],
    ]);
    const values = (id: string) => result.findings.byCheck.get(id)!.map((f) => f.value);
    assert.deepEqual(values('search_crawler_blocked_home').map((v) => v!.split(' ')[0]).sort(), ['Claude-SearchBot', 'PerplexityBot']);
    assert.match(values('search_crawler_blocked_home').find((v) => v!.startsWith('PerplexityBot'))!, /not shown or cited in Perplexity's answers/);
    assert.deepEqual(values('ai_crawler_block_contradiction'), ["ClaudeBot is disallowed (training opt-out) and Claude-SearchBot (search) shares ClaudeBot's group, so it is blocked too"]);
    assert.deepEqual(values('sitemap_blocked_for_crawler'), [`Bingbot: ${result.origin}/sitemap.xml`]);
    assert.match(values('llms_txt_invalid')[0]!, /line 1: The file must start with an H1.*line 3: A list item that is not a link/);
    assert.equal(result.findings.count('llms_txt_missing'), 0);
    const costs = new Set(result.breakdown.map((l) => l.check_id));
    assert.equal(costs.has('search_crawler_blocked_home'), false, 'blocking a crawler is the owner\'s policy');
    assert.ok(costs.has('ai_crawler_block_contradiction') && costs.has('llms_txt_invalid'));
    assert.equal(result.findings.count('search_engine_blocked_home'), 0, 'Bingbot may fetch the home page');
  });

  it('score a search engine blocked from the home page as an error: a staging robots.txt gone live, not a policy', async () => {
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' },
      '/': { body: cleanPage(o, '/') },
      '/sitemap.xml': sitemap(o, ['/']),
    }));
    assertFound(result, [['search_engine_blocked_home', '/robots.txt']]);
    assert.match(result.findings.byCheck.get('search_engine_blocked_home')![0]!.value!, /^Googlebot \(Google, search\)/);
    assert.equal(result.findings.count('search_crawler_blocked_home'), 0);
    assert.ok(result.breakdown.some((l) => l.check_id === 'search_engine_blocked_home'), 'it costs score');
  });

  it('report a robots.txt that does not answer once: crawlers treat the site as disallowed (RFC 9309), not one finding a crawler', async () => {
    const result = await audit((o) => ({
      '/robots.txt': { status: 503, body: 'Service Unavailable' },
      '/': { body: cleanPage(o, '/') },
      '/sitemap.xml': sitemap(o, ['/']),
    }));
    assertFound(result, [['robots_txt_unavailable', '/robots.txt']]);
    assert.equal(result.findings.byCheck.get('robots_txt_unavailable')![0]!.value, 'status 503');
    assert.ok(result.breakdown.some((l) => l.check_id === 'robots_txt_unavailable'), 'it costs score');
    for (const id of ['search_crawler_blocked_home', 'search_engine_blocked_home', 'ai_crawler_block_contradiction']) assert.equal(result.findings.count(id), 0, id);
  });

  it('leave a "*" group that blocks everything to robots_txt_blocks_all: one problem, scored once', async () => {
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
      '/': { body: cleanPage(o, '/') },
    }));
    assert.equal(result.findings.count('robots_txt_blocks_all'), 1);
    assert.equal(result.findings.count('search_engine_blocked_home'), 0);
  });

  it('never report a blocked training crawler by itself, and note a missing llms.txt without cost', async () => {
    const result = await audit((o) => ({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nDisallow: /\n' },
      '/': { body: cleanPage(o, '/') },
      '/sitemap.xml': sitemap(o, ['/']),
      '/llms.txt': { body: page() },
    }));
    assertFound(result, [['llms_txt_missing', '/llms.txt']]);
    assert.deepEqual([...result.findings.byCheck.keys()], ['llms_txt_missing'], 'a page served for /llms.txt is no llms.txt; the training opt-outs are no finding');
    assert.equal(result.score, 100);
  });
});

describe('what only JavaScript shows (a rendered page, raw against rendered)', () => {
  const snapshot = { title: 'Shop', meta_description: null, robots: null, canonical: null, h1: null, hreflang: 0, structured_data: [], internal_links: 0, words: 3 };
  const rendered = (rendering: Partial<PageRendering>): CrawledPage => ({
    url: 'https://spa.test/', depth: 0, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html', ttfbMs: 10,
    truncated: false, xRobotsTag: [], hsts: false, outlinks: new Int32Array(), images: [],
    rendering: {
      reason: 'template_sample', ms: 300, raw: snapshot, rendered: { ...snapshot, words: 400 }, changes: [], text_in_raw: 1,
      links_only_rendered: { count: 0, examples: [] }, links_without_href: [], requests: { made: 3, refused: 0, failed: 0, disallowed: [] }, ...rendering,
    },
  });
  const found = (page: CrawledPage) => {
    const findings = new Findings();
    checkRendering(page, findings);
    return Object.fromEntries([...findings.byCheck].map(([id, list]) => [id, list[0]!.value]));
  };

  it('reports content, links, directives and metadata only JavaScript makes, links without href and disallowed resources', () => {
    assert.deepEqual(found(rendered({
      text_in_raw: 0.12,
      links_only_rendered: { count: 3, examples: ['https://spa.test/shop'] },
      changes: [
        { field: 'robots', raw: null, rendered: 'noindex' },
        { field: 'title', raw: 'Shop', rendered: 'Ethiopia Guji Natural | Shop' },
      ],
      links_without_href: ['Careers'],
      requests: { made: 5, refused: 0, failed: 0, disallowed: ['https://spa.test/api/items'] },
    })), {
      content_only_after_javascript: '12% of the main text is in the HTML',
      links_only_after_javascript: '3 links, e.g. https://spa.test/shop',
      directive_changed_by_javascript: 'robots: (none) -> noindex',
      metadata_changed_by_javascript: 'title: Shop -> Ethiopia Guji Natural | Shop',
      links_without_href: '"Careers"',
      render_resources_disallowed: 'https://spa.test/api/items',
    });
    for (const id of ['content_only_after_javascript', 'links_only_after_javascript', 'directive_changed_by_javascript', 'metadata_changed_by_javascript', 'links_without_href', 'render_resources_disallowed']) covered.add(id);
  });

  it('finds nothing on a page whose HTML already has it all, nor on a short page JavaScript fills (under 50 words), nor on a raw page', () => {
    assert.deepEqual(found(rendered({})), {});
    assert.deepEqual(found(rendered({ text_in_raw: 0.1, rendered: { ...snapshot, words: 30 } })), {}, 'too little text to call missing');
    assert.deepEqual(found({ ...rendered({}), rendering: undefined }), {});
  });

  it('reports a failed render, and nothing else of it (the raw page was audited)', () => {
    assert.deepEqual(found(rendered({ error: 'the render took over 15000 ms', text_in_raw: null, changes: [{ field: 'title', raw: 'a', rendered: 'b' }] })), { render_failed: 'the render took over 15000 ms' });
    covered.add('render_failed');
  });
});

describe('Core Web Vitals (page-speed-checks.ts)', () => {
  const home = 'https://cwv.test/';
  const period = { first: '2026-10-31', last: '2026-11-27' };
  const lab = (over: Partial<LabResult> = {}): LabResult => ({
    url: home, final_url: home, lighthouse_version: '12.8.2', measured_at: '2026-12-07T07:00:00Z', score: 98,
    metrics: [{ id: 'lcp', value: 1200, rating: 'good' }, { id: 'cls', value: 0.01, rating: 'good' }, { id: 'tbt', value: 50, rating: 'good' }],
    lcp_element: { selector: 'h1', snippet: '<h1>', kind: 'text', image_url: null, fixes: [], phases: {} },
    images: [], render_blocking: [], unsized_images: [], opportunities: [], ...over,
  });
  const report = (pages: PageSpeedReport['pages'], origin: PageSpeedReport['field']['origin'] = null): PageSpeedReport =>
    ({ available: true, pages, field: { configured: true, origin }, refused: [], ms: 1 });
  const found = (r: PageSpeedReport) => {
    const findings = new Findings();
    checkPageSpeed(r, findings, home);
    for (const id of findings.byCheck.keys()) covered.add(id);
    return Object.fromEntries([...findings.byCheck].map(([id, list]) => [id, list.map((f) => `${f.url} ${f.value}`)]));
  };

  it('finds nothing on a fast page whose visitors pass, nor when nothing was measured', () => {
    const fieldGood = { scope: 'url' as const, key: home, form_factor: 'PHONE' as const, period, metrics: [{ id: 'lcp' as const, p75: 1900, rating: 'good' as const, good_share: 0.9 }] };
    assert.deepEqual(found(report([{ url: home, template: '/', pages_in_template: 1, lab: lab(), field: fieldGood }])), {});
    const findings = new Findings();
    checkPageSpeed(undefined, findings, home);
    assert.equal(findings.byCheck.size, 0);
  });

  it('reports a slow template: its LCP and element, shifts, a blocked main thread, a lazy LCP image, heavy images, blocking files', () => {
    const slow = lab({
      metrics: [{ id: 'lcp', value: 4300, rating: 'poor' }, { id: 'cls', value: 0.18, rating: 'needs_improvement' }, { id: 'tbt', value: 450, rating: 'needs_improvement' }],
      lcp_element: { selector: 'main > img', snippet: '<img>', kind: 'image', image_url: 'https://cwv.test/hero.jpg', fixes: ['remove_lazy_loading', 'preload'], phases: {} },
      images: [{ url: 'https://cwv.test/img/hero.jpg', selector: null, bytes: 900_000, savings_bytes: 700_000, natural: null, displayed: null, reasons: ['format'], serve: 'WebP or AVIF' }],
      render_blocking: [{ url: 'https://cwv.test/site.css', bytes: 30_000, ms: 640 }],
    });
    const url = 'https://cwv.test/p/1';
    assert.deepEqual(found(report([{ url, template: '/p/*', pages_in_template: 40, lab: slow, field: null }])), {
      slow_largest_contentful_paint: [`${url} 4.3 s, an image: main > img; template /p/*, 40 pages`],
      layout_shift_high: [`${url} 0.18; template /p/*, 40 pages`],
      lcp_image_lazy_loaded: [`${url} https://cwv.test/hero.jpg`],
      images_not_optimized: [`${url} 1 image, 700 KB could be saved, e.g. hero.jpg`],
      render_blocking_resources: [`${url} 1 file, up to 640 ms, e.g. site.css`],
    }, 'a TBT that needs improvement is no finding: only a poor one is');
    assert.deepEqual(found(report([{ url, template: '/p/*', pages_in_template: 1, lab: lab({ metrics: [{ id: 'tbt', value: 900, rating: 'poor' }] }), field: null }])), {
      main_thread_blocked: [`${url} 900 ms`],
    });
  });

  it("reports real visitors' failing vitals once for the whole site, and a page that could not be measured", () => {
    const origin = { scope: 'origin' as const, key: 'https://cwv.test', form_factor: 'PHONE' as const, period, metrics: [
      { id: 'lcp' as const, p75: 3100, rating: 'needs_improvement' as const, good_share: 0.6 }, { id: 'inp' as const, p75: 150, rating: 'good' as const, good_share: 0.9 },
      { id: 'ttfb' as const, p75: 2000, rating: 'poor' as const, good_share: 0.2 },
    ] };
    assert.deepEqual(found(report([{ url: home, template: '/', pages_in_template: 1, lab: null, error: 'NO_FCP: the page did not paint', field: null }], origin)), {
      page_speed_failed: [`${home} NO_FCP: the page did not paint`],
      field_core_web_vitals_failed: [`${home} Whole site: LCP 3.1 s (p75 of real visits on phones, 2026-10-31 to 2026-11-27)`],
    }, 'TTFB is no Core Web Vital: it does not fail the assessment');
  });
});

describe('the planted sites', () => {
  it('exercise every check in the catalogue', () => {
    assert.deepEqual(CHECKS.map((c) => c.id).filter((id) => !covered.has(id)), []);
  });
});

describe('findings', () => {
  it('keep every target of a per-target check, up to 200 a page, and count the page once', () => {
    const findings = new Findings();
    for (let i = 0; i < 250; i++) findings.add('broken_internal_links', 'https://x.test/', `https://x.test/gone-${i}`);
    findings.add('broken_internal_links', 'https://x.test/', 'https://x.test/gone-0');
    findings.add('title_too_short', 'https://x.test/', 'A');
    findings.add('title_too_short', 'https://x.test/', 'B');
    assert.equal(findings.byCheck.get('broken_internal_links')!.length, 200);
    assert.equal(findings.count('broken_internal_links'), 1);
    assert.deepEqual(findings.byCheck.get('title_too_short'), [{ url: 'https://x.test/', value: 'A' }], 'other checks keep one finding a page');
  });
});

describe('the health score', () => {
  const findingsWith = (counts: Record<string, number>) => {
    const findings = new Findings();
    for (const [id, n] of Object.entries(counts)) for (let i = 0; i < n; i++) findings.add(id, `https://x.test/${id}/${i}`);
    return findings;
  };

  it('is 100 for a clean site', () => {
    assert.equal(healthScore(new Findings(), 50).score, 100);
  });

  it('never drops when an issue is fixed', () => {
    const issues = { title_missing: 5, meta_description_missing: 12, page_4xx: 3, thin_content: 20, canonical_missing: 30 };
    const before = healthScore(findingsWith(issues), 100).score;
    for (const id of Object.keys(issues)) {
      for (const fixed of [1, (issues as Record<string, number>)[id]!]) {
        const after = healthScore(findingsWith({ ...issues, [id]: (issues as Record<string, number>)[id]! - fixed }), 100).score;
        assert.ok(after >= before, `fixing ${fixed} ${id}: ${before} -> ${after}`);
      }
    }
  });

  it('gives the same score for the same share on a small and a large site', () => {
    const small = healthScore(findingsWith({ title_missing: 1, thin_content: 3, page_5xx: 1 }), 10).score;
    const large = healthScore(findingsWith({ title_missing: 100, thin_content: 300, page_5xx: 100 }), 1000).score;
    assert.equal(small, large);
    assert.ok(small < 100);
  });

  it('is capped at 30 by a site-wide block', () => {
    for (const block of ['home_noindex', 'robots_txt_blocks_all']) {
      const result = healthScore(findingsWith({ [block]: 1 }), 100);
      assert.ok(result.score <= 30, block);
      assert.equal(result.capped, true);
    }
  });

  it('explains what each check cost', () => {
    const { breakdown } = healthScore(findingsWith({ page_5xx: 2, canonical_missing: 2 }), 4);
    assert.deepEqual(breakdown.map((l) => l.check_id), ['page_5xx', 'canonical_missing']);
    assert.equal(breakdown[0]!.share, 0.5);
    assert.ok(breakdown[0]!.cost > breakdown[1]!.cost);
  });

  it('has a catalogue of at least 45 checks with unique snake_case ids', () => {
    assert.ok(CHECKS.length >= 45);
    assert.equal(new Set(CHECKS.map((c) => c.id)).size, CHECKS.length);
    for (const check of CHECKS) assert.match(check.id, /^[a-z0-9]+(_[a-z0-9]+)*$/);
  });
});
