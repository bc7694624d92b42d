import { significantWords } from '../../../lib/query-words.ts';
import type { PageContent } from '../page-content.ts';

/** What a page's headline is read from, for the rules that keep its names: its h1 and its title. */
export const headlineOf = (content: Pick<PageContent, 'h1' | 'title'>) => `${content.h1} ${content.title}`;

/**
 * Whether a text (a standfirst, a sentence after an article's hook) names what its headline is about: a name of its own (a word in capitals:
 * "Tottenham", "Europa", "Kitchen benches ...") that the headline has too. "The home-improvement
 * retailer earned $2.8 billion" names nothing: the headline's "Home Depot" is not in it.
 */
export const namesHeadline = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  const headline = significantWords(headlineOf(content));
  // A script without capitals (Korean, Chinese, Arabic) names nothing by case: a run of the headline's letters long enough to be a
  // name will do (Chinese and Japanese write a word in two characters or so and no spaces; Korean joins particles to its words).
  if (!/[\p{Lu}\p{Ll}]/u.test(text)) return sharesRun(text, headlineOf(content));
  const names = [...text.matchAll(/(?<=^|\s)[\p{Lu}\d][\p{L}\p{N}'’.-]*/gu)].flatMap((m) => [...significantWords(m[0].replace(/['’]s$|[.]$/u, ''))]);
  return names.some((name) => headline.has(name) || [...headline].some((w) => w.startsWith(name) && name.length >= 4));
};

/** Letters a run must have to name something, by script: Chinese and Japanese 2, Korean 3 (a name's syllables), others 4 (not "على"). */
const runLength = (text: string) => (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 2 : /\p{Script=Hangul}/u.test(text) ? 3 : 4);

/** Whether the text holds a run of letters of one of the headline's words (runLength long). */
function sharesRun(text: string, headline: string): boolean {
  const n = runLength(text);
  for (const word of headline.split(/[^\p{L}\p{N}]+/u)) {
    for (let i = 0; i + n <= word.length; i++) if (text.includes(word.slice(i, i + n))) return true;
  }
  return false;
}
