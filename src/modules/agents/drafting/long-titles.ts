import { TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { displayWidth } from '../../../lib/strings.ts';
import type { Draft } from '../description-writer.ts';
import type { PageContent } from '../page-content.ts';

/**
 * A title over the limit made to fit as its editors would: what follows the headline goes
 * first (the site's name, its sections: " | World | News | Express.co.uk"), never a word of
 * the headline itself; a prefix the editors put before it ("Opinion | ") stays. When the
 * headline alone is still too long, the page's visible headline (its h1) is the title if it
 * fits and is about the same thing; otherwise nothing is proposed, and the refusal says why:
 * a headline cut short says something else ("13-Inch MacBook Pro With Scissor Keyboard
 * Expected", without "in First Half of 2020") or nothing ("Hong Kong chaos").
 */

/** Where a title's parts meet: a spaced bar, dash or colon (" : CityAM"); "Delhi air pollution: The law ..." is one part. */
const SEPARATOR = /\s+(?:\||[-–—]{1,2}|:)\s+/gu;
/** Words too common to show two headlines are about one thing. */
const COMMON = new Set('the a an and or of to in on for with at by from as is are was were be it its this that these those he she they we you i his her their our your not no but'.split(' '));
const significant = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}+#]+/u).filter((w) => w.length >= 3 && !COMMON.has(w)));

/** The title's parts, each with the separator before it (the first with none). */
function partsOf(title: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const match of title.matchAll(SEPARATOR)) {
    parts.push(title.slice(from, match.index));
    from = match.index;
  }
  parts.push(title.slice(from));
  return parts.filter((p) => p.trim() !== '');
}

/** How many of its parts the headline takes: those the h1 shares words with, at least the first. */
function headlineParts(parts: string[], h1: string): number {
  const words = significant(h1);
  if (words.size === 0) return 1;
  let last = 0;
  parts.forEach((part, i) => {
    if ([...significant(part)].some((w) => words.has(w))) last = i;
  });
  return last + 1;
}

const fits = (text: string) => displayWidth(text) >= TITLE_MIN && displayWidth(text) <= TITLE_MAX;

/** A shorter title for a page whose title is over the limit, or the reason none keeps its headline (rule ids: title_*). */
export function shortenLongTitle(content: PageContent, taken: ReadonlySet<string>): Draft {
  const title = content.title.replace(/\s+/g, ' ').trim();
  const parts = partsOf(title);
  const headline = parts.slice(0, headlineParts(parts, content.h1)).join('');
  const free = (text: string) => !taken.has(text.toLowerCase()) || text.toLowerCase() === title.toLowerCase();
  // The headline with as much of what follows it as fits ("... – Twin Cities" goes before a word of the headline).
  for (let keep = parts.length - 1; keep >= 1; keep--) {
    const candidate = parts.slice(0, keep).join('').trim();
    if (candidate.length < headline.trim().length) break;
    if (fits(candidate) && free(candidate)) return { text: candidate };
  }
  const h1 = content.h1.replace(/\s+/g, ' ').trim();
  const shared = [...significant(h1)].filter((w) => significant(headline).has(w)).length;
  if (h1 && h1 !== headline.trim() && shared >= 2 && fits(h1) && free(h1)) return { text: h1 };
  const width = displayWidth(headline.trim());
  return {
    rule: 'title_headline_too_long',
    reason: `the headline alone ("${headline.trim()}") is ${width} characters, over ${TITLE_MAX}, and cutting it would change what it says; `
      + 'search engines show a long title cut short but read it whole: shorten the headline itself if it matters',
  };
}
