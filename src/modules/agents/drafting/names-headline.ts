import { saysWord, significantWords } from '../../../lib/query-words.ts';
import type { PageContent } from '../page-content.ts';

/** What a page's headline is read from, for the rules that keep its names: its h1 and its title. */
export const headlineText = (content: Pick<PageContent, 'h1' | 'title'>) => `${content.h1} ${content.title}`;

/**
 * Whether a text (a standfirst, a sentence after an article's hook) names what its headline is about: a name of its own (a word in capitals:
 * "Tottenham", "Europa", "Kitchen benches ...") that the headline has too. "The home-improvement
 * retailer earned $2.8 billion" names nothing: the headline's "Home Depot" is not in it.
 */
export const namesHeadline = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  const headline = significantWords(headlineText(content));
  // A script without capitals (Korean, Chinese, Arabic) names nothing by case: a run of the headline's letters long enough to be a
  // name will do (Chinese and Japanese write a word in two characters or so and no spaces; Korean joins particles to its words).
  // (Whenever the text has such letters: a Japanese sentence that names an iPhone is still read as Japanese.)
  if (UNCASED_LETTER.test(text) && sharesRun(text, headlineText(content))) return true;
  if (!/[\p{Lu}\p{Ll}]/u.test(text)) return false;
  const names = [...text.matchAll(/(?<=^|\s)[\p{Lu}\d][\p{L}\p{N}'’.-]*/gu)].flatMap((m) => [...significantWords(m[0].replace(/['’]s$|[.]$/u, ''))]);
  return names.some((name) => headline.has(name) || [...headline].some((w) => w.startsWith(name) && name.length >= 4));
};

/** A letter of a script without capitals (a letter that is neither upper nor lower case). */
const UNCASED_LETTER = /(?=\p{L})[^\p{Lu}\p{Ll}\p{Lt}]/u;
/** Scripts written without spaces between words: their words come from the segmenter (ICU's dictionaries). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HIRAGANA = /\p{Script=Hiragana}/u;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Whether the text holds one of the headline's words, in a script without capitals:
 * - written without spaces (Chinese, Japanese, Thai): a word of two characters or more as the segmenter finds it, not one of
 *   hiragana (a particle's "が", "的" runs across words: "国的" is no name);
 * - Korean: the start of a headline's word, two syllables at least (its particles come after: "서울" in "서울의");
 * - others (Arabic, Hebrew, Hindi): a run of four letters of a headline's word, marks counted as letters, Arabic's article "ال"
 *   left off (a shared "الأس" is no name).
 */
function sharesRun(text: string, headline: string): boolean {
  if (UNSPACED.test(headline)) {
    return [...segmenter.segment(headline)].some((s) => s.isWordLike === true && [...s.segment].length >= 2 && !HIRAGANA.test(s.segment) && text.includes(s.segment));
  }
  const words = headline.split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);
  if (/\p{Script=Hangul}/u.test(headline)) return words.some((w) => w.length >= 2 && text.includes(w.slice(0, 2)));
  return words.map((w) => w.replace(/^ال/u, '')).some((w) => {
    for (let i = 0; i + 4 <= w.length; i++) if (text.includes(w.slice(i, i + 4))) return true;
    return false;
  });
}

/**
 * Whether a draft speaks of what its headline is about: a name the headline has (namesHeadline), or one of its words ("galaxies",
 * "simulation"), a word's family counting ("prune", "pruning"). An article's lead that shares none ("Crossovers may have become the
 * vehicle of choice ..." under "All-new 2020 Sentra ...", "The symptoms came on quickly" under "The man whose duvet nearly killed
 * him") sets a scene: read by editors, 13 of 15 such drafts needed an edit or were wrong.
 */
export const speaksOfHeadline = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  if (namesHeadline(text, content)) return true;
  const words = [...significantWords(text)];
  const stems = new Set(words.filter((w) => w.length >= STEM).map((w) => w.slice(0, STEM)));
  // A word's family, or its first five letters: "deliver" under "Delivery & returns", "hibernation" under "Hibernating astronauts".
  return [...significantWords(headlineText(content))].some((word) => saysWord(words, word) || (word.length >= STEM && stems.has(word.slice(0, STEM))));
};
/** Letters two words share at their start to be one word's family for speaksOfHeadline. */
const STEM = 5;

/**
 * Whether a text retells its headline in other words: it says at least RETOLD of the headline's words (a word's family counting).
 * "An international team of scientists has created the most detailed large-scale model of the universe to date" retells
 * "Physicists Just Created the Most Detailed Simulation of the Universe in History" (created, detailed, universe), a headline
 * with no name to share; "The formation of galaxies is a complex dance ..." says none of it.
 */
export const retellsHeadline = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => headlineWordsSaid(text, content) >= RETOLD;
/** Words of its headline a text says to retell it. */
const RETOLD = 3;
/** How many of its headline's words a text says (a word's family counting). */
// (Only the headline's own words: the title repeats them and adds the site's name.)
export const headlineWordsSaid = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  const words = [...significantWords(text)];
  return [...significantWords(content.h1 || content.title)].filter((word) => saysWord(words, word)).length;
};

/**
 * Whether a later sentence tells the headline's story where the opening only sets a scene for it: it retells the headline (RETOLD
 * of its words) and says RETOLD_MORE more of them than the opening. "A 43-year-old man, after having switched to feather bedding,
 * ... was diagnosed with "feather-duvet lung"" (man, switching, bedding, feather, duvet, lung) after "A soothing pillow and warm duvet
 * might not always lead to better rest." (duvet) under "A Man Develops 'Feather-Duvet Lung' After Switching His Bedding". Not
 * after an opening that already says the headline's story in other words ("Hours before Zach Parise’s two-goal performance ...").
 */
export const tellsMoreThan = (later: string, opening: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  const said = headlineWordsSaid(later, content);
  return said >= RETOLD && said >= headlineWordsSaid(opening, content) + RETOLD_MORE;
};
/** Headline words a later sentence says beyond its opening's to tell the story in its place. */
const RETOLD_MORE = 2;
