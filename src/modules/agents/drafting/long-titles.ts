import { TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { significantWords } from '../../../lib/query-words.ts';
import { displayWidth } from '../../../lib/strings.ts';
import type { Draft } from '../description-writer.ts';
import type { PageContent } from '../page-content.ts';

/**
 * A title over the limit made to fit as its editors would: what follows the headline goes
 * first (the site's name, its sections: " | World | News | Express.co.uk"), never a word of
 * the headline itself, nor a label the editors put before it ("Opinion | "). When the
 * headline alone is still too long nothing is proposed, and the refusal says why:
 * a headline cut short says something else ("13-Inch MacBook Pro With Scissor Keyboard
 * Expected", without "in First Half of 2020") or nothing ("Hong Kong chaos").
 */

/** Where a title's parts meet: a spaced bar, dash or colon (" : CityAM"); "Delhi air pollution: The law ..." is one part. */
const SEPARATOR = /\s+(?:\||[-–—]{1,2}|:)\s+/gu;

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

/** A part of a few words names a site or a section ("- Los Angeles Times", "| Smart News"); a longer one is the headline's. */
const SECTION_WORDS = 4;
const words = (part: string) => part.replace(SEPARATOR, ' ').trim().split(/\s+/).length;

/**
 * The headline's parts: the first, and each after it that shares a word with the h1 or is
 * longer than a name ("Milan Design Week 2018 | Anastassiades' light installation for FLOS");
 * not the last when it is a name (the site's: "- Los Angeles Times", "| Kabar tentang Dunia
 * Islam"), nor the site's sections between ("| Smart News").
 */
function headlineParts(parts: string[], h1: string, siteSuffix = ''): number {
  const shared = significantWords(h1);
  // The ending the site's titles share (writers.siteSuffixesOf) is its name, however many words it has.
  const suffixed = siteSuffix !== '' && parts.length > 1 && parts.at(-1) === siteSuffix;
  let last = 0;
  parts.forEach((part, i) => {
    const isLast = i === parts.length - 1;
    if (isLast && suffixed) return;
    if (i === 0 || (!isLast && [...significantWords(part)].some((w) => shared.has(w))) || words(part) > SECTION_WORDS) last = i;
  });
  return last + 1;
}

const fits = (text: string) => displayWidth(text) >= TITLE_MIN && displayWidth(text) <= TITLE_MAX;

/** The headline part of a page's title (what shortenLongTitle never cuts). */
export function headlineOf(content: PageContent, siteSuffix = ''): string {
  const parts = partsOf(content.title.replace(/\s+/g, ' ').trim());
  return parts.slice(0, headlineParts(parts, content.h1, siteSuffix)).join('').trim();
}

/** After the headline, this many parts or more are a menu ("| Autoracing | F1 | Indy | MotoGP | StockCar"), not a site's name and section. */
const MENU_PARTS = 3;

/** A shorter title for a page whose title is over the limit, or the reason none keeps its headline (rule ids: title_*). */
export function shortenLongTitle(content: PageContent, taken: ReadonlySet<string>, siteSuffix = ''): Draft {
  const title = content.title.replace(/\s+/g, ' ').trim();
  const parts = partsOf(title);
  const count = headlineParts(parts, content.h1, siteSuffix);
  const headline = parts.slice(0, count).join('').trim();
  // The site's name after its sections ("| Smart News | Smithsonian"), unless what follows the headline is a menu.
  const after = parts.length - count;
  const siteName = after > 0 && after < MENU_PARTS ? parts.at(-1)! : '';
  const free = (text: string) => !taken.has(text.toLowerCase());
  // Read by editors on 62 proposals: a label dropped ("Column:") makes an opinion read as news, and the editors' shorter
  // headline for sharing (og:title) dropped a name or the news four times in four: neither is proposed.
  const chosen = [`${headline}${siteName}`, headline].find((c) => c.length < title.length && fits(c) && free(c));
  if (chosen) return { text: chosen };
  const width = displayWidth(headline);
  return {
    rule: 'title_headline_too_long',
    reason: `the headline alone ("${headline}") is ${width} characters, over ${TITLE_MAX}, and cutting it would change what it says; `
      + 'search engines show a long title cut short but read it whole: shorten the headline itself if it matters',
  };
}
