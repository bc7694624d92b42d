import { Parser } from 'htmlparser2';
import { escapeHtml, sameText } from '../../lib/strings.ts';
import { normalizeUrl } from '../crawler/urls.ts';

/**
 * Precise edits of stored HTML (a post's content): htmlparser2 finds the elements and their
 * exact source offsets, and only those bytes are replaced, so everything else in the
 * content stays byte for byte as the author wrote it (and a rollback restores the original).
 */

interface Splice {
  start: number;
  end: number; // exclusive
  text: string;
}


function applySplices(html: string, splices: Splice[]): string {
  let out = html;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** Runs the parser over html and hands each open/close tag to the visitor with its source span. */
function scan(
  html: string,
  visit: {
    open?: (name: string, attributes: Record<string, string>, span: { start: number; end: number }) => void;
    close?: (name: string, span: { start: number; end: number } | undefined) => void;
  },
) {
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        visit.open?.(name, attributes, { start: parser.startIndex, end: parser.endIndex + 1 });
      },
      onclosetag(name, isImplied) {
        visit.close?.(name, isImplied ? undefined : { start: parser.startIndex, end: parser.endIndex + 1 });
      },
    },
    { decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
}

/** The text of an HTML fragment as a reader sees it (tags dropped, entities decoded). */
function innerText(fragment: string): string {
  let text = '';
  const parser = new Parser({ ontext(chunk) { text += chunk; } }, { decodeEntities: true });
  parser.write(fragment);
  parser.end();
  return text;
}

/** Removes the links to `targets` (keeping their text). Returns the new html and how many went. */
export function unwrapLinks(html: string, baseUrl: string, targets: ReadonlySet<string>): { html: string; count: number } {
  const splices: Splice[] = [];
  const open: boolean[] = [];
  let count = 0;
  scan(html, {
    open(name, attributes, span) {
      if (name !== 'a') return;
      const target = attributes.href !== undefined ? normalizeUrl(attributes.href, baseUrl) : undefined;
      const hit = target !== undefined && targets.has(target);
      open.push(hit);
      if (hit) {
        count += 1;
        splices.push({ ...span, text: '' });
      }
    },
    close(name, span) {
      if (name !== 'a') return;
      if (open.pop() && span) splices.push({ ...span, text: '' });
    },
  });
  return { html: applySplices(html, splices), count };
}

/** Points links at `from` to `to` instead (a redirect's final address). */
export function retargetLinks(html: string, baseUrl: string, moves: ReadonlyMap<string, string>): { html: string; count: number } {
  const splices: Splice[] = [];
  scan(html, {
    open(name, attributes, span) {
      if (name !== 'a' || attributes.href === undefined) return;
      const to = moves.get(normalizeUrl(attributes.href, baseUrl) ?? '');
      if (to === undefined) return;
      splices.push({ ...span, text: rewriteAttribute(html.slice(span.start, span.end), 'href', to) });
    },
  });
  return { html: applySplices(html, splices), count: splices.length };
}

/** Gives images with no (or an empty) alt attribute the alt text chosen for their source. */
export function setImageAlts(html: string, baseUrl: string, alts: ReadonlyMap<string, string>): { html: string; count: number } {
  const splices: Splice[] = [];
  scan(html, {
    open(name, attributes, span) {
      if (name !== 'img' || attributes.src === undefined || (attributes.alt ?? '').trim() !== '') return;
      const alt = alts.get(normalizeUrl(attributes.src, baseUrl) ?? '');
      if (alt === undefined) return;
      splices.push({ ...span, text: rewriteAttribute(html.slice(span.start, span.end), 'alt', alt) });
    },
  });
  return { html: applySplices(html, splices), count: splices.length };
}

/** Turns every h1 into an h2 (the theme prints the post title as the page's one h1). */
export function demoteH1s(html: string, keep?: string): { html: string; count: number } {
  const splices: Splice[] = [];
  let open: { start: number; textStart: number } | undefined;
  scan(html, {
    open(name, _attributes, span) {
      if (name === 'h1') open = { start: span.start, textStart: span.end };
    },
    close(name, span) {
      if (name !== 'h1' || !open || !span) return;
      // The headline the task keeps stays an h1, wherever it is; every other h1 becomes an h2.
      const text = innerText(html.slice(open.textStart, span.start));
      // As readers see it: the crawl read the headline WordPress rendered (typographic quotes), the post holds its raw text.
      if (keep === undefined || !sameText(text, keep)) splices.push({ start: open.start, end: open.start + 3, text: '<h2' }, { ...span, text: '</h2>' });
      open = undefined;
    },
  });
  return { html: applySplices(html, splices), count: splices.filter((s) => s.text === '<h2').length };
}

/**
 * Sets one attribute in a single tag's source text. The tag is re-parsed to learn its
 * attributes; the new tag keeps the others in their order (quoted with ").
 */
function rewriteAttribute(tag: string, attribute: string, value: string): string {
  const selfClosing = /\/\s*>$/.test(tag);
  let name = '';
  let attributes: Array<[string, string]> = [];
  const parser = new Parser({
    onopentagname(tagName) {
      name = tagName;
    },
    onattribute(key, attrValue) {
      attributes.push([key, attrValue]);
    },
  }, { decodeEntities: true });
  parser.write(tag);
  parser.end();
  attributes = attributes.filter(([key]) => key !== attribute);
  attributes.push([attribute, value]);
  const rendered = attributes.map(([key, v]) => `${key}="${escapeHtml(v)}"`).join(' ');
  return `<${name} ${rendered}${selfClosing ? ' />' : '>'}`;
}
