import { extractPageFacts } from '../crawler/extract.ts';
import { pageLanguage } from '../crawler/language.ts';
import type { PageSummary } from '../crawler/page-summaries.ts';
import { storedPageContent, withoutSiteTemplate, type ContentBudget, type StoredPageContent } from '../crawler/main-content.ts';

/**
 * What the agent keeps of a page it reads again: the lead and well beyond (drafting reads the
 * lead), bounded, since a run may read 2,000 pages. The extraction benchmark reads pages whole
 * (WHOLE_PAGE).
 */
export const AGENT_BUDGET: ContentBudget = { blocks: 200, chars: 20_000, blockChars: 4_000, rows: false };

/** The parts of a page a writer drafts from: its title, main heading, own text blocks and headings. */
export interface PageContent {
  title: string;
  /** The first h1 of the page's own content ('' when the page has none outside its template). */
  h1: string;
  /** The page's own text blocks (template removed), in order. */
  paragraphs: string[];
  headings: Array<{ level: number; text: string }>;
  /** The page's language (crawler/language.ts pageLanguage: <html lang>, its content's lang, or its URL), or null. */
  lang: string | null;
  /** Where each paragraph stands among the headings, and what kind of block it is (MainContent.order); absent on older audits. */
  order?: string;
  /** Indexes of paragraphs other pages repeat (boilerplate below the template's share). */
  shared?: number[];
  /** What the page says of itself, where its editors put it (crawler/page-summaries.ts); absent when none, and on older audits. */
  summaries?: PageSummary[];
  /** The page says it is an article (og:type, JSON-LD): its headline is its topic, never cut. */
  article?: boolean;
  /** The page is a fact-check (a JSON-LD ClaimReview): its opening states the claim it checks, not its verdict. */
  factCheck?: boolean;
}

/** Drafting content from what the crawl stored of a page (audit_pages.content) and its title. */
export function pageContentOf(title: string | null, stored: StoredPageContent): PageContent {
  return {
    title: title ?? '',
    h1: stored.headings.find((h) => h.level === 1)?.text ?? '',
    paragraphs: stored.blocks,
    headings: stored.headings,
    lang: stored.lang,
    ...(stored.order === undefined ? {} : { order: stored.order }),
    ...(stored.shared ? { shared: stored.shared } : {}),
    ...(stored.summaries ? { summaries: stored.summaries } : {}),
    ...(stored.article ? { article: true } : {}),
    ...(stored.json_ld?.some((j) => j.types.includes('ClaimReview')) ? { factCheck: true } : {}),
  };
}

/**
 * Reads a page downloaded again (when the crawl kept nothing of it): the same main-content
 * rules and stored shape as the crawl, without the site-wide repetition only a whole crawl can show.
 */
export function readPageContent(html: string, url = '', budget: ContentBudget = AGENT_BUDGET): PageContent & { stored: StoredPageContent } {
  const facts = extractPageFacts(html, budget);
  const [main] = withoutSiteTemplate([facts.main ?? { headings: [], blocks: [] }]);
  // A page read alone knows no statuses of its links.
  const stored = storedPageContent(pageLanguage(url, facts), facts.wordCount, main!, { links_to_errors: [], links_to_redirects: [] });
  return { ...pageContentOf(facts.titles[0] ?? null, stored), stored };
}
