/**
 * The words of a search query and of a page's text, compared as a searcher means them: topic
 * words (function words left out), word families ("prune", "pruning"), and whether a text
 * says every topic word of a query. The search-data planner and the tasks it proposes use them.
 */

/** Words that carry no topic (English; a query in another language keeps all its words as topic). */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by', 'from', 'into', 'about', 'is', 'are',
  'my', 'your', 'me', 'i', 'you', 'it', 'its', 'do', 'does', 'can', 'how', 'what', 'when', 'why', 'where', 'which', 'who',
  'should', 'vs', 'versus',
]);

/**
 * Words too common to show two texts are about one thing (English): the function words above and
 * the commonest verbs and pronouns. The drafting's comparisons of a headline with a standfirst or a
 * title's parts use them (significantWords).
 */
const COMMON_WORDS = new Set([...FUNCTION_WORDS,
  ...'as be was were has have had will not no but this that these those he she they them we his her their our its all any more most new over out one two says said'.split(' ')]);
/** A text's words that name something: three letters or more, not COMMON_WORDS, lower case ("c++" and "c#" kept whole). */
export const significantWords = (text: string): Set<string> =>
  new Set(text.toLowerCase().split(/[^\p{L}\p{N}+#]+/u).filter((w) => w.length >= 3 && !COMMON_WORDS.has(w)));

/** Lower-cased words, letters and digits of any script. */
export const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
export const topicWordsOf = (text: string) => wordsOf(text).filter((w) => !FUNCTION_WORDS.has(w));

/**
 * One word family ("prune", "pruning", "pruned"; "rose", "roses"; "berry", "berries"): the
 * word less an English ending, compared whole, or one the other with such an ending (4
 * letters at least): a light stemmer, wrong on rare words and right on a query's.
 */
const ENDINGS: Array<[RegExp, string]> = [[/ies$/u, 'y'], [/es$/u, ''], [/s$/u, ''], [/ing$/u, ''], [/ing$/u, 'e'], [/ed$/u, ''], [/d$/u, '']];
const formsOf = (word: string) => [word, ...ENDINGS.flatMap(([ending, by]) => (ending.test(word) ? [word.replace(ending, by)] : []))].filter((w) => w.length >= 3);
export function sameFamily(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [formsOf(a), formsOf(b)];
  // "prun" and "prune": one the other with an ending that makes a form of it, never a new word ("care" and "career", "plan" and "plant").
  const formOf = (short: string, long: string) => short.length >= 4 && long.startsWith(short) && /^(?:e|s|es|d|ed|ing)$/u.test(long.slice(short.length));
  return x.some((f) => y.some((g) => f === g || formOf(f, g) || formOf(g, f)));
}
export const saysWord = (words: readonly string[], word: string) => words.some((w) => sameFamily(w, word));

/** Whether a title already says every topic word of the query. */
export const holdsQuery = (title: string, query: string) => {
  const words = wordsOf(title);
  return topicWordsOf(query).every((w) => saysWord(words, w));
};
