import { significantWords } from '../../../lib/query-words.ts';
import type { PageContent } from '../page-content.ts';

/**
 * Whether a text (a standfirst, a sentence after an article's hook) names what its headline is about: a name of its own (a word in capitals:
 * "Tottenham", "Europa", "Kitchen benches ...") that the headline has too. "The home-improvement
 * retailer earned $2.8 billion" names nothing: the headline's "Home Depot" is not in it.
 */
export const namesHeadline = (text: string, content: Pick<PageContent, 'h1' | 'title'>) => {
  const headline = significantWords(`${content.h1} ${content.title}`);
  // A script without capitals (Korean, Chinese, Arabic) names nothing by case: any word the headline has will do.
  if (!/[\p{Lu}\p{Ll}]/u.test(text)) return [...text.split(/\s+/u)].some((w) => w.length >= 2 && `${content.h1} ${content.title}`.includes(w));
  const names = [...text.matchAll(/(?<=^|\s)[\p{Lu}\d][\p{L}\p{N}'’.-]*/gu)].flatMap((m) => [...significantWords(m[0].replace(/['’]s$|[.]$/u, ''))]);
  return names.some((name) => headline.has(name) || [...headline].some((w) => w.startsWith(name) && name.length >= 4));
};
