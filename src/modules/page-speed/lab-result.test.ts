import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labResultOf } from './lab-result.ts';

const node = (selector: string, snippet: string) => ({ type: 'node', selector, snippet });
const HERO = 'https://shop.example/img/hero.jpg';

/** The parts of a Lighthouse 12 result (LH.Result) the reduction reads, in their real shapes. */
function lhr(audits: Record<string, unknown>) {
  return { lighthouseVersion: '12.8.2', finalDisplayedUrl: 'https://shop.example/', fetchTime: '2026-12-07T07:00:00.000Z', categories: { performance: { score: 0.42 } }, audits: audits as never };
}
const metrics = {
  'largest-contentful-paint': { score: 0.2, numericValue: 4321.7 },
  'cumulative-layout-shift': { score: 0.6, numericValue: 0.14234 },
  'total-blocking-time': { score: 0.1, numericValue: 812.2 },
};

describe('a Lighthouse result reduced to what the brief acts on', () => {
  it('keeps the metrics rated, the LCP image and what its loading gets wrong, the heavy images with what to serve, the blocking files', () => {
    const result = labResultOf('https://shop.example/', lhr({
      ...metrics,
      'largest-contentful-paint-element': { score: 0, details: { type: 'list', items: [
        { type: 'table', items: [{ node: node('main > img.hero', `<img src="/img/hero.jpg" loading="lazy">`) }] },
        { type: 'table', items: [{ phase: 'TTFB', timing: 400.4 }, { phase: 'Load Delay', timing: 2000 }, { phase: 'Load Time', timing: 900 }, { phase: 'Render Delay', timing: 100 }] },
      ] } },
      'lcp-discovery-insight': { score: 0, details: { type: 'list', items: [{ type: 'checklist', items: { priorityHinted: { value: false }, requestDiscoverable: { value: true }, eagerlyLoaded: { value: false } } }] } },
      'prioritize-lcp-image': { score: 1, details: { type: 'opportunity', items: [], debugData: { initiatorPath: [{ url: HERO }] } } },
      'uses-responsive-images': { score: 0, details: { type: 'opportunity', items: [{ url: HERO, node: node('main > img.hero', ''), totalBytes: 900_000, wastedBytes: 700_000 }] } },
      'modern-image-formats': { score: 0, details: { type: 'opportunity', items: [
        { url: HERO, totalBytes: 900_000, wastedBytes: 500_000 }, { url: 'https://shop.example/img/icon.png', totalBytes: 12_000, wastedBytes: 6_000 },
      ] } },
      'render-blocking-resources': { score: 0, details: { type: 'opportunity', items: [{ url: 'https://shop.example/site.css', totalBytes: 30_000, wastedMs: 640 }, { url: 'https://shop.example/tiny.css', totalBytes: 300, wastedMs: 20 }] } },
      'unused-javascript': { score: 0.3, title: 'Reduce unused JavaScript', details: { type: 'opportunity', items: [{}], overallSavingsMs: 450, overallSavingsBytes: 180_000 } },
      'uses-text-compression': { score: 1, title: 'Enable text compression', details: { type: 'opportunity', items: [], overallSavingsMs: 0 } },
    }), [{ src: HERO, displayedWidth: 380, displayedHeight: 253, naturalDimensions: { width: 2400, height: 1600 } }]);

    assert.equal(result.score, 42);
    assert.deepEqual(result.metrics.map((m) => [m.id, m.value, m.rating]), [['lcp', 4322, 'poor'], ['cls', 0.142, 'needs_improvement'], ['tbt', 812, 'poor']]);
    assert.deepEqual(result.lcp_element && [result.lcp_element.kind, result.lcp_element.image_url, result.lcp_element.fixes], ['image', HERO, ['remove_lazy_loading', 'fetchpriority_high']]);
    assert.deepEqual(result.lcp_element?.phases, { TTFB: 400, 'Load Delay': 2000, 'Load Time': 900, 'Render Delay': 100 });
    // One entry per image, its largest estimate (the audits overlap), the small icon left out as noise.
    assert.equal(result.images.length, 1);
    assert.deepEqual([result.images[0]!.savings_bytes, result.images[0]!.reasons], [700_000, ['format', 'size']]);
    assert.equal(result.images[0]!.serve, 'WebP or AVIF, 760 x 506 px (twice its displayed 380 x 253, for high-density screens; use srcset for other widths)');
    assert.deepEqual(result.render_blocking, [{ url: 'https://shop.example/site.css', bytes: 30_000, ms: 640 }]);
    assert.deepEqual(result.opportunities, [{ id: 'unused-javascript', title: 'Reduce unused JavaScript', savings_ms: 450, savings_bytes: 180_000 }]);
  });

  it('calls a paragraph LCP text, with nothing to fix in its loading', () => {
    const result = labResultOf('https://shop.example/about', lhr({
      ...metrics,
      'largest-contentful-paint-element': { score: 0, details: { type: 'list', items: [
        { type: 'table', items: [{ node: node('main > p', '<p>') }] },
        { type: 'table', items: [{ phase: 'TTFB', timing: 400 }, { phase: 'Load Delay', timing: 0 }, { phase: 'Load Time', timing: 0 }, { phase: 'Render Delay', timing: 300 }] },
      ] } },
      'lcp-discovery-insight': { score: null, details: undefined },
    }));
    assert.deepEqual(result.lcp_element && [result.lcp_element.kind, result.lcp_element.image_url, result.lcp_element.fixes], ['text', null, []]);
    assert.deepEqual([result.images, result.render_blocking, result.opportunities], [[], [], []]);
  });
});
