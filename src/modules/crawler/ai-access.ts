import robotsParserModule from 'robots-parser';
import { KNOWN_CRAWLERS, type CrawlerPurpose } from './ai-crawlers.ts';
import { fetchOnce, type FetchOptions } from './fetch-page.ts';
import { validateLlmsTxt, type LlmsTxtProblem } from './llms-txt.ts';
import { normalizeUrl } from './urls.ts';

const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** Pages evaluated per crawler: a sample keeps 20 crawlers x 20,000 pages out of the audit's time. */
export const MAX_SAMPLED_URLS = 1000;

export interface CrawlerAccess {
  token: string;
  owner: string;
  purpose: CrawlerPurpose;
  control_token: boolean;
  home_allowed: boolean;
  /** null when the site has no sitemap. */
  sitemaps_allowed: boolean | null;
  blocked_sitemaps: string[];
  /** Share of the sampled audited pages it may fetch; null when no page was audited. */
  pages_allowed_share: number | null;
  /** Whether a group names the token, it falls under `*`, or no group applies. */
  matched_group: 'explicit' | 'wildcard' | 'none';
  /** Index of the (first) group naming it, to tell a shared group from one of its own. */
  group: number | null;
}

export interface RobotsInput {
  robotsUrl: string;
  status: number;
  body: string | undefined;
  homeUrl: string;
  sitemaps: string[];
  pageUrls: string[];
}

/**
 * A robots.txt that did not answer (a 5xx, or no response): RFC 9309 (2.3.1.4) has crawlers assume complete disallow,
 * and Google stops crawling the site until it answers.
 */
export const robotsUnavailable = (status: number) => status === 0 || status >= 500;

/** What each known crawler may fetch under the site's robots.txt (a missing file, or a 4xx, allows everything; one that did not answer, nothing). */
export function evaluateCrawlerAccess(input: RobotsInput): CrawlerAccess[] {
  const text = input.status >= 200 && input.status < 300 ? (input.body ?? '') : '';
  const robots = robotsParser(input.robotsUrl, text);
  const groups = groupsByAgent(text);
  const sample = evenSample(input.pageUrls, MAX_SAMPLED_URLS);
  const unavailable = robotsUnavailable(input.status);
  const answers = new Map<unknown, GroupAnswers>();
  return KNOWN_CRAWLERS.map((crawler) => {
    const key = rulesReadBy(robots, crawler.token);
    let answer = answers.get(key);
    if (!answer) {
      const allowed = (url: string) => !unavailable && robots.isAllowed(url, crawler.token) !== false;
      answer = {
        home: allowed(input.homeUrl),
        blocked: input.sitemaps.filter((url) => !allowed(url)),
        share: sample.length === 0 ? null : Number((sample.filter(allowed).length / sample.length).toFixed(4)),
      };
      answers.set(key, answer);
    }
    const group = groups.agents.get(crawler.token.toLowerCase());
    return {
      token: crawler.token,
      owner: crawler.owner,
      purpose: crawler.purpose,
      control_token: crawler.controlToken === true,
      home_allowed: answer.home,
      sitemaps_allowed: input.sitemaps.length === 0 ? null : answer.blocked.length === 0,
      blocked_sitemaps: [...answer.blocked],
      pages_allowed_share: answer.share,
      matched_group: group !== undefined ? 'explicit' : groups.wildcard ? 'wildcard' : 'none',
      group: group ?? null,
    };
  });
}

/** One group of robots.txt rules' answers: for the home page, the sitemaps (those blocked) and the sampled pages (the share allowed). */
interface GroupAnswers {
  home: boolean;
  blocked: string[];
  share: number | null;
}

/**
 * The rules robots-parser reads for a token: the group that names it, else `*`'s, else none (Robots.js _getRule, whose
 * answers depend on nothing else). Crawlers that read the same rules get the same answers, so each group's are worked
 * out once: 20 crawlers x 1,000 sampled pages cost ~40 ms at the end of every audit, and most robots.txt name few of
 * them. Should robots-parser keep its rules elsewhere one day, each token is its own key (no sharing, same answers).
 */
function rulesReadBy(robots: ReturnType<typeof robotsParser>, token: string): unknown {
  const rules = (robots as unknown as { _rules?: Record<string, unknown> })._rules;
  if (typeof rules !== 'object' || rules === null) return token;
  // robots-parser's formatUserAgent: lower case, without a /version, trimmed.
  const agent = token.toLowerCase().split('/')[0]!.trim();
  return rules[agent] || rules['*'] || NO_RULES;
}
const NO_RULES = Symbol('no rules');

/**
 * The group each user-agent line belongs to, read as robots-parser reads them: consecutive
 * User-agent lines share the rules that follow, and a User-agent line after a rule starts a new group.
 */
function groupsByAgent(text: string): { agents: Map<string, number>; wildcard: boolean } {
  const agents = new Map<string, number>();
  let group = -1;
  let inAgents = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    if (field !== 'user-agent') {
      inAgents = false;
      continue;
    }
    if (!inAgents) group += 1;
    inAgents = true;
    const agent = line.slice(colon + 1).trim().toLowerCase().split('/')[0]!.trim();
    if (agent && !agents.has(agent)) agents.set(agent, group);
  }
  const wildcard = agents.has('*');
  agents.delete('*');
  return { agents, wildcard };
}

/** At most n items spread evenly over the list (the crawl order runs from the home page outwards). */
export function evenSample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

export interface LlmsTxtReport {
  url: string;
  status: 'missing' | 'valid' | 'invalid';
  /** The HTTP status it answered (0: no answer). */
  http_status: number;
  problems: LlmsTxtProblem[];
}

/** The largest llms.txt read: the format is an index of links, not the content itself (that is llms-full.txt). */
export const LLMS_TXT_MAX_BYTES = 256 * 1024;
const MAX_LLMS_REDIRECTS = 3;

/**
 * Fetches /llms.txt once through the crawler's own fetch (its SSRF guard and size cap),
 * following a few same-site redirects (http to https, a trailing host change), and validates it.
 */
export async function readLlmsTxt(startUrl: string, options: FetchOptions, sameSiteUrl: (url: string) => boolean): Promise<LlmsTxtReport> {
  let url = new URL('/llms.txt', startUrl).href;
  for (let hop = 0; ; hop++) {
    const result = await fetchOnce(url, { ...options, keepBody: true, maxBytes: LLMS_TXT_MAX_BYTES, retries: 0 });
    const next = result.location ? normalizeUrl(result.location, url) : undefined;
    if (result.status >= 300 && result.status < 400 && next && sameSiteUrl(next) && hop < MAX_LLMS_REDIRECTS) {
      url = next;
      continue;
    }
    // A site that answers every path with its HTML page has no llms.txt, whatever the status says.
    const html = /html/i.test(result.contentType) && /^\s*</.test(result.body ?? '');
    if (result.status !== 200 || html) return { url, status: 'missing', http_status: result.status, problems: [] };
    const problems = validateLlmsTxt(result.body ?? '', url);
    if (result.truncated) problems.push({ rule: 'size', line: null, message: `Larger than ${LLMS_TXT_MAX_BYTES / 1024} KB: only the start was read` });
    return { url, status: problems.length === 0 ? 'valid' : 'invalid', http_status: result.status, problems };
  }
}
