import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import type { PageContent } from './page-content.ts';

/**
 * Deterministic, extractive writers: every proposed value is built from the page's own
 * words, within the bounds the audit checks, or not proposed at all (undefined).
 */

const sentencesOf = (text: string) => text.match(/[^.!?]+[.!?]+|[^.!?]+$/g)?.map((s) => s.trim()).filter(Boolean) ?? [];

/** Cuts at a word boundary at or under `max` characters. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : text.slice(0, max)).replace(/[\s,;:–-]+$/, '');
}

/** Whole sentences from the first paragraphs, 80-160 characters, not already used on the site. */
export function writeMetaDescription(content: PageContent, taken: ReadonlySet<string>): string | undefined {
  const sentences = content.paragraphs.flatMap(sentencesOf).filter((s) => s.split(' ').length >= 4);
  for (let start = 0; start < sentences.length; start++) {
    let text = '';
    for (let i = start; i < sentences.length && text.length < DESCRIPTION_MIN; i++) text = `${text} ${sentences[i]}`.trim();
    if (text.length < DESCRIPTION_MIN) break;
    const candidate = text.length > DESCRIPTION_MAX ? cut(text, DESCRIPTION_MAX - 1) + '…' : text;
    if (candidate.length >= DESCRIPTION_MIN && !taken.has(candidate.toLowerCase())) return candidate;
  }
  return undefined;
}

/**
 * The page's h1 (or current title) followed by the suffix the site's titles share
 * (" | Shop"), shortened to fit when needed, else without it: 20-60 characters, unique.
 */
export function writeTitle(content: PageContent, siteSuffix: string, taken: ReadonlySet<string>): string | undefined {
  const current = content.title.endsWith(siteSuffix) ? content.title.slice(0, content.title.length - siteSuffix.length) : content.title;
  const base = (content.h1 || current).trim();
  if (!base) return undefined;
  const candidates = siteSuffix
    ? [`${base}${siteSuffix}`, `${cut(base, TITLE_MAX - siteSuffix.length)}${siteSuffix}`, base, cut(base, TITLE_MAX)]
    : [base, cut(base, TITLE_MAX)];
  return candidates.find((t) => t.length >= TITLE_MIN && t.length <= TITLE_MAX && !taken.has(t.toLowerCase()));
}

/** The ending most of the site's titles share, separator included (" | Shop", " – Shop"), or ''. */
export function siteSuffixOf(titles: string[]): string {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const suffix = /\s[|–—-]\s[^|–—]+$/.exec(title)?.[0];
    if (suffix && suffix.length < title.length) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= 2 ? best[0] : '';
}

/** Words an image file name carries that say nothing about the picture. */
const NOISE_WORD = /^(img|image|images|dsc|dscn|dscf|pic|picture|photo|foto|screenshot|screen|shot|scaled|copy|final|edited|untitled|wp|uploads?|e\d+|v\d+|[a-f0-9]{8,}|\d+x\d+|\d+)$/i;

/**
 * Alt text from a descriptive file name ("red-rose-bush-1024x768.jpg" -> "Red rose bush"),
 * or undefined for names that describe nothing (IMG_2041.jpg): an invented description
 * would be worse than none, so those wait for a person or the LLM writer.
 */
export function writeAltText(src: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
  const words = name
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.+,]+/)
    .filter((word) => word && !NOISE_WORD.test(word));
  if (words.filter((word) => /\p{L}{3,}/u.test(word)).length < 2) return undefined;
  const text = cut(words.join(' ').toLowerCase(), 125);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An h1 for a page that has none: its title without the site's suffix. */
export function writeH1(content: PageContent, siteSuffix: string): string | undefined {
  const title = siteSuffix && content.title.endsWith(siteSuffix) ? content.title.slice(0, -siteSuffix.length) : content.title;
  const text = title.trim();
  return text.length > 0 ? text : undefined;
}
