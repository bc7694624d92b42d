import { sameFamily, topicWordsOf } from '../../lib/query-words.ts';
import type { SearchPage } from './search-pages.ts';

/** A word in more than this share of the site's titles is the template's, not a topic. */
const GENERIC_SHARE = 0.25;

/**
 * The pages of a site to link from, for a query: those whose title or h1 says one of the
 * query's topic words, more of them first, then the most linked-to. A word that more than a
 * quarter of the site's titles say ("guide", a template's "growing") names no topic. Each
 * page's words are read once; whether a word is generic is worked out once per word.
 */
export function createLinkSources(pages: readonly SearchPage[]) {
  const words = pages.map((page) => ({ page, words: topicWordsOf(`${page.title} ${page.h1 ?? ''}`) }));
  const genericWords = new Map<string, boolean>();
  const generic = (word: string) => {
    let known = genericWords.get(word);
    if (known === undefined) {
      const saying = words.filter((p) => p.words.some((w) => sameFamily(w, word))).length;
      genericWords.set(word, (known = saying > Math.max(2, pages.length * GENERIC_SHARE)));
    }
    return known;
  };
  return {
    from(query: string, except: string | null, limit: number): SearchPage[] {
      const topic = topicWordsOf(query).filter((w) => !generic(w));
      if (topic.length === 0) return [];
      return words
        .flatMap(({ page, words: said }) => {
          const shared = page.url === except ? 0 : topic.filter((w) => said.some((x) => sameFamily(w, x))).length;
          return shared > 0 ? [{ page, shared }] : [];
        })
        .sort((a, b) => b.shared - a.shared || b.page.inlinks - a.page.inlinks)
        .slice(0, limit)
        .map((p) => p.page);
    },
  };
}
