import type { PageFacts } from './extract.ts';
import type { TrapPattern } from './traps.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import type { CrawlerAccess, LlmsTxtReport } from './ai-access.ts';
import type { PageRendering } from './render-compare.ts';
import type { RenderingMode } from './render-rules.ts';

export interface CrawlOptions {
  /** The site's domain as stored: a host name, or host:port for private targets. */
  domain: string;
  maxPages: number;
  maxDepth?: number;
  allowPrivate: PrivateTargets;
  concurrency?: number;
  timeoutMs?: number;
  maxBytes?: number;
  onProgress?: (progress: { crawled: number; discovered: number }) => void;
  /** Each page once its record is final, with the URL the crawl started from (streaming checks). */
  onPage?: (page: CrawledPage, startUrl: string) => void;
  signal?: AbortSignal;
  /** JavaScript rendering (render-rules.ts); raw HTML only without it. */
  rendering?: RenderingOptions;
}

export interface RenderingOptions {
  mode: RenderingMode;
  /** The Chromium to render with (config.chromiumPath); without one, nothing is rendered and the summary says why. */
  chromiumPath: string | undefined;
  concurrency?: number;
  timeoutMs?: number;
}

/** How the crawl rendered pages (audits.rendering; GET /audits/{id}/rendering). */
export interface RenderingSummary {
  mode: RenderingMode;
  /** Whether pages could be rendered: false when Chromium is missing or did not start (see unavailable). */
  available: boolean;
  unavailable?: string;
  rendered: number;
  failed: number;
  /** Pages rendered, by reason (render-rules.ts RenderReason). */
  by_reason: Record<string, number>;
  /** In auto: whether the template sample showed JavaScript adding content, so every page was rendered. */
  template_renders_content: boolean;
  /** Rendering's share of the crawl: total render time, and Chromium's peak memory (bytes; 0 where not measured). */
  render_ms: number;
  peak_memory_bytes: number;
}

export interface CrawledPage {
  url: string;
  /** Link depth at which the crawler found it; null when known only from a sitemap. */
  depth: number | null;
  /** HTTP status, 0 when nothing answered (see error), null when robots.txt kept us out. */
  status: number | null;
  error?: string;
  blockedByRobots: boolean;
  redirectChain: Array<{ url: string; status: number }>;
  redirectTarget?: string;
  redirectLoop?: boolean;
  contentType: string;
  ttfbMs: number;
  truncated: boolean;
  xRobotsTag: string[];
  hsts: boolean;
  facts?: PageFacts;
  /** Ids (indexes into CrawlResult.urls) of the internal URLs this page links to. */
  outlinks: Int32Array;
  /** Same-site image URLs the page embeds (their sizes are in CrawlResult.imageBytes). */
  images: string[];
  /** Fetched, then found to be a crawl trap's copy of another page: left out of the checks and the shares. */
  trap?: boolean;
  /** Hashes (sorted) of the ids and <a name>s a fragment link can point at. */
  anchors?: Int32Array;
  /** The Content-Type header and the page name different charsets ("header X, page Y"). */
  charsetConflict?: string;
  /** Rendered in Chromium: raw against rendered (facts are then the rendered page's). */
  rendering?: PageRendering;
}

export interface SitemapFetched {
  url: string;
  status: number;
  error?: string;
  /** What the file turned out to be; 'invalid' is not a sitemap whatever its name. */
  kind?: 'urlset' | 'sitemapindex' | 'invalid';
  /** Why it is invalid or breaks the protocol's limits (also: URLs of another host). */
  problem?: string;
}

export interface CrawlResult {
  startUrl: string;
  pages: CrawledPage[];
  /** Every internal URL seen, by id. */
  urls: string[];
  sitemapUrls: Set<string>;
  sitemapsFetched: SitemapFetched[];
  robots: { status: number; blocksEverything: boolean };
  homeHeaders: Record<string, string>;
  stoppedAtPageCap: boolean;
  /** The page budget the crawl had (max_pages). */
  pageCap: number;
  /** Discovered URLs left uncrawled when the crawl stopped (at the cap, or cancelled). */
  uncrawled: number;
  /** Crawl traps met: each pattern with how many URLs it kept out and examples. */
  traps: TrapPattern[];
  /** Links to a #fragment of an internal page, to check against the target's anchors. */
  fragmentLinks: Array<{ from: string; to: string; fragment: string }>;
  /** Set when the site itself did not answer (no response for its home page): why. */
  unreachable?: string;
  /** Sizes in bytes of the same-site images the pages embed, from HEAD requests (Content-Length). */
  imageBytes: Map<string, number>;
  /** What the home page and well-known paths say about the platform behind the site. */
  platformHints: { homeAssets: string[]; wordpressApi: boolean };
  /** What each known search and AI crawler may fetch, and the site's /llms.txt (absent from crawls built by hand in tests). */
  aiAccess?: AiAccess;
  /** How pages were rendered (absent from crawls built by hand in tests, and when the crawl had no rendering options). */
  rendering?: RenderingSummary;
}

export interface AiAccess {
  /** robots.txt's HTTP status (0: no answer); the rules are read only from a 2xx. */
  robots_status: number;
  crawlers: CrawlerAccess[];
  llms_txt: LlmsTxtReport;
}
