import type { Dispatcher } from 'undici';
import { extractPageFacts, type PageFacts } from '../crawler/extract.ts';
import { fetchOnce } from '../crawler/fetch-page.ts';
import { normalizeUrl } from '../crawler/urls.ts';
import { readPageContent, type PageContent } from './page-content.ts';
import { MAX_COMPLETIONS_PER_RUN, type LlmWriter } from './llm-writer.ts';
import type { Proposal } from './proposal.ts';

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
}

/** A page as read again by the agent to draft values from. */
export interface ReadPage {
  content: PageContent;
  facts: PageFacts;
}

/** At most this many pages are read (and redirects resolved) to draft values in one run; the rest wait for the next audit. */
export const MAX_READS_PER_RUN = 2000;
/** Pages read at once: gentler than the crawler, whose 8 the site has already borne. */
export const READ_CONCURRENCY = 4;
export const DEFERRED = `deferred: at most ${MAX_READS_PER_RUN} pages are read per run to draft values; the next audit goes on from here`;

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
  /** Every drafted or existing value, lower-cased: drafts must be unique across the site. */
  taken: { descriptions: Set<string>; titles: Set<string> };
  /** False for pages that ask not to be indexed or name another URL as canonical: their on-page details do not reach search results. */
  indexable(url: string): boolean;
  /** Findings of these checks, grouped by page URL. */
  byUrl(checkIds: readonly string[]): Map<string, AuditFinding[]>;
  evidence(finding: AuditFinding): Record<string, unknown>;
  /** The page re-read now; 'deferred' past the per-run budget; undefined when it does not answer 200. */
  read(url: string): Promise<ReadPage | 'deferred' | undefined>;
  /** Where a redirecting URL ends up (up to 10 hops); undefined for loops, errors or past the budget. */
  finalUrlOf(url: string): Promise<string | undefined>;
  /**
   * The drafted text, reworded by the LLM writer when one is configured and its answer
   * passes the same bounds, uniqueness and suffix rules; otherwise the draft itself.
   */
  polish(kind: 'meta_description' | 'title', draft: string, content: PageContent, bounds: [number, number], taken: ReadonlySet<string>): Promise<{ text: string; writer: string }>;
  propose(proposal: Proposal): Promise<void>;
  reject(type: string, target: string, reason: string): Promise<void>;
}

/** polish() for a run: at most MAX_COMPLETIONS_PER_RUN completions, each answer checked like a draft. */
export function createPolisher(llm: LlmWriter | undefined, siteSuffix: string): PlanningContext['polish'] {
  let completions = 0;
  return async (kind, draft, content, [min, max], taken) => {
    if (!llm || completions >= MAX_COMPLETIONS_PER_RUN) return { text: draft, writer: 'extractive' };
    completions += 1;
    const answer = await llm.rewrite(kind, draft, content, [min, max]);
    const keepsSuffix = kind !== 'title' || !siteSuffix || !draft.endsWith(siteSuffix) || answer?.endsWith(siteSuffix);
    const ok = answer !== undefined && answer.length >= min && answer.length <= max && !taken.has(answer.toLowerCase()) && keepsSuffix && !/[<>]/.test(answer);
    return ok ? { text: answer, writer: `llm:${llm.model}` } : { text: draft, writer: 'extractive' };
  };
}

export function createPageReader(options: { agent: Dispatcher; allowPrivate: boolean }) {
  let reads = 0;
  const cache = new Map<string, Promise<ReadPage | undefined>>();
  const finals = new Map<string, Promise<string | undefined>>();
  const fetchOptions = { agent: options.agent, allowPrivate: options.allowPrivate, maxBytes: 5 * 1024 * 1024, retries: 1 };
  const reader = {
    /** Starts reading these pages, READ_CONCURRENCY at a time, so planners find them ready. */
    prefetch(urls: Iterable<string>) {
      const queue = [...new Set(urls)];
      const next = async (): Promise<void> => {
        const url = queue.shift();
        if (url === undefined) return;
        await reader.read(url);
        return next();
      };
      return Promise.all(Array.from({ length: READ_CONCURRENCY }, next)).then(() => undefined);
    },
    read(url: string): Promise<ReadPage | 'deferred' | undefined> {
      const cached = cache.get(url);
      if (cached) return cached;
      if (reads >= MAX_READS_PER_RUN) return Promise.resolve('deferred');
      reads += 1;
      const loading = fetchOnce(url, { ...fetchOptions, keepBody: true }).then((page) =>
        page.status === 200 && page.body ? { content: readPageContent(page.body), facts: extractPageFacts(page.body) } : undefined,
      );
      cache.set(url, loading);
      return loading;
    },
    finalUrlOf(url: string): Promise<string | undefined> {
      const cached = finals.get(url);
      if (cached) return cached;
      if (reads >= MAX_READS_PER_RUN) return Promise.resolve(undefined);
      reads += 1;
      const resolving = (async () => {
        const seen = new Set<string>();
        let current = url;
        for (let hop = 0; hop < 10 && !seen.has(current); hop++) {
          seen.add(current);
          const page = await fetchOnce(current, fetchOptions); // GET: some servers refuse HEAD
          if (page.status >= 300 && page.status < 400 && page.location) {
            const next = normalizeUrl(page.location, current);
            if (!next) return undefined;
            current = next;
            continue;
          }
          return page.status === 200 ? current : undefined;
        }
        return undefined;
      })();
      finals.set(url, resolving);
      return resolving;
    },
  };
  return reader;
}
