import type { Dispatcher } from 'undici';
import type { TaskPriority } from '../../db/types.ts';
import { extractPageFacts } from '../crawler/extract.ts';
import { fetchOnce } from '../crawler/fetch-page.ts';
import type { StoredPageContent } from '../crawler/main-content.ts';
import { normalizeUrl } from '../crawler/urls.ts';
import { pageContentOf, readPageContent, type PageContent } from './page-content.ts';
import { MAX_COMPLETIONS_PER_RUN, type LlmWriter } from './llm-writer.ts';
import type { Proposal } from './proposal.ts';
import { meetsDraftRules } from './writers.ts';
import { summarySaysOnlyWhat } from './drafting/says-only-what.ts';
import type { CopyGroup } from './planners/copies.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';

export interface AuditFinding {
  check_id: string;
  url: string;
  value: string | null;
}

export interface AuditPage {
  url: string;
  status: number | null;
  title: string | null;
  meta_description: string | null;
  /** Click depth from the home page; null when known only from a sitemap. */
  depth: number | null;
  /** Internal pages linking to it. */
  inlinks: number;
  content_hash: string | null;
  redirect_to: string | null;
}

/** A page as the agent drafts from it: what the crawl kept, or (when it kept nothing) the page downloaded again. */
export interface ReadPage {
  content: PageContent;
  stored: StoredPageContent;
  source: 'crawl' | 'download';
}

/** Where a redirecting URL ends, or why it cannot be said. */
export type FinalUrl = { url: string } | { reason: string };

/** At most this many pages are downloaded again (and redirects resolved) in one run, when the crawl kept nothing of them; the rest wait for the next audit. */
export const MAX_READS_PER_RUN = 2000;
/** Pages read at once: gentler than the crawler, whose 8 the site has already borne. */
export const READ_CONCURRENCY = 4;
export const DEFERRED = `deferred: the read budget is exhausted (at most ${MAX_READS_PER_RUN} pages are downloaded per run); the next audit goes on from here`;

/** Everything a planner sees and may do: the audit's evidence, page reads, and the two outcomes. */
export interface PlanningContext {
  siteId: string;
  auditId: string;
  foundAt: Date | null;
  homeUrl: string;
  pages: AuditPage[];
  pageByUrl: Map<string, AuditPage>;
  /** The titles' shared suffix (" | Shop"), '' when there is none. */
  siteSuffix: string;
  /** True on a CMS (WordPress, Shopify...) whose theme prints the site suffix after every title itself. */
  suffixFixed: boolean;
  /** The suffix a page's drafted title takes (its own language's, when its title has one): writers.suffixForPage. */
  suffixFor(url: string): string;
  /** Every drafted or existing value, lower-cased: drafts must be unique across the site. */
  taken: { descriptions: Set<string>; titles: Set<string> };
  /** Pages served under several URLs (planners/copies.ts): a copy's fix is its canonical (proposed by the meta planner). */
  copies: readonly CopyGroup[];
  /** The URL a copy copies: its on-page changes are made once, there (undefined for a page that is no copy). */
  copyOf(url: string): string | undefined;
  /** False for pages that ask not to be indexed or name another URL as canonical: their on-page details do not reach search results. */
  indexable(url: string): boolean;
  /** The audit's Core Web Vitals (Lighthouse per template page, the Chrome UX Report), null when none were measured. */
  pageSpeed(): Promise<PageSpeedReport | null>;
  /** Findings of these checks, grouped by page URL. */
  byUrl(checkIds: readonly string[]): Map<string, AuditFinding[]>;
  evidence(finding: AuditFinding): Record<string, unknown>;
  /** The page's own text as the crawl kept it (downloaded again only when it kept nothing); 'deferred' past the per-run budget; undefined when it does not answer 200. */
  read(url: string): Promise<ReadPage | 'deferred' | undefined>;
  /** The page downloaded now, with its links (for link fixes: the crawl keeps no link lists). */
  download(url: string): Promise<DownloadedPage | 'deferred' | undefined>;
  /** Where a redirecting URL ends up (up to 10 hops): from the crawl's redirects, else followed now. */
  finalUrlOf(url: string): Promise<FinalUrl>;
  /**
   * The drafted text, reworded by the LLM writer when one is configured and its answer
   * passes the same bounds, uniqueness and suffix rules; otherwise the draft itself.
   */
  polish(kind: 'meta_description' | 'title', draft: string, content: PageContent, bounds: [number, number], taken: ReadonlySet<string>): Promise<{ text: string; writer: string }>;
  /**
   * A description written by the LLM writer from the page's headline and opening, when one is configured, for a page none of
   * whose sentences can be one; proposed only when it passes a draft's rules and says only what that text says.
   */
  summarise(content: PageContent, bounds: [number, number], taken: ReadonlySet<string>): Promise<{ text: string; writer: string } | undefined>;
  /** Pages an open proposal of this type already covers (one page each, or the pages of one task covering several). */
  covered(type: string): ReadonlySet<string>;
  /** Priority of a page-level fix from the page's weight in the site (proposal.ts prioritiesByWeight). */
  pagePriority(url: string): TaskPriority;
  propose(proposal: Proposal): Promise<void>;
  /** Records a refusal: its reason in words, and the id of the drafting rule that decided it, when one did. */
  reject(type: string, target: string, reason: string, rule?: string): Promise<void>;
}

/** A model's answer meets what any draft of its kind must: the draft rules, the bounds, unused on the site, no markup. */
const answerPasses = (kind: 'meta_description' | 'title', answer: string | undefined, [min, max]: [number, number], taken: ReadonlySet<string>): answer is string =>
  answer !== undefined && meetsDraftRules(kind, answer) && answer.length >= min && answer.length <= max && !taken.has(answer.toLowerCase()) && !/[<>]/.test(answer);

/** polish() for a run: at most MAX_COMPLETIONS_PER_RUN completions, each answer checked like a draft. */
export function createPolisher(llm: LlmWriter | undefined, siteSuffix: string): PlanningContext['polish'] {
  let completions = 0;
  return async (kind, draft, content, bounds, taken) => {
    if (!llm || completions >= MAX_COMPLETIONS_PER_RUN) return { text: draft, writer: 'extractive' };
    completions += 1;
    const answer = await llm.rewrite(kind, draft, content, bounds);
    const keepsSuffix = kind !== 'title' || !siteSuffix || !draft.endsWith(siteSuffix) || answer?.endsWith(siteSuffix);
    return answerPasses(kind, answer, bounds, taken) && keepsSuffix ? { text: answer, writer: `llm:${llm.model}` } : { text: draft, writer: 'extractive' };
  };
}

/** The summaries a strategy run has asked for: at most MAX_COMPLETIONS_PER_RUN. */
export type CompletionBudget = { used: number };

/** The page's opening a summary is written from: its first paragraphs of prose, up to this many characters. */
const OPENING_CHARS = 1500;
/** A paragraph of the opening: a sentence or more (a byline, a date or a caption is shorter). */
const OPENING_PARAGRAPH_CHARS = 60;
/** Scripts written without spaces between words: the check that a summary says only what the page says reads words by spaces. */
const UNSPACED = /^(?:zh|ja|th|lo|km|my)\b/iu;

/** summarise() for a run: at most MAX_COMPLETIONS_PER_RUN summaries. */
export function createSummariser(llm: LlmWriter | undefined, budget: CompletionBudget = { used: 0 }): PlanningContext['summarise'] {
  return async (content, bounds, taken) => {
    if (!llm || budget.used >= MAX_COMPLETIONS_PER_RUN || UNSPACED.test(content.lang ?? '')) return undefined;
    let opening = '';
    for (const paragraph of content.paragraphs) {
      if (paragraph.length < OPENING_PARAGRAPH_CHARS) continue;
      if (opening.length + paragraph.length > OPENING_CHARS && opening !== '') break;
      opening += `${opening === '' ? '' : '\n'}${paragraph.slice(0, OPENING_CHARS)}`;
    }
    if (opening === '') return undefined;
    budget.used += 1;
    const answer = await llm.summarise(content, opening, bounds);
    // (Nor a question: a summary says what the page is.)
    return answerPasses('meta_description', answer, bounds, taken) && !answer.includes('?') && summarySaysOnlyWhat(answer, `${content.h1} ${content.title} ${opening}`)
      ? { text: answer, writer: `llm:${llm.model}` } : undefined;
  };
}

export interface DownloadedPage extends ReadPage {
  links: Array<{ href: string }>;
}

/**
 * The agent's access to page text: the crawl's stored content of the pages planners draft
 * from, loaded in one query (load), and a network read only for what the crawl did not keep.
 */
export function createPageReader(options: {
  agent: Dispatcher;
  allowPrivate: PrivateTargets;
  pageByUrl: ReadonlyMap<string, AuditPage>;
  storedContents: (urls: readonly string[]) => Promise<Array<{ url: string; content: unknown }>>;
}) {
  let reads = 0;
  const stored = new Map<string, StoredPageContent>();
  const downloads = new Map<string, Promise<DownloadedPage | undefined>>();
  const finals = new Map<string, Promise<FinalUrl>>();
  const fetchOptions = { agent: options.agent, allowPrivate: options.allowPrivate, maxBytes: 5 * 1024 * 1024, retries: 1 };
  const reader = {
    /** Loads what the crawl kept of these pages (1,000 per query). */
    async load(urls: Iterable<string>) {
      const wanted = [...new Set(urls)].filter((url) => !stored.has(url));
      for (let i = 0; i < wanted.length; i += 1000) {
        for (const row of await options.storedContents(wanted.slice(i, i + 1000))) {
          if (row.content && typeof row.content === 'object') stored.set(row.url, row.content as StoredPageContent);
        }
      }
    },
    /** Downloads the pages the crawl kept nothing of, READ_CONCURRENCY at a time, so planners find them ready. */
    prefetch(urls: Iterable<string>) {
      const queue = [...new Set(urls)].filter((url) => !stored.has(url) && options.pageByUrl.get(url)?.status === 200);
      const next = async (): Promise<void> => {
        const url = queue.shift();
        if (url === undefined) return;
        await reader.download(url);
        return next();
      };
      return Promise.all(Array.from({ length: READ_CONCURRENCY }, next)).then(() => undefined);
    },
    async read(url: string): Promise<ReadPage | 'deferred' | undefined> {
      const kept = stored.get(url);
      if (kept) return { content: pageContentOf(options.pageByUrl.get(url)?.title ?? null, kept), stored: kept, source: 'crawl' };
      return reader.download(url);
    },
    download(url: string): Promise<DownloadedPage | 'deferred' | undefined> {
      const cached = downloads.get(url);
      if (cached) return cached;
      if (reads >= MAX_READS_PER_RUN) return Promise.resolve('deferred');
      reads += 1;
      const loading = fetchOnce(url, { ...fetchOptions, keepBody: true }).then((page): DownloadedPage | undefined => {
        if (page.status !== 200 || !page.body) return undefined;
        const { stored: kept, ...content } = readPageContent(page.body, url);
        return { content, stored: kept, source: 'download', links: extractPageFacts(page.body).links };
      });
      downloads.set(url, loading);
      return loading;
    },
    finalUrlOf(url: string): Promise<FinalUrl> {
      const known = finalFromCrawl(url, options.pageByUrl);
      if (known) return Promise.resolve(known);
      const cached = finals.get(url);
      if (cached) return cached;
      if (reads >= MAX_READS_PER_RUN) return Promise.resolve({ reason: DEFERRED });
      reads += 1;
      const resolving = (async (): Promise<FinalUrl> => {
        const seen = new Set<string>();
        let current = url;
        for (let hop = 0; hop < 10; hop++) {
          if (seen.has(current)) return { reason: `the redirects loop back to ${current}` };
          seen.add(current);
          const page = await fetchOnce(current, fetchOptions); // GET: some servers refuse HEAD
          if (page.status >= 300 && page.status < 400 && page.location) {
            const next = normalizeUrl(page.location, current);
            if (!next) return { reason: `${current} redirects to an invalid URL` };
            current = next;
            continue;
          }
          return page.status === 200 ? { url: current } : { reason: `the redirects end at ${current}, which answers ${page.status || page.error || 'nothing'}` };
        }
        return { reason: 'more than 10 redirects' };
      })();
      finals.set(url, resolving);
      return resolving;
    },
  };
  return reader;
}

/** The end of a redirect chain as the crawl recorded it, when the crawl saw every hop and the end. */
function finalFromCrawl(url: string, pages: ReadonlyMap<string, AuditPage>): FinalUrl | undefined {
  const seen = new Set<string>();
  let current = url;
  for (let hop = 0; hop <= 10; hop++) {
    if (seen.has(current)) return { reason: `the redirects loop back to ${current}` };
    seen.add(current);
    const page = pages.get(current);
    if (!page || page.status === null) return undefined;
    if (page.status === 200) return { url: current };
    if (page.status >= 300 && page.status < 400) {
      if (!page.redirect_to) return undefined;
      current = page.redirect_to;
      continue;
    }
    return { reason: `the redirects end at ${current}, which answers ${page.status}` };
  }
  return { reason: 'more than 10 redirects' };
}
