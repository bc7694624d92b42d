import type { LabResult } from '../../page-speed/lab-result.ts';
import type { PageSpeedPage } from '../../page-speed/measure.ts';
import { formatVital } from '../../page-speed/vitals.ts';
import type { SpeedItem } from '../../task-types/types/page-speed.ts';
import { priorityOf } from '../proposal.ts';
import type { Planner } from './planner.ts';

const TYPE = 'improve_page_speed';
/** The lab findings a brief answers (field data says that real visits are slow; the lab says what to change). */
const CHECKS = ['slow_largest_contentful_paint', 'layout_shift_high', 'main_thread_blocked', 'lcp_image_lazy_loaded', 'images_not_optimized', 'render_blocking_resources'];
/** Items of each kind a brief lists: the largest savings first; more would bury them. */
const PER_KIND = 8;

const kb = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.round(bytes / 1000)} KB`);
const fileOf = (url: string) => {
  try {
    return new URL(url).pathname.split('/').filter(Boolean).pop() ?? url;
  } catch {
    return url;
  }
};

/** Lighthouse's words for what the LCP element's loading gets wrong, as a developer's change. */
const LCP_FIXES: Record<string, string> = {
  remove_lazy_loading: 'remove loading="lazy" from it',
  fetchpriority_high: 'add fetchpriority="high" to it',
  preload: 'make it discoverable in the HTML (an <img> in the markup, or <link rel="preload" as="image"> in the head) instead of found late by a script or style sheet',
};

const HOW = [
  'Make these changes in the template, then check the page in Lighthouse (Chrome DevTools, mobile) or PageSpeed Insights:',
  '- Images: serve WebP or AVIF at about twice the displayed size (srcset and sizes for other screens), and give every <img> its width and height.',
  '- The largest element (LCP): an image in the HTML itself, loaded eagerly with fetchpriority="high"; never lazy-loaded, never set by a script.',
  '- Render-blocking files: inline the CSS the first screen needs and load the rest without blocking (media="print" onload="this.media=\'all\'"); add defer to scripts in the head.',
  '- Main thread: load less JavaScript up front (split bundles, defer third-party tags), so the page answers taps sooner.',
  'Verification runs Lighthouse on this page again and checks each listed item is gone.',
].join('\n');

/** The brief's items from one page's Lighthouse run: each change with what it saves. */
export function speedItemsOf(lab: LabResult): SpeedItem[] {
  const items: SpeedItem[] = [];
  const lcp = lab.lcp_element;
  if (lcp && lcp.kind === 'image' && lcp.fixes.length > 0) {
    const name = lcp.image_url ? fileOf(lcp.image_url) : lcp.selector;
    items.push({
      kind: 'lcp_loading', ...(lcp.image_url ? { url: lcp.image_url } : {}), selector: lcp.selector, fixes: [...lcp.fixes],
      what: `The largest element is the image ${name} (${lcp.selector}): ${lcp.fixes.map((f) => LCP_FIXES[f]).join('; ')}.`,
    });
  }
  for (const image of lab.images.slice(0, PER_KIND)) {
    const size = image.natural && image.displayed ? ` (${image.natural.width} x ${image.natural.height} px shown at ${image.displayed.width} x ${image.displayed.height})` : '';
    items.push({
      kind: 'image', url: image.url, ...(image.selector ? { selector: image.selector } : {}), savings_bytes: image.savings_bytes,
      what: `Serve ${fileOf(image.url)}${size} as ${image.serve}: it weighs ${kb(image.bytes)}, of which about ${kb(image.savings_bytes)} can be saved.`,
    });
  }
  for (const file of lab.render_blocking.slice(0, PER_KIND)) {
    const script = /\.m?js(\?|$)/i.test(file.url);
    items.push({
      kind: 'render_blocking', url: file.url, savings_ms: file.ms,
      what: `${fileOf(file.url)} blocks the first paint for about ${file.ms} ms: ${script ? 'add defer (or async) to its <script> tag' : 'inline the rules the first screen needs and load the rest without blocking'}.`,
    });
  }
  for (const url of lab.unsized_images.slice(0, PER_KIND)) {
    items.push({ kind: 'unsized_image', url, what: `Give ${fileOf(url)} width and height attributes (or a CSS aspect-ratio), so that the page does not shift as it loads.` });
  }
  for (const o of lab.opportunities.slice(0, PER_KIND)) {
    const saves = [o.savings_ms > 0 ? `${o.savings_ms} ms` : '', o.savings_bytes > 0 ? kb(o.savings_bytes) : ''].filter(Boolean).join(', ');
    items.push({ kind: 'opportunity', id: o.id, savings_ms: o.savings_ms, savings_bytes: o.savings_bytes, what: `${o.title} (Lighthouse estimates ${saves} to save).` });
  }
  return items;
}

const metric = (lab: LabResult, id: 'lcp' | 'cls' | 'tbt') => {
  const m = lab.metrics.find((x) => x.id === id);
  return m ? formatVital(id, m.value) : undefined;
};

const nameOf = (page: PageSpeedPage) => (page.template === '/' ? 'the home page' : page.pages_in_template > 1 ? `the ${page.template} pages` : new URL(page.url).pathname);

/** One brief per slow template: the page Lighthouse measured, what to change on it, each change checked in a new run. */
export const pageSpeedPlanner: Planner = {
  checks: CHECKS,
  async plan(ctx) {
    const byUrl = ctx.byUrl(CHECKS);
    if (byUrl.size === 0) return;
    const report = await ctx.pageSpeed();
    if (!report) return;
    const covered = ctx.covered(TYPE);
    for (const page of report.pages) {
      const findings = byUrl.get(page.url);
      if (!findings || !page.lab || covered.has(page.url)) continue;
      const lab = page.lab;
      const items = speedItemsOf(lab);
      if (items.length === 0) {
        await ctx.reject(TYPE, page.url, 'Lighthouse found the page slow, but named no image, file or loading change to make (its time goes to the server or to scripts running): a developer must profile it');
        continue;
      }
      const lcp = metric(lab, 'lcp');
      const measured = { score: lab.score, ...(lcp ? { lcp } : {}), ...(metric(lab, 'cls') ? { cls: metric(lab, 'cls') } : {}), ...(metric(lab, 'tbt') ? { tbt: metric(lab, 'tbt') } : {}) };
      const where = page.pages_in_template > 1 ? ` The same template serves ${page.pages_in_template} pages of the crawl (${page.template}): the changes speed up all of them.` : '';
      await ctx.propose({
        type: TYPE, category: 'technical',
        priority: priorityOf(findings.map((f) => f.check_id), page.pages_in_template),
        title: `Speed up ${nameOf(page)} on phones (performance ${lab.score}/100${lcp ? `, LCP ${lcp}` : ''})`,
        description: `Lighthouse (mobile) scores ${page.url} ${lab.score}/100${lcp ? ` with its largest element shown after ${lcp}` : ''}. This brief lists ${items.length} change${items.length === 1 ? '' : 's'}: the images to serve smaller, the files that block the first paint, and how the largest element loads.${where}`,
        target: page.url,
        configuration: { url: page.url, template: page.template, pages_in_template: page.pages_in_template, measured, items, instructions: HOW },
        evidence: findings.map((f) => ctx.evidence(f)),
      });
    }
  },
};
