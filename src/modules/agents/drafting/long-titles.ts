import { TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { displayWidth } from '../../../lib/strings.ts';
import type { Draft } from '../description-writer.ts';
import type { PageContent } from '../page-content.ts';

/**
 * A title over the limit made to fit as its editors would: what follows the headline goes
 * first (the site's name, its sections: " | World | News | Express.co.uk"), never a word of
 * the headline itself; a label the editors put before it ("Opinion | ") stays while it fits.
 * When the headline alone is still too long, the headline the editors give the page for sharing
 * (og:title) is the title if it fits and is about the same thing; otherwise nothing is
 * proposed, and the refusal says why:
 * a headline cut short says something else ("13-Inch MacBook Pro With Scissor Keyboard
 * Expected", without "in First Half of 2020") or nothing ("Hong Kong chaos").
 */

/** Where a title's parts meet: a spaced bar, dash or colon (" : CityAM"); "Delhi air pollution: The law ..." is one part. */
const SEPARATOR = /\s+(?:\||[-–—]{1,2}|:)\s+/gu;
const SEPARATOR_END = /\s+(?:\||[-–—]{1,2}|:)\s*$/u;
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

/**
 * Labels an editor puts before a headline to say what kind of piece it is ("Column: ", "Opinion | "):
 * kept while the title fits, dropped before a word of the headline.
 */
const SECTION_LABEL = /^(?:column|opinion|analysis|editorial|review|comment|exclusive|breaking|breaking news|watch|video|live|explainer|podcast|interview)\s*[:|]\s+/iu;

/** A part of a few words names a site or a section ("- Los Angeles Times", "| Smart News"); a longer one is the headline's. */
const SECTION_WORDS = 4;
const words = (part: string) => part.replace(SEPARATOR, ' ').trim().split(/\s+/).length;

/**
 * The headline's parts: the first, and each after it that shares a word with the h1 or is
 * longer than a name ("Milan Design Week 2018 | Anastassiades' light installation for FLOS");
 * not the last when it is a name (the site's: "- Los Angeles Times", "| Kabar tentang Dunia
 * Islam"), nor the site's sections between ("| Smart News").
 */
function headlineParts(parts: string[], h1: string): number {
  const shared = significant(h1);
  let last = 0;
  parts.forEach((part, i) => {
    const isLast = i === parts.length - 1;
    if (i === 0 || (!isLast && [...significant(part)].some((w) => shared.has(w))) || words(part) > SECTION_WORDS) last = i;
  });
  return last + 1;
}

/** Whether a new title shares a word with the current one's first part: a heading that is the site's logo ("엔터 미디어") does not. */
export const sameTopic = (next: string, current: string) => {
  const words = significant(partsOf(current)[0] ?? current);
  return [...significant(next)].some((w) => words.has(w));
};

const fits = (text: string) => displayWidth(text) >= TITLE_MIN && displayWidth(text) <= TITLE_MAX;

/** A shorter title for a page whose title is over the limit, or the reason none keeps its headline (rule ids: title_*). */
export function shortenLongTitle(content: PageContent, taken: ReadonlySet<string>): Draft {
  const title = content.title.replace(/\s+/g, ' ').trim();
  const parts = partsOf(title);
  const count = headlineParts(parts, content.h1);
  const headline = parts.slice(0, count).join('').trim();
  const siteName = count < parts.length ? parts.at(-1)! : '';
  const unlabelled = headline.replace(SECTION_LABEL, '');
  const free = (text: string) => !taken.has(text.toLowerCase()) || text.toLowerCase() === title.toLowerCase();
  // The headline and the site's name ("... | Smithsonian", its sections dropped), the headline alone, then without its label.
  const candidates = [`${headline}${siteName}`, headline, unlabelled];
  // Then the headline its editors give it for sharing, when it is about the same thing ("Taylor Swift's AMA row seems to be over").
  const og = content.ogTitle?.replace(/\s+/g, ' ').trim();
  // (Whole, or without the site's name it ends with as the title does: never a part of it, which is a cut headline.)
  const ogHeadline = og && siteName && og.endsWith(siteName.trim()) ? og.slice(0, og.lastIndexOf(siteName.trim())).replace(SEPARATOR_END, '') : og;
  if (ogHeadline && [...significant(ogHeadline)].filter((w) => significant(headline).has(w)).length >= 2) candidates.push(ogHeadline);
  const chosen = candidates.find((c) => c.length < title.length && fits(c) && free(c));
  if (chosen) return { text: chosen };
  const width = displayWidth(headline);
  return {
    rule: 'title_headline_too_long',
    reason: `the headline alone ("${headline}") is ${width} characters, over ${TITLE_MAX}, and cutting it would change what it says; `
      + 'search engines show a long title cut short but read it whole: shorten the headline itself if it matters',
  };
}
