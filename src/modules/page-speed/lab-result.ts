import { rateVital, type VitalId, type VitalRating } from './vitals.ts';

/**
 * One page's Lighthouse run (mobile profile, simulated throttling) reduced to what the audit reports and the
 * improve_page_speed brief acts on: the metrics, and the concrete items behind them (these images, these
 * render-blocking files, the LCP element and how it is loaded). The full Lighthouse report (a megabyte or two) is not
 * kept.
 */
export interface LabResult {
  url: string;
  /** Where the page ended after redirects. */
  final_url: string;
  lighthouse_version: string;
  measured_at: string;
  /** Lighthouse's performance score, 0-100. */
  score: number;
  metrics: Array<{ id: VitalId | 'si'; value: number; rating: VitalRating | null }>;
  lcp_element: LcpElement | null;
  images: LabImage[];
  render_blocking: Array<{ url: string; bytes: number; ms: number }>;
  /** Images without width and height (each can shift the layout as it loads). */
  unsized_images: string[];
  /** Lighthouse's other opportunities with estimated savings, largest first. */
  opportunities: Array<{ id: string; title: string; savings_ms: number; savings_bytes: number }>;
}

export interface LcpElement {
  selector: string;
  snippet: string;
  kind: 'image' | 'text';
  /** The image's address, for an image LCP (from the request chain Lighthouse traced). */
  image_url: string | null;
  /** What the element's loading gets wrong: lazy-loaded, not discoverable in the HTML, no fetchpriority=high. */
  fixes: LcpFix[];
  /** Where its time went (Lighthouse's LCP phases), ms. */
  phases: Record<string, number>;
}
export type LcpFix = 'remove_lazy_loading' | 'preload' | 'fetchpriority_high';

export interface LabImage {
  url: string;
  selector: string | null;
  bytes: number;
  savings_bytes: number;
  natural: { width: number; height: number } | null;
  displayed: { width: number; height: number } | null;
  /** Why Lighthouse flags it: an older format, a larger file than its displayed size needs, weak compression, or off screen and not lazy. */
  reasons: Array<'format' | 'size' | 'compression' | 'offscreen'>;
  /** What to serve instead, in words: "WebP or AVIF, 760 x 506 px (twice its displayed size, for high-density screens)". */
  serve: string;
}

/** Below these, an item is noise in a brief: a few kilobytes of an image, a style sheet that blocks for 50 ms. */
export const ITEM_FLOOR = { imageBytes: 20_000, blockingMs: 100, opportunityMs: 100, opportunityBytes: 20_000 } as const;

const METRIC_AUDITS: ReadonlyArray<[VitalId | 'si', string]> = [
  ['lcp', 'largest-contentful-paint'], ['cls', 'cumulative-layout-shift'], ['tbt', 'total-blocking-time'],
  ['fcp', 'first-contentful-paint'], ['si', 'speed-index'], ['ttfb', 'server-response-time'],
];
/** Image audits and the reason each stands for. */
const IMAGE_AUDITS = [
  ['modern-image-formats', 'format'], ['uses-responsive-images', 'size'], ['uses-optimized-images', 'compression'], ['offscreen-images', 'offscreen'],
] as const;
/** Opportunities the brief lists as their own items: the rest are summarised. */
const ITEMISED = new Set(['modern-image-formats', 'uses-responsive-images', 'uses-optimized-images', 'offscreen-images', 'render-blocking-resources', 'prioritize-lcp-image']);
/** Lighthouse's own checklist labels in lcp-discovery-insight, to what the brief asks for. */
const DISCOVERY_FIXES: Record<string, LcpFix> = { eagerlyLoaded: 'remove_lazy_loading', requestDiscoverable: 'preload', priorityHinted: 'fetchpriority_high' };

/** The parts of Lighthouse's result (LH.Result) read here: loosely typed, as its audits' details vary by audit. */
interface Lhr {
  lighthouseVersion: string;
  requestedUrl?: string;
  finalDisplayedUrl?: string;
  fetchTime: string;
  categories: { performance?: { score: number | null } };
  audits: Record<string, { score: number | null; scoreDisplayMode?: string; numericValue?: number; details?: any } | undefined>;
}
interface ImageElement {
  src: string;
  displayedWidth: number;
  displayedHeight: number;
  naturalDimensions?: { width: number; height: number };
}

export function labResultOf(url: string, lhr: Lhr, imageElements: readonly ImageElement[] = []): LabResult {
  const audit = (id: string) => lhr.audits[id];
  const items = (id: string): any[] => (Array.isArray(audit(id)?.details?.items) ? audit(id)!.details.items : []);
  const metrics = METRIC_AUDITS.flatMap(([id, auditId]) => {
    const value = audit(auditId)?.numericValue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return [];
    const rounded = id === 'cls' ? Math.round(value * 1000) / 1000 : Math.round(value);
    return [{ id, value: rounded, rating: id === 'si' ? null : rateVital(id, rounded) }];
  });
  return {
    url,
    final_url: lhr.finalDisplayedUrl ?? url,
    lighthouse_version: lhr.lighthouseVersion,
    measured_at: lhr.fetchTime,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    metrics,
    lcp_element: lcpElementOf(audit, items),
    images: imagesOf(items, imageElements),
    render_blocking: items('render-blocking-resources')
      .filter((i) => typeof i.url === 'string' && (i.wastedMs ?? 0) >= ITEM_FLOOR.blockingMs)
      .map((i) => ({ url: i.url as string, bytes: Math.round(i.totalBytes ?? 0), ms: Math.round(i.wastedMs ?? 0) })),
    unsized_images: [...new Set(items('unsized-images').map((i) => i.url).filter((u): u is string => typeof u === 'string'))],
    opportunities: Object.entries(lhr.audits)
      .flatMap(([id, a]) => {
        if (!a || a.details?.type !== 'opportunity' || ITEMISED.has(id) || (a.score ?? 1) >= 0.9) return [];
        const savingsMs = Math.round(a.details.overallSavingsMs ?? 0);
        const savingsBytes = Math.round(a.details.overallSavingsBytes ?? 0);
        if (savingsMs < ITEM_FLOOR.opportunityMs && savingsBytes < ITEM_FLOOR.opportunityBytes) return [];
        return [{ id, title: String((a as { title?: string }).title ?? id), savings_ms: savingsMs, savings_bytes: savingsBytes }];
      })
      .sort((a, b) => b.savings_ms - a.savings_ms || b.savings_bytes - a.savings_bytes),
  };
}

function lcpElementOf(audit: (id: string) => Lhr['audits'][string], items: (id: string) => any[]): LcpElement | null {
  // largest-contentful-paint-element: a list of two tables, the element, then its phases.
  const [elementTable, phaseTable] = items('largest-contentful-paint-element');
  const node = elementTable?.items?.[0]?.node;
  if (!node?.selector) return null;
  const phases: Record<string, number> = {};
  for (const row of phaseTable?.items ?? []) if (typeof row.phase === 'string') phases[row.phase] = Math.round(row.timing ?? 0);
  // A text LCP has no resource: its load phases are zero.
  const isImage = /^<(img|image|video|svg)\b/i.test(node.snippet ?? '') || (phases['Load Time'] ?? 0) > 0;
  // lcp-discovery-insight: a list whose first item is Lighthouse's checklist for an image LCP.
  const checklist = items('lcp-discovery-insight').find((i) => i?.type === 'checklist')?.items ?? {};
  const fixes = Object.entries(DISCOVERY_FIXES).flatMap(([key, fix]) => (checklist[key]?.value === false ? [fix] : []));
  if (audit('lcp-lazy-loaded')?.score === 0 && !fixes.includes('remove_lazy_loading')) fixes.unshift('remove_lazy_loading');
  if (items('prioritize-lcp-image').length > 0 && !fixes.includes('preload')) fixes.push('preload');
  const chain = audit('prioritize-lcp-image')?.details?.debugData?.initiatorPath;
  const imageUrl = items('prioritize-lcp-image')[0]?.url ?? (Array.isArray(chain) ? chain[0]?.url : undefined) ?? srcOf(node.snippet);
  return {
    selector: String(node.selector),
    snippet: String(node.snippet ?? '').slice(0, 300),
    kind: isImage ? 'image' : 'text',
    image_url: isImage && typeof imageUrl === 'string' ? imageUrl : null,
    fixes: isImage ? fixes : [],
    phases,
  };
}

/** The src of an <img> snippet, as written (relative addresses stay relative). */
const srcOf = (snippet: string | undefined) => /\bsrc="([^"]+)"/.exec(snippet ?? '')?.[1];

function imagesOf(items: (id: string) => any[], elements: readonly ImageElement[]): LabImage[] {
  const byUrl = new Map<string, LabImage>();
  for (const [auditId, reason] of IMAGE_AUDITS) {
    for (const item of items(auditId)) {
      if (typeof item.url !== 'string' || item.url.startsWith('data:')) continue;
      const image = byUrl.get(item.url) ?? {
        url: item.url, selector: item.node?.selector ?? null, bytes: Math.round(item.totalBytes ?? 0), savings_bytes: 0,
        natural: null, displayed: null, reasons: [] as LabImage['reasons'], serve: '',
      };
      image.reasons.push(reason);
      // The audits overlap (a smaller WebP is also a resized one): the largest single estimate, not their sum.
      image.savings_bytes = Math.max(image.savings_bytes, Math.round(item.wastedBytes ?? 0));
      byUrl.set(item.url, image);
    }
  }
  return [...byUrl.values()]
    .filter((image) => image.savings_bytes >= ITEM_FLOOR.imageBytes)
    .map((image) => {
      const element = elements.find((e) => e.src === image.url);
      const natural = element?.naturalDimensions?.width ? element.naturalDimensions : null;
      const displayed = element && element.displayedWidth > 0 ? { width: Math.round(element.displayedWidth), height: Math.round(element.displayedHeight) } : null;
      return { ...image, natural, displayed, serve: serveAdvice(image.reasons, natural, displayed) };
    })
    .sort((a, b) => b.savings_bytes - a.savings_bytes);
}

/** Twice the displayed size covers high-density phone screens (Lighthouse's mobile profile is 1.75x); never larger than the file is. */
function serveAdvice(reasons: LabImage['reasons'], natural: LabImage['natural'], displayed: LabImage['displayed']): string {
  const parts: string[] = [];
  if (reasons.includes('format')) parts.push('WebP or AVIF');
  else if (reasons.includes('compression')) parts.push('the same format, compressed (JPEG quality about 80)');
  if (reasons.includes('size') && displayed) {
    const width = Math.min(displayed.width * 2, natural?.width ?? Infinity);
    const height = Math.min(displayed.height * 2, natural?.height ?? Infinity);
    parts.push(`${width} x ${height} px (twice its displayed ${displayed.width} x ${displayed.height}, for high-density screens; use srcset for other widths)`);
  }
  if (reasons.includes('offscreen')) parts.push('loaded lazily (loading="lazy"): it is below the first screen');
  return parts.join(', ');
}
