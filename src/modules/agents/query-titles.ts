import { TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import { displayWidth } from '../../lib/strings.ts';
import { sameFamily, saysWord, topicWordsOf, wordsOf } from '../../lib/query-words.ts';

/**
 * A page's title rewritten around a search query, as an editor would: the query first, as
 * searchers type it, then what the current title says that the query does not (the page's
 * topic kept), the site's suffix last; or the reason no honest title can carry the query.
 */

export interface QueryPage {
  /** The page's current title, its h1 and its main text. */
  title: string;
  h1: string | null;
  text: string;
  /** The site's suffix this page's title ends with (" – Garden Shop"), or ''. */
  suffix: string;
}

/** The new title, and what it keeps of the current one ('' when only the query and the suffix remain). */
export type QueryTitle = { title: string; kept: string } | { refused: string };

/** How a searcher's query reads at the head of a title: its first letter up, each word cased as the page cases it (names, acronyms). */
function headline(query: string, page: QueryPage): string {
  const cased = new Map<string, string>();
  for (const w of `${page.text} ${page.h1 ?? ''} ${page.title}`.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (w !== w.toLowerCase() && !cased.has(w.toLowerCase())) cased.set(w.toLowerCase(), w);
  }
  // A word the page writes capitalised only at a sentence's start is no name: only words capitalised mid-sentence are kept.
  const named = new Set((`${page.text} ${page.title}`.match(/(?<=[\p{Ll},;]\s)[\p{Lu}][\p{L}\p{N}]*/gu) ?? []).map((w) => w.toLowerCase()));
  const words = query.trim().split(/\s+/).map((w) => (named.has(w.toLowerCase()) || /^\p{Lu}+$/u.test(cased.get(w.toLowerCase()) ?? '') ? cased.get(w.toLowerCase()) ?? w : w));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The title without the site's suffix (when it ends with it). */
const coreOf = (page: QueryPage) => (page.suffix && page.title.endsWith(page.suffix) ? page.title.slice(0, -page.suffix.length) : page.title);

/** Segments of a title: "Hydrangea care: pruning and problems" -> ["Hydrangea care", "pruning and problems"]. */
const segmentsOf = (title: string) => title.split(/\s*(?::|\s[–—|-]\s)\s*/u).map((s) => s.trim()).filter(Boolean);

/** The rules a query title must pass, as named data: the first that fails refuses the title, with its reason. */
export const QUERY_TITLE_RULES: Array<{ id: string; example: string; counterExample: string; fails(query: string, page: QueryPage): string | undefined }> = [
  {
    id: 'page_says_every_word',
    example: '"when to prune hydrangeas" on a care page that explains pruning',
    counterExample: '"hydrangeas delivery near me" on a care guide that never mentions delivery',
    fails(query, page) {
      const said = wordsOf(`${page.title} ${page.h1 ?? ''} ${page.text}`);
      const missing = topicWordsOf(query).filter((w) => !saysWord(said, w));
      return missing.length === 0 ? undefined
        : `the page never says "${missing.join('", "')}": a title with "${query}" would promise what the page does not have (write for it instead, or leave it)`;
    },
  },
  {
    id: 'keeps_the_topic',
    example: '"hydrangea care guide" on "Hydrangea care: pruning and problems"',
    counterExample: '"garden shop opening hours" on a page titled "Hydrangea care" that names the shop in its footer text',
    fails(query, page) {
      const topic = topicWordsOf(`${coreOf(page)} ${page.h1 ?? ''}`);
      return topicWordsOf(query).some((w) => saysWord(topic, w)) ? undefined
        : `"${query}" shares no word with the page's title or headline: a title around it would change what the page is about`;
    },
  },
  {
    id: 'fits_a_result',
    example: '"when to prune hydrangeas" (24 characters)',
    counterExample: 'a 70-character question',
    fails(query, page) {
      return displayWidth(headline(query, page) + page.suffix) <= TITLE_MAX ? undefined : `"${query}" with the site's name is longer than a results page shows (${TITLE_MAX} characters)`;
    },
  },
];

/** One word family three times or more in a title reads as stuffing. */
function stuffed(title: string): boolean {
  const words = topicWordsOf(title);
  return words.some((w) => words.filter((other) => sameFamily(w, other)).length >= 3);
}

/**
 * The new title: the query first; then the current title's segments that add something (a
 * segment whose topic words the query mostly says already is dropped, "Hydrangeas" when the
 * query is "how to grow hydrangeas"), as many as fit in 60 characters with the suffix.
 */
export function titleForQuery(query: string, page: QueryPage): QueryTitle {
  for (const rule of QUERY_TITLE_RULES) {
    const reason = rule.fails(query, page);
    if (reason) return { refused: reason };
  }
  const head = headline(query, page);
  const queryWords = topicWordsOf(query);
  const core = coreOf(page);
  const adding = segmentsOf(core).filter((segment) => {
    const words = topicWordsOf(segment);
    return words.filter((w) => saysWord(queryWords, w)).length * 2 <= words.length && words.length > 0;
  });
  const withRest = (kept: string) => ({ kept, title: kept ? `${head}${kept.includes(':') ? ' – ' : ': '}${kept}${page.suffix}` : `${head}${page.suffix}` });
  // The segments that add something, as many as fit; a title too short with them takes the whole current one.
  const drafts = [...adding.map((_, i) => withRest(adding.slice(0, adding.length - i).join(': '))), withRest(''), withRest(core)];
  const fitting = drafts.find(({ title }) => displayWidth(title) >= TITLE_MIN && displayWidth(title) <= TITLE_MAX && !stuffed(title));
  return fitting ?? { refused: `no title of ${TITLE_MIN}-${TITLE_MAX} characters reads naturally with "${query}" and what the page is about` };
}
