// A stored Core Web Vitals report (audits.page_speed) as an audit of a small shop leaves it: Lighthouse takes seconds a
// page, so the browser test reads this one. Shaped by the types the audit writes (measure.ts, lab-result.ts,
// crux-client.ts); the API adds the display strings and each field's pass, as it does for a real audit.
import type { FieldData } from '../../src/modules/page-speed/crux-client.ts';
import type { LabResult } from '../../src/modules/page-speed/lab-result.ts';
import { CHROMIUM_MISSING_FOR_LAB, LAB_TURNED_OFF, type PageSpeedReport } from '../../src/modules/page-speed/measure.ts';

const period = { first: '2026-11-09', last: '2026-12-06' };
const field = (scope: FieldData['scope'], key: string, metrics: FieldData['metrics']): FieldData => ({ scope, key, form_factor: 'PHONE', period, metrics });

function lab(url: string, score: number, vitals: Array<[LabResult['metrics'][number]['id'], number, LabResult['metrics'][number]['rating']]>, rest: Partial<LabResult> = {}): LabResult {
  return {
    url, final_url: url, lighthouse_version: '12.8.2', measured_at: '2026-12-07T07:12:00Z', score,
    metrics: vitals.map(([id, value, rating]) => ({ id, value, rating })),
    lcp_element: null, images: [], render_blocking: [], unsized_images: [], opportunities: [], ...rest,
  };
}

export function pageSpeedReport(origin: string): PageSpeedReport {
  const home = `${origin}/`;
  return {
    available: true,
    ms: 74_300,
    refused: ['10.0.0.12:443'],
    field: {
      configured: true,
      origin: field('origin', origin, [
        { id: 'lcp', p75: 3100, rating: 'needs_improvement', good_share: 0.62 }, { id: 'inp', p75: 180, rating: 'good', good_share: 0.81 },
        { id: 'cls', p75: 0.05, rating: 'good', good_share: 0.9 }, { id: 'fcp', p75: 1900, rating: 'needs_improvement', good_share: 0.7 },
      ]),
    },
    pages: [
      {
        url: home, template: '/', pages_in_template: 1,
        field: field('url', home, [
          { id: 'lcp', p75: 3400, rating: 'needs_improvement', good_share: 0.55 }, { id: 'inp', p75: 240, rating: 'needs_improvement', good_share: 0.7 },
          { id: 'cls', p75: 0.04, rating: 'good', good_share: 0.92 }, { id: 'ttfb', p75: 900, rating: 'needs_improvement', good_share: 0.6 },
        ]),
        lab: lab(home, 38, [['lcp', 5240, 'poor'], ['cls', 0.02, 'good'], ['tbt', 420, 'needs_improvement'], ['fcp', 2100, 'needs_improvement'], ['si', 4300, null], ['ttfb', 180, 'good']], {
          lcp_element: {
            selector: 'main > section.hero > img.hero-image', kind: 'image', image_url: `${origin}/img/hero-espresso.jpg`,
            snippet: '<img class="hero-image" src="/img/hero-espresso.jpg" alt="Espresso poured into a cup" loading="lazy">',
            fixes: ['remove_lazy_loading', 'fetchpriority_high'], phases: { TTFB: 180, 'Load Delay': 2900, 'Load Time': 1640, 'Render Delay': 520 },
          },
          images: [
            {
              url: `${origin}/img/hero-espresso.jpg`, selector: 'main > section.hero > img.hero-image', bytes: 1_240_000, savings_bytes: 1_050_000,
              natural: { width: 2400, height: 1600 }, displayed: { width: 360, height: 240 }, reasons: ['format', 'size'],
              serve: 'WebP or AVIF, 720 x 480 px (twice its displayed 360 x 240, for high-density screens; use srcset for other widths)',
            },
            {
              url: `${origin}/img/beans-banner.png`, selector: 'footer > img', bytes: 420_000, savings_bytes: 310_000,
              natural: { width: 1600, height: 400 }, displayed: { width: 360, height: 90 }, reasons: ['format', 'offscreen'],
              serve: 'WebP or AVIF, loaded lazily (loading="lazy"): it is below the first screen',
            },
          ],
          render_blocking: [{ url: `${origin}/css/theme.css`, bytes: 86_000, ms: 740 }, { url: 'https://fonts.googleapis.com/css2?family=Lora:wght@400;700', bytes: 1_200, ms: 310 }],
          unsized_images: [`${origin}/img/hero-espresso.jpg`],
          opportunities: [
            { id: 'unused-javascript', title: 'Reduce unused JavaScript', savings_ms: 1350, savings_bytes: 182_000 },
            { id: 'unminified-css', title: 'Minify CSS', savings_ms: 150, savings_bytes: 24_000 },
          ],
        }),
      },
      {
        url: `${origin}/coffee/ethiopia-yirgacheffe`, template: '/coffee/*', pages_in_template: 24, field: null,
        lab: lab(`${origin}/coffee/ethiopia-yirgacheffe`, 92, [['lcp', 2100, 'good'], ['cls', 0.03, 'good'], ['tbt', 90, 'good'], ['fcp', 1500, 'good'], ['si', 2300, null], ['ttfb', 160, 'good']], {
          lcp_element: { selector: 'main > h1.product-title', kind: 'text', image_url: null, snippet: '<h1 class="product-title">', fixes: [], phases: { TTFB: 160, 'Render Delay': 940 } },
        }),
      },
      {
        url: `${origin}/blog/how-to-make-cold-brew-at-home`, template: '/blog/*', pages_in_template: 58, field: null,
        lab: lab(`${origin}/blog/how-to-make-cold-brew-at-home`, 71, [['lcp', 2900, 'needs_improvement'], ['cls', 0.18, 'needs_improvement'], ['tbt', 150, 'good'], ['fcp', 1700, 'good']], {
          lcp_element: {
            selector: 'article > figure > img', kind: 'image', image_url: `${origin}/img/cold-brew.jpg`, snippet: '<img src="/img/cold-brew.jpg" alt="Cold brew in a jar">',
            fixes: ['preload'], phases: { TTFB: 170, 'Load Delay': 1100, 'Load Time': 900, 'Render Delay': 200 },
          },
          unsized_images: [`${origin}/img/cold-brew.jpg`, `${origin}/img/author.jpg`],
        }),
      },
      { url: `${origin}/wholesale`, template: '/*', pages_in_template: 6, field: null, lab: null, error: 'NO_FCP: The page did not paint any content' },
    ],
  };
}

/** An audit on a server without Chromium and without a Chrome UX Report key: the pages chosen, none measured. */
export function unavailableReport(origin: string): PageSpeedReport {
  return {
    available: false, unavailable: CHROMIUM_MISSING_FOR_LAB, ms: 12, refused: [], field: { configured: false, origin: null },
    pages: [{ url: `${origin}/`, template: '/', pages_in_template: 1, lab: null, field: null }],
  };
}

/** Lighthouse turned off (PAGE_SPEED_PAGES=0) and a Chrome UX Report key: real visits only, the home page's among them. */
export function fieldOnlyReport(origin: string): PageSpeedReport {
  const full = pageSpeedReport(origin);
  return { ...full, available: false, unavailable: LAB_TURNED_OFF, refused: [], pages: full.pages.map((p) => ({ ...p, lab: null, error: undefined })) };
}
