import type { AiAccess } from '../crawler/crawl.ts';
import { robotsUnavailable, type CrawlerAccess } from '../crawler/ai-access.ts';
import type { Findings } from './findings.ts';
import { KNOWN_CRAWLERS } from '../crawler/ai-crawlers.ts';

const SEARCH_ENGINES = new Set(KNOWN_CRAWLERS.filter((c) => c.searchEngine).map((c) => c.token));

/** What a blocked crawler costs the site, by the crawler's purpose. */
const CONSEQUENCE: Record<'search' | 'user', (c: CrawlerAccess) => string> = {
  search: (c) => `${c.token} (${c.owner}, search): the site is not shown or cited in ${c.owner}'s answers`,
  user: (c) => `${c.token} (${c.owner}, fetches for a user): ${c.owner}'s assistant cannot read the page a user asks about`,
};

/**
 * Findings from the AI-access report. A blocked training crawler is never one by itself
 * (the owner's policy); a blocked search or user crawler is reported with its consequence;
 * a search crawler blocked by the very rule that opts the owner out of training is flagged
 * as a likely slip: by the wildcard group, or in one group with the training token.
 */
export function checkAiAccess(access: AiAccess, robotsUrl: string, findings: Findings) {
  const { crawlers } = access;
  // Every crawler is kept out while robots.txt does not answer: one finding says so (site-checks), not one a crawler.
  if (robotsUnavailable(access.robots_status)) return checkLlmsTxt(access, findings);
  for (const crawler of crawlers) {
    if (crawler.purpose === 'training') continue;
    if (!crawler.home_allowed) {
      // A group naming the engine; a "*" group that blocks everything is robots_txt_blocks_all's (critical) already.
      const engine = SEARCH_ENGINES.has(crawler.token) && crawler.matched_group === 'explicit';
      findings.add(engine ? 'search_engine_blocked_home' : 'search_crawler_blocked_home', robotsUrl, CONSEQUENCE[crawler.purpose](crawler));
    }
    else if (crawler.sitemaps_allowed === false) {
      findings.add('sitemap_blocked_for_crawler', robotsUrl, `${crawler.token}: ${crawler.blocked_sitemaps.slice(0, 3).join(' , ')}`);
    }
  }
  for (const search of crawlers) {
    if (search.purpose === 'training' || search.home_allowed) continue;
    const optOut = crawlers.find((t) => t.purpose === 'training' && t.owner === search.owner && !t.home_allowed && t.matched_group === 'explicit');
    if (!optOut) continue;
    const sameRule = search.matched_group === 'wildcard' || (search.group !== null && search.group === optOut.group);
    if (sameRule) {
      const how = search.matched_group === 'wildcard' ? 'falls under the "*" group' : `shares ${optOut.token}'s group`;
      findings.add('ai_crawler_block_contradiction', robotsUrl, `${optOut.token} is disallowed (training opt-out) and ${search.token} (${search.purpose}) ${how}, so it is blocked too`);
    }
  }
  checkLlmsTxt(access, findings);
}

function checkLlmsTxt(access: AiAccess, findings: Findings) {
  const llms = access.llms_txt;
  if (llms.status === 'missing') findings.add('llms_txt_missing', llms.url);
  if (llms.status === 'invalid') {
    findings.add('llms_txt_invalid', llms.url, llms.problems.slice(0, 5).map((p) => (p.line ? `line ${p.line}: ${p.message}` : p.message)).join('; '));
  }
}
