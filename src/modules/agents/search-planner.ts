import type { FastifyBaseLogger } from 'fastify';
import type { TaskPriority } from '../../db/types.ts';
import type { KeywordsService } from '../keywords/keywords.service.ts';
import { expectedCtr } from '../search-data/ctr-curve.ts';
import type { SearchDataService } from '../search-data/search-data.service.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { AgentsRepo } from './agents.repo.ts';
import { gateFailure } from './gates.ts';
import type { Proposal } from './proposal.ts';


/** Thresholds of the search-data task types (documented in the README). */
const LOW_CTR = { minImpressions: 500, share: 0.5, maxPosition: 10 };
const QUICK_WIN = { minImpressions: 100, from: 4, to: 20 };
const NEW_CONTENT = { minImpressions: 50, beyond: 20 };
const DECLINE = { minPreviousClicks: 20, drop: 0.3 };
const CANNIBAL = { minShare: 0.2, minImpressions: 100, worseThan: 5 };
const MAX_PER_TYPE = 25;

/** Priority from traffic: what a fix can move. */
const byTraffic = (impressions: number): TaskPriority => (impressions >= 5000 ? 'high' : impressions >= 1000 ? 'medium' : 'low');

/**
 * The strategy agent's search-data planner: runs after each Search Console sync and turns
 * the last 28 days of query and page data (against the 28 before) into proposals. Every
 * proposal carries the metrics that justify it and the sync they come from.
 */
export function createSearchPlanner(deps: {
  search: Pick<SearchDataService, 'pagePerformance' | 'splitQueries'>;
  keywords: Pick<KeywordsService, 'rankedForPlanning'>;
  sites: Pick<SitesService, 'searchSyncedAt'>;
  tasks: Pick<TasksService, 'propose'>;
  repo: AgentsRepo;
  log: FastifyBaseLogger;
}) {
  return {
    async proposeFromSearch(siteId: string): Promise<{ proposed: number; rejected: number }> {
      const syncedAt = await deps.sites.searchSyncedAt(siteId);
      let proposed = 0;
      let rejected = 0;
      const reject = async (type: string, target: string, reason: string) => {
        rejected += 1;
        await deps.repo.recordRejection({ siteId, auditId: null, type, target, reason });
      };
      const propose = async (p: Proposal) => {
        const reason = gateFailure(p);
        if (reason) return reject(p.type, p.target, reason);
        if (await deps.tasks.propose({ siteId, ...p })) proposed += 1;
        else await reject(p.type, p.target, 'an open task of this type already covers this target');
      };
      if (!syncedAt) return { proposed, rejected };
      const evidence = (metrics: Record<string, unknown>) => [{ source: 'search_console', window_days: 28, synced_at: syncedAt, ...metrics }];

      // Pages over the last 28 days of data and the 28 before.
      const pages = await deps.search.pagePerformance(siteId);

      const lowCtr = pages
        .filter((p) => p.impressions >= LOW_CTR.minImpressions && p.position <= LOW_CTR.maxPosition && p.clicks / p.impressions < LOW_CTR.share * expectedCtr(p.position))
        .sort((a, b) => b.impressions - a.impressions).slice(0, MAX_PER_TYPE);
      for (const p of lowCtr) {
        const ctr = p.clicks / p.impressions;
        await propose({
          type: 'optimize_title_tag', category: 'seo', priority: byTraffic(p.impressions),
          title: 'Rewrite a title that searchers skip',
          description: `${p.page} ranks at ${p.position.toFixed(1)} but only ${(ctr * 100).toFixed(1)}% click (about ${(expectedCtr(p.position) * 100).toFixed(1)}% is usual there).`,
          target: p.page,
          configuration: {
            url: p.page, top_query: p.top_query, position: round(p.position), ctr: round(ctr, 4), expected_ctr: round(expectedCtr(p.position), 4),
            instructions: `Rewrite the title and meta description of ${p.page} around "${p.top_query}": lead with it, say what the page offers that others do not, keep the title under 60 characters.`,
          },
          evidence: evidence({ url: p.page, clicks: p.clicks, impressions: p.impressions, position: round(p.position), ctr: round(ctr, 4) }),
        });
      }

      const declining = pages
        .filter((p) => p.prev_clicks >= DECLINE.minPreviousClicks && p.clicks <= (1 - DECLINE.drop) * p.prev_clicks)
        .sort((a, b) => b.prev_clicks - b.clicks - (a.prev_clicks - a.clicks)).slice(0, MAX_PER_TYPE);
      for (const p of declining) {
        await propose({
          type: 'refresh_declining_content', category: 'content', priority: byTraffic(p.impressions),
          title: 'Refresh a page that is losing clicks',
          description: `${p.page} had ${p.prev_clicks} clicks in the 28 days before and ${p.clicks} in the last 28.`,
          target: p.page,
          configuration: {
            url: p.page, clicks: p.clicks, previous_clicks: p.prev_clicks, top_query: p.top_query,
            instructions: `Update ${p.page}: check what now ranks above it for "${p.top_query}", bring facts and dates up to date, answer the questions it misses, and re-submit it in Search Console.`,
          },
          evidence: evidence({ url: p.page, clicks: p.clicks, previous_clicks: p.prev_clicks, impressions: p.impressions }),
        });
      }

      const keywords = await deps.keywords.rankedForPlanning(siteId);
      const quickWins = keywords.filter((k) => k.current_position! >= QUICK_WIN.from && k.current_position! <= QUICK_WIN.to && k.impressions_28d >= QUICK_WIN.minImpressions).slice(0, MAX_PER_TYPE);
      for (const k of quickWins) {
        await propose({
          type: 'prioritize_quick_wins', category: 'strategy', priority: byTraffic(k.impressions_28d),
          title: `Push "${k.keyword}" onto the first results`,
          description: `"${k.keyword}" is at position ${k.current_position} with ${k.impressions_28d} impressions in 28 days: a few places up is where clicks start.`,
          target: `keyword:${k.keyword}`,
          configuration: {
            keyword: k.keyword, url: k.url, position: k.current_position,
            instructions: `On ${k.url}: use "${k.keyword}" in the title and h1, answer it in the first paragraph, and link to the page with it as anchor text from two related pages.`,
          },
          evidence: evidence({ keyword: k.keyword, url: k.url, position: k.current_position, impressions: k.impressions_28d, clicks: k.clicks_28d }),
        });
      }
      const gaps = keywords.filter((k) => k.current_position! > NEW_CONTENT.beyond && k.impressions_28d >= NEW_CONTENT.minImpressions).slice(0, MAX_PER_TYPE);
      for (const k of gaps) {
        await propose({
          type: 'create_content_for_keyword', category: 'research', priority: byTraffic(k.impressions_28d),
          title: `Write a page for "${k.keyword}"`,
          description: `Searchers see the site for "${k.keyword}" ${k.impressions_28d} times in 28 days, but only at position ${k.current_position}: no page answers it.`,
          target: `keyword:${k.keyword}`,
          configuration: {
            keyword: k.keyword, current_url: k.url, position: k.current_position,
            instructions: `Write a page whose subject is "${k.keyword}": put it in the title, h1 and URL, answer it fully, and link to it from ${k.url}.`,
          },
          evidence: evidence({ keyword: k.keyword, url: k.url, position: k.current_position, impressions: k.impressions_28d }),
        });
      }

      // Queries where two or more pages of the site split the impressions and none ranks well.
      const split = await deps.search.splitQueries(siteId, { ...CANNIBAL, limit: MAX_PER_TYPE });
      for (const q of split) {
        await propose({
          type: 'consolidate_cannibalized_pages', category: 'strategy', priority: byTraffic(q.impressions),
          title: `Merge the pages competing for "${q.query}"`,
          description: `${q.pages.length} pages of the site share the impressions for "${q.query}" and none ranks in the top 5.`,
          target: `query:${q.query}`,
          configuration: {
            query: q.query, pages: q.pages,
            instructions: `Keep ${q.pages[0]!.page} for "${q.query}": merge the useful parts of the others into it, redirect them (301) to it, and point internal links at it.`,
          },
          evidence: evidence({ query: q.query, impressions: q.impressions, pages: q.pages }),
        });
      }
      deps.log.info({ siteId, proposed, rejected }, 'search-data proposals');
      return { proposed, rejected };
    },
  };
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export type SearchPlanner = ReturnType<typeof createSearchPlanner>;
