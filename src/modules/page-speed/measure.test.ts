import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawledPage } from '../crawler/crawl.types.ts';
import { Findings } from '../checks/findings.ts';
import { checkPageSpeed } from '../checks/page-speed-checks.ts';
import type { LabResult } from './lab-result.ts';
import type { LabRunner } from './lab-runner.ts';
import { CHROMIUM_MISSING_FOR_LAB, LAB_TURNED_OFF, measurePageSpeed } from './measure.ts';

const ORIGIN = 'https://shop.example';
const page = (path: string): CrawledPage => ({
  url: `${ORIGIN}${path}`, depth: 1, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html', ttfbMs: 1, truncated: false,
  xRobotsTag: [], hsts: true, outlinks: new Int32Array(), images: [], facts: { metaRobots: [], canonicals: [] } as never,
});
const crawl = { pages: [page('/'), page('/coffee/a'), page('/coffee/b')], urls: [], startUrl: `${ORIGIN}/` };

const lab = (url: string, lcpMs: number): LabResult => ({
  url, final_url: url, lighthouse_version: '12.8.2', measured_at: '2026-12-07T07:00:00Z', score: 50,
  metrics: [{ id: 'lcp', value: lcpMs, rating: lcpMs > 4000 ? 'poor' : lcpMs > 2500 ? 'needs_improvement' : 'good' }, { id: 'tbt', value: 900, rating: 'poor' }],
  lcp_element: { selector: 'main > img', snippet: '<img>', kind: 'image', image_url: `${ORIGIN}/hero.jpg`, fixes: ['remove_lazy_loading'], phases: {} },
  images: [], render_blocking: [], unsized_images: [], opportunities: [],
});

/** A stand-in for Lighthouse's browser: each URL's result or error, as the runner reports them. */
const fakeRunner = (results: Record<string, LabResult | string>) => async (): Promise<LabRunner> => ({
  refused: ['10.0.0.1:443'],
  async run(url) {
    const result = results[url]!;
    return typeof result === 'string' ? { url, error: result } : result;
  },
  async close() {},
});

describe('measuring an audit\'s pages', () => {
  it('records each page\'s result or why Lighthouse could not measure it; the findings name the template', async () => {
    const report = await measurePageSpeed(crawl, {
      chromiumPath: '/usr/bin/chromium', allowPrivate: false, maxPages: 20,
      startRunner: fakeRunner({ [`${ORIGIN}/`]: 'NO_FCP: The page did not paint any content', [`${ORIGIN}/coffee/a`]: lab(`${ORIGIN}/coffee/a`, 4800) }),
    });
    assert.ok(report);
    assert.deepEqual([report.available, report.refused, report.field], [true, ['10.0.0.1:443'], { configured: false, origin: null }]);
    assert.deepEqual(report.pages.map((p) => [p.url.slice(ORIGIN.length), p.error ?? null, p.lab?.score ?? null]), [
      ['/', 'NO_FCP: The page did not paint any content', null], ['/coffee/a', null, 50],
    ]);
    const findings = new Findings();
    checkPageSpeed(report, findings, `${ORIGIN}/`);
    const found = Object.fromEntries([...findings.byCheck].map(([id, list]) => [id, list.map((f) => f.value)]));
    assert.deepEqual(found, {
      page_speed_failed: ['NO_FCP: The page did not paint any content'],
      slow_largest_contentful_paint: ['4.8 s, an image: main > img; template /coffee/*, 2 pages'],
      main_thread_blocked: ['900 ms; template /coffee/*, 2 pages'],
      lcp_image_lazy_loaded: [`${ORIGIN}/hero.jpg`],
    });
  });

  it('says why nothing was measured: no Chromium, a browser that would not start, the lab turned off', async () => {
    const missing = await measurePageSpeed(crawl, { chromiumPath: undefined, allowPrivate: false, maxPages: 20 });
    assert.deepEqual([missing?.available, missing?.unavailable, missing?.pages.every((p) => p.lab === null)], [false, CHROMIUM_MISSING_FOR_LAB, true]);
    const broken = await measurePageSpeed(crawl, {
      chromiumPath: '/nowhere/chromium', allowPrivate: false, maxPages: 20, startRunner: async () => { throw new Error('spawn /nowhere/chromium ENOENT'); },
    });
    assert.deepEqual([broken?.available, broken?.unavailable], [false, 'Lighthouse could not start Chromium: spawn /nowhere/chromium ENOENT']);
    assert.equal(await measurePageSpeed(crawl, { chromiumPath: '/usr/bin/chromium', allowPrivate: false, maxPages: 0 }), undefined);
    const fieldOnly = await measurePageSpeed(crawl, {
      chromiumPath: '/usr/bin/chromium', allowPrivate: false, maxPages: 0, crux: { query: async () => null, close: async () => {} } as never,
      startRunner: async () => assert.fail('the lab is off'),
    });
    assert.deepEqual([fieldOnly?.available, fieldOnly?.unavailable, fieldOnly?.field.configured, fieldOnly?.pages.length], [false, LAB_TURNED_OFF, true, 2]);
  });
});
