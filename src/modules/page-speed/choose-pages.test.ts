import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawledPage } from '../crawler/crawl.types.ts';
import { choosePages, TEMPLATE_RULES, templateOf } from './choose-pages.ts';

const ORIGIN = 'https://shop.example';

function page(path: string, extra: Partial<CrawledPage> & { robots?: string[]; canonical?: string } = {}): CrawledPage {
  const { robots = [], canonical, ...rest } = extra;
  return {
    url: `${ORIGIN}${path}`, depth: path.split('/').filter(Boolean).length, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html',
    ttfbMs: 10, truncated: false, xRobotsTag: [], hsts: false, outlinks: new Int32Array(), images: [],
    facts: { metaRobots: robots, canonicals: canonical ? [canonical] : [] } as never,
    ...rest,
  };
}

describe('templates: one page per URL shape', () => {
  it("each rule's example maps as it says, and its counter-example does not take the rule", () => {
    for (const rule of TEMPLATE_RULES) {
      const [path, expected] = rule.example.split(' -> ');
      const first = path!.split(', ')[0]!;
      const segments = new URL(first, ORIGIN).pathname.split('/').filter(Boolean);
      assert.notEqual(rule.key(segments), undefined, `${rule.id}: ${first}`);
      if (expected) assert.equal(templateOf(`${ORIGIN}${first}`), expected, rule.id);
      const counter = new URL(rule.counterExample, ORIGIN).pathname.split('/').filter(Boolean);
      assert.ok(rule.id === 'section' || rule.key(counter) === undefined, `${rule.id} lets ${rule.counterExample} through`);
    }
    assert.equal(templateOf(`${ORIGIN}/blog/2024/05/first-post?ref=x`), '/blog/*/*/*');
    assert.equal(templateOf(`${ORIGIN}/pt-br/produtos/cafe`), '/{lang}/produtos/*');
  });

  it('measures the home page first, then the largest templates, the most linked page of each, at most the limit', () => {
    const pages = [
      page('/'), page('/about'), page('/coffee/ethiopia'), page('/coffee/colombia'), page('/coffee/kenya'), page('/journal/brewing'),
    ];
    const urls = pages.map((p) => p.url);
    // Two pages link to Colombia, one to Ethiopia: Colombia stands for the coffee template.
    pages[0]!.outlinks = Int32Array.from([urls.indexOf(`${ORIGIN}/coffee/colombia`), urls.indexOf(`${ORIGIN}/coffee/ethiopia`)]);
    pages[1]!.outlinks = Int32Array.from([urls.indexOf(`${ORIGIN}/coffee/colombia`)]);
    const chosen = choosePages({ pages, urls, startUrl: `${ORIGIN}/` }, 3);
    assert.deepEqual(chosen.map((c) => [c.url.slice(ORIGIN.length), c.template, c.pages_in_template]), [
      ['/', '/', 1], ['/coffee/colombia', '/coffee/*', 3], ['/about', '/*', 1],
    ]);
    assert.deepEqual(choosePages({ pages, urls, startUrl: `${ORIGIN}/` }, 0), []);
  });

  it('leaves out what is not worth measuring: errors, noindex, a canonical elsewhere, robots.txt refusals, non-HTML', () => {
    const pages = [
      page('/'), page('/a/broken', { status: 404 }), page('/b/hidden', { robots: ['noindex, follow'] }), page('/c/copy', { canonical: `${ORIGIN}/c/original` }),
      page('/d/blocked', { blockedByRobots: true }), page('/e/file.pdf', { contentType: 'application/pdf' }), page('/f/self', { canonical: `${ORIGIN}/f/self` }),
    ];
    const chosen = choosePages({ pages, urls: pages.map((p) => p.url), startUrl: `${ORIGIN}/` }, 20);
    assert.deepEqual(chosen.map((c) => c.template), ['/', '/f/*']);
  });
});
