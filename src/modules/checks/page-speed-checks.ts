import type { FieldData } from '../page-speed/crux-client.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';
import { formatVital, type VitalId } from '../page-speed/vitals.ts';
import type { Findings } from './findings.ts';

/** The three Core Web Vitals: a page passes Google's assessment when all three are good at the 75th percentile. */
const CORE: readonly VitalId[] = ['lcp', 'inp', 'cls'];
const VITAL_NAMES: Record<string, string> = { lcp: 'LCP', inp: 'INP', cls: 'CLS', tbt: 'TBT' };

const kb = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.round(bytes / 1000)} KB`);
const fileName = (url: string) => new URL(url).pathname.split('/').filter(Boolean).pop() ?? url;

/** "LCP 3.1 s, INP 240 ms (p75 of real visits on phones, 2026-10-31 to 2026-11-27)": the vitals that are not good. */
function failingField(field: FieldData): string | undefined {
  const failing = field.metrics.filter((m) => CORE.includes(m.id) && m.rating !== 'good');
  if (failing.length === 0) return undefined;
  return `${failing.map((m) => `${VITAL_NAMES[m.id]} ${formatVital(m.id, m.p75)}`).join(', ')} (p75 of real visits on phones, ${field.period.first} to ${field.period.last})`;
}

/**
 * Core Web Vitals findings from the audit's Lighthouse runs (one page per template; the value names the template, as
 * a slow template is slow on every page built from it) and from the Chrome UX Report.
 */
export function checkPageSpeed(report: PageSpeedReport | undefined, findings: Findings, homeUrl: string) {
  if (!report) return;
  for (const page of report.pages) {
    const { url, lab } = page;
    if (page.error !== undefined) findings.add('page_speed_failed', url, page.error);
    if (page.field) {
      const failing = failingField(page.field);
      if (failing) findings.add('field_core_web_vitals_failed', url, failing);
    }
    if (!lab) continue;
    const template = page.pages_in_template > 1 ? `; template ${page.template}, ${page.pages_in_template} pages` : '';
    const metric = (id: VitalId) => lab.metrics.find((m) => m.id === id);
    const lcp = metric('lcp');
    if (lcp && lcp.rating !== 'good') {
      const element = lab.lcp_element ? `, ${lab.lcp_element.kind === 'image' ? 'an image' : 'text'}: ${lab.lcp_element.selector}` : '';
      findings.add('slow_largest_contentful_paint', url, `${formatVital('lcp', lcp.value)}${element}${template}`);
    }
    const cls = metric('cls');
    if (cls && cls.rating !== 'good') findings.add('layout_shift_high', url, `${formatVital('cls', cls.value)}${template}`);
    const tbt = metric('tbt');
    if (tbt && tbt.rating === 'poor') findings.add('main_thread_blocked', url, `${formatVital('tbt', tbt.value)}${template}`);
    if (lab.lcp_element?.fixes.includes('remove_lazy_loading')) findings.add('lcp_image_lazy_loaded', url, lab.lcp_element.image_url ?? lab.lcp_element.selector);
    if (lab.images.length > 0) {
      const saved = lab.images.reduce((sum, image) => sum + image.savings_bytes, 0);
      findings.add('images_not_optimized', url, `${lab.images.length} image${lab.images.length === 1 ? '' : 's'}, ${kb(saved)} could be saved, e.g. ${fileName(lab.images[0]!.url)}`);
    }
    if (lab.render_blocking.length > 0) {
      const ms = Math.max(...lab.render_blocking.map((r) => r.ms));
      findings.add('render_blocking_resources', url, `${lab.render_blocking.length} file${lab.render_blocking.length === 1 ? '' : 's'}, up to ${ms} ms, e.g. ${fileName(lab.render_blocking[0]!.url)}`);
    }
  }
  // The origin's field data stands for every page: reported once, on the home page, unless that page has its own.
  const origin = report.field.origin && failingField(report.field.origin);
  if (origin && !report.pages.some((p) => p.url === homeUrl && p.field)) findings.add('field_core_web_vitals_failed', homeUrl, `Whole site: ${origin}`);
}
