import { Parser } from 'htmlparser2';
import type { PageFacts } from './extract.ts';
import type { RenderReason } from './render-rules.ts';
import { normalizeUrl, sameSite } from './urls.ts';

/** What a page says about itself, in the raw HTML or after JavaScript: the fields a search engine acts on. */
export interface PageSnapshot {
  title: string | null;
  meta_description: string | null;
  /** Directives of the robots meta tags, comma-joined; null without one. */
  robots: string | null;
  canonical: string | null;
  h1: string | null;
  hreflang: number;
  structured_data: string[];
  internal_links: number;
  words: number;
}

export const COMPARED_FIELDS = ['title', 'meta_description', 'robots', 'canonical', 'h1', 'hreflang', 'structured_data', 'internal_links'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

/** A page rendered in Chromium, raw against rendered (audit_pages.rendering; GET /audits/{id}/rendering). */
export interface PageRendering {
  reason: RenderReason;
  ms: number;
  /** Why the render failed; the page's raw HTML was audited instead. */
  error?: string;
  raw: PageSnapshot;
  rendered?: PageSnapshot;
  /** The fields whose value JavaScript changes, each raw then rendered. */
  changes: Array<{ field: ComparedField; raw: string | null; rendered: string | null }>;
  /** Share (0-1) of the rendered page's main text whose words are in the raw HTML; null when the render has no main text. */
  text_in_raw: number | null;
  /** Internal links only the rendered page has: how many, and up to 10 of them. */
  links_only_rendered: { count: number; examples: string[] };
  /** Elements that act as links with no href (rendered page): their text, up to 10. */
  links_without_href: string[];
  /** The browser's requests: made, refused by the address guard, failed; the site's resources robots.txt disallows (not fetched). */
  requests: { made: number; refused: number; failed: number; disallowed: string[] };
}

export function snapshotOf(facts: PageFacts, internalLinks: number): PageSnapshot {
  return {
    title: facts.titles[0] ?? null,
    meta_description: facts.metaDescriptions[0] ?? null,
    robots: facts.metaRobots.length > 0 ? facts.metaRobots.join(', ') : null,
    canonical: facts.canonicals[0] ?? null,
    h1: facts.headings.find((h) => h.level === 1)?.text ?? null,
    hreflang: facts.hreflangs.length,
    structured_data: [...new Set(facts.jsonLd.flatMap((b) => b.types))].sort(),
    internal_links: internalLinks,
    words: facts.wordCount,
  };
}

/** The internal link targets of a page (resolved, same site). */
export function internalLinks(facts: PageFacts, pageUrl: string, host: string): Set<string> {
  const out = new Set<string>();
  for (const link of facts.links) {
    const target = normalizeUrl(link.href, pageUrl);
    if (target && sameSite(target, host) && target !== pageUrl) out.add(target);
  }
  return out;
}

const valueOf = (snapshot: PageSnapshot, field: ComparedField): string | null => {
  const value = snapshot[field];
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : null;
  return value === null ? null : String(value);
};

/** Raw against rendered: what JavaScript changes, adds, and how much of the main text the raw HTML already has. */
export function compareRender(input: {
  reason: RenderReason; ms: number; pageUrl: string; host: string;
  raw: PageFacts; rawHtml: string | undefined; rendered: PageFacts;
  requests: PageRendering['requests'];
}): PageRendering {
  const rawLinks = internalLinks(input.raw, input.pageUrl, input.host);
  const renderedLinks = internalLinks(input.rendered, input.pageUrl, input.host);
  const raw = snapshotOf(input.raw, rawLinks.size);
  const rendered = snapshotOf(input.rendered, renderedLinks.size);
  const changes = COMPARED_FIELDS
    .map((field) => ({ field, raw: valueOf(raw, field), rendered: valueOf(rendered, field) }))
    .filter((c) => c.raw !== c.rendered);
  const onlyRendered = [...renderedLinks].filter((url) => !rawLinks.has(url));
  return {
    reason: input.reason, ms: input.ms, raw, rendered, changes,
    text_in_raw: input.rawHtml === undefined ? null : shareInRaw(mainWords(input.rendered), input.rawHtml),
    links_only_rendered: { count: onlyRendered.length, examples: onlyRendered.slice(0, 10) },
    links_without_href: input.rendered.scripting?.pseudoLinks ?? [],
    requests: input.requests,
  };
}

/** A render that failed: the raw page is what was audited. */
export function failedRender(input: { reason: RenderReason; ms: number; error: string; raw: PageFacts; pageUrl: string; host: string; requests: PageRendering['requests'] }): PageRendering {
  return {
    reason: input.reason, ms: input.ms, error: input.error, raw: snapshotOf(input.raw, internalLinks(input.raw, input.pageUrl, input.host).size),
    changes: [], text_in_raw: null, links_only_rendered: { count: 0, examples: [] }, links_without_href: [], requests: input.requests,
  };
}

const WORD = /[\p{L}\p{N}]+/gu;
const words = (text: string) => text.toLowerCase().match(WORD) ?? [];

function mainWords(facts: PageFacts): string[] {
  const main = facts.main;
  if (!main) return [];
  return [...main.headings.map((h) => h.text), ...main.blocks].flatMap(words);
}

/** Share of the words that the raw HTML's visible text has (scripts' and styles' text is not visible). */
function shareInRaw(rendered: string[], rawHtml: string): number | null {
  if (rendered.length === 0) return null;
  const present = new Set(words(visibleText(rawHtml)));
  let found = 0;
  for (const word of rendered) if (present.has(word)) found++;
  return Math.round((found / rendered.length) * 1000) / 1000;
}

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg']);

/** The text a reader (or a crawler that runs no script) sees in an HTML document. */
export function visibleText(html: string): string {
  const parts: string[] = [];
  let hidden = 0;
  const parser = new Parser({
    onopentag(name) {
      if (INVISIBLE.has(name)) hidden++;
    },
    onclosetag(name) {
      if (INVISIBLE.has(name)) hidden = Math.max(0, hidden - 1);
    },
    ontext(text) {
      if (hidden === 0) parts.push(text);
    },
  }, { decodeEntities: true, lowerCaseTags: true });
  parser.end(html);
  return parts.join(' ');
}
