import type { CrawledPage } from '../crawler/crawl.ts';
import type { PageRendering } from '../crawler/render-compare.ts';
import type { Findings } from './findings.ts';

/** Under this share of the main text in the raw HTML, a crawler that runs no script misses most of the page. */
export const TEXT_IN_RAW_MIN = 0.5;
/** Fewer words than this rendered: too little text to call missing. */
const MIN_RENDERED_WORDS = 50;
const DIRECTIVES = new Set(['robots', 'canonical']);
const METADATA = new Set(['title', 'meta_description', 'h1', 'hreflang', 'structured_data']);

const NONE = '(none)';
const shown = (value: string | null) => (value === null ? NONE : value.length > 80 ? `${value.slice(0, 79)}…` : value);
const ARROW = ' -> ';

/** A directive's finding value, "field: raw -> rendered", whole (the render_on_server brief checks the rendered value is served). */
const directiveValue = (field: string, raw: string | null, rendered: string | null) => `${field}: ${raw ?? NONE}${ARROW}${rendered ?? NONE}`;

/** The field and rendered value of a directive_changed_by_javascript finding (directiveValue), or undefined. */
export function parseDirectiveChange(value: string | null): { field: 'robots' | 'canonical'; rendered: string | null } | undefined {
  const match = value === null ? null : /^(robots|canonical): (.*)$/s.exec(value);
  if (!match) return undefined;
  const rendered = match[2]!.slice(match[2]!.lastIndexOf(ARROW) + ARROW.length);
  return { field: match[1] as 'robots' | 'canonical', rendered: rendered === NONE ? null : rendered };
}

/** How many links a links_only_after_javascript finding counts ("3 links, e.g. …"). */
export const parseLinkCount = (value: string | null) => Number(/^(\d+) links?\b/.exec(value ?? '')?.[1] ?? 0);

/**
 * What only JavaScript shows, for a page the crawl rendered (raw against rendered, render-compare.ts). The AI
 * assistants' crawlers run no script, and Google renders late: what is only in the rendered page is at risk.
 */
export function checkRendering(page: CrawledPage, findings: Findings) {
  const rendering: PageRendering | undefined = page.rendering;
  if (!rendering) return;
  const { url } = page;
  if (rendering.error !== undefined) return findings.add('render_failed', url, rendering.error);
  const rendered = rendering.rendered;
  if (rendering.text_in_raw !== null && rendering.text_in_raw < TEXT_IN_RAW_MIN && (rendered?.words ?? 0) >= MIN_RENDERED_WORDS) {
    findings.add('content_only_after_javascript', url, `${Math.round(rendering.text_in_raw * 100)}% of the main text is in the HTML`);
  }
  const links = rendering.links_only_rendered;
  if (links.count > 0) findings.add('links_only_after_javascript', url, `${links.count} link${links.count === 1 ? '' : 's'}, e.g. ${links.examples[0]}`);
  for (const change of rendering.changes) {
    if (DIRECTIVES.has(change.field)) findings.add('directive_changed_by_javascript', url, directiveValue(change.field, change.raw, change.rendered));
  }
  const metadata = rendering.changes.filter((c) => METADATA.has(c.field));
  if (metadata.length > 0) findings.add('metadata_changed_by_javascript', url, metadata.map((c) => `${c.field}: ${shown(c.raw)} -> ${shown(c.rendered)}`).join('; '));
  if (rendering.links_without_href.length > 0) findings.add('links_without_href', url, rendering.links_without_href.slice(0, 3).map((t) => `"${t}"`).join(', '));
  if (rendering.requests.disallowed.length > 0) findings.add('render_resources_disallowed', url, rendering.requests.disallowed[0]);
}
