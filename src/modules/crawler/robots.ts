import robotsParserModule from 'robots-parser';
import { USER_AGENT_TOKEN } from './fetch-page.ts';
import { normalizeUrl } from './urls.ts';

// A CommonJS module whose typings declare an ES default export: at run time the module is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  crawlDelayMs: number;
  sitemaps: string[];
  /** True when robots.txt disallows the whole site for us (the audit is capped for it). */
  blocksEverything: boolean;
}

/** robots.txt rules for our user agent; a missing or unreadable file allows everything. */
export function parseRobots(robotsUrl: string, status: number, body: string | undefined): RobotsRules {
  // 4xx: no rules. 5xx or no answer: Google treats the site as fully disallowed for a
  // while; an audit reports what it can, so it crawls but records the failure elsewhere.
  const text = status >= 200 && status < 300 ? (body ?? '') : '';
  const robots = robotsParser(robotsUrl, text);
  const home = new URL('/', robotsUrl).href;
  const delay = robots.getCrawlDelay(USER_AGENT_TOKEN) ?? 0;
  return {
    isAllowed: (url) => robots.isAllowed(url, USER_AGENT_TOKEN) !== false,
    crawlDelayMs: Math.min(delay, 30) * 1000,
    // The standard wants absolute URLs; relative ones are common enough to resolve.
    sitemaps: robots.getSitemaps().flatMap((s) => normalizeUrl(s, robotsUrl) ?? []),
    blocksEverything: robots.isAllowed(home, USER_AGENT_TOKEN) === false,
  };
}
