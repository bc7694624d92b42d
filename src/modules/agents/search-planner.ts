import type { FastifyBaseLogger } from 'fastify';
import type { TaskPriority } from '../../db/types.ts';
import type { AuditsService } from '../audits/audits.service.ts';
import type { KeywordsService } from '../keywords/keywords.service.ts';
import { fitCtrCurve } from '../search-data/ctr-curve.ts';
import { fromBetterSnippet, fromMovingUp, fromNewPage, fromRecovery, type Curve, type ExpectedClicks } from '../search-data/expected-clicks.ts';
import type { SearchDataService } from '../search-data/search-data.service.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { AgentsRepo } from './agents.repo.ts';
import { gateFailure } from './gates.ts';
import type { Proposal } from './proposal.ts';
import { holdsQuery, sameFamily, topicWordsOf } from '../../lib/query-words.ts';
import { planTitles, type TitleCandidate } from './planners/query-titles-plan.ts';
import { createLinkSources } from './link-sources.ts';
import { createSearchPages, type SearchPage } from './search-pages.ts';

/** Thresholds of the search-data task types (documented in the README). */
const LOW_CTR = { minImpressions: 500, share: 0.5, maxPosition: 10 };
const QUICK_WIN = { minImpressions: 100, from: 4, to: 20 };
const NEW_CONTENT = { minImpressions: 50, beyond: 20 };
const DECLINE = { minPreviousClicks: 20, drop: 0.3 };
const CANNIBAL = { minShare: 0.2, minImpressions: 100, worseThan: 5 };
const MAX_PER_TYPE = 25;
/** A brief names at most this many pages to link from, and a new page's brief this many related queries. */
const LINK_FROM = 3;
const RELATED = 8;

/** Priority from what the proposal is worth: 100+ expected clicks in 28 days high, 20+ medium. */
export const priorityOfGain = (e: ExpectedClicks): TaskPriority => (e.clicks >= 100 ? 'high' : e.clicks >= 20 ? 'medium' : 'low');

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
/**
 * The strategy agent's search-data planner: runs after each Search Console sync and turns
 * the last 28 days of query and page data (against the 28 before) into proposals, each with
 * the clicks it is expected to bring (from the site's own CTR curve). A query that its page's
 * title does not say gets that page's new title; one title per page, the larger gain first.
 */
export function createSearchPlanner(deps: {
  search: Pick<SearchDataService, 'pagePerformance' | 'splitQueries' | 'ctrByPosition'>;
  keywords: Pick<KeywordsService, 'rankedForPlanning'>;
  sites: Pick<SitesService, 'searchSyncedAt'>;
  audits: Pick<AuditsService, 'latestCompleted' | 'pages' | 'pageContents'>;
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
        const outcome = await deps.tasks.propose({ siteId, ...p });
        if ('id' in outcome) proposed += 1;
        else await reject(p.type, p.target, outcome.refused);
      };
      if (!syncedAt) return { proposed, rejected };
      const evidence = (metrics: Record<string, unknown>) => [{ source: 'search_console', window_days: 28, synced_at: syncedAt, ...metrics }];

      const fitted = fitCtrCurve(await deps.search.ctrByPosition(siteId));
      const curve: Curve = fitted;
      const curveEvidence = {
        ctr_curve: fitted.basis === 'site'
          ? `this site's own, fitted on ${fitted.impressions.toLocaleString('en')} impressions at positions 1-20 (90 days)`
          : 'the published curve (Sistrix 2020): the site has too little data for its own',
      };
      const [pages, keywords] = await Promise.all([deps.search.pagePerformance(siteId), deps.keywords.rankedForPlanning(siteId)]);
      const audited = await createSearchPages(deps.audits, siteId);
      // The queries each page brings clicks for now (a new title must not drop one worth more than it gains).
      const queriesByPage = new Map<string, Array<{ query: string; clicks: number }>>();
      for (const k of keywords) if (k.url) queriesByPage.set(k.url, [...(queriesByPage.get(k.url) ?? []), { query: k.keyword, clicks: k.clicks_28d }]);
      await audited.load([...new Set([...pages.map((p) => p.page), ...keywords.flatMap((k) => (k.url ? [k.url] : []))])]);
      // Pages of the site about a query's topic: where links to a page, or to a new one, belong.
      const sources = createLinkSources(audited.all());
      const linkFrom = (query: string, except: string | null) => sources.from(query, except, LINK_FROM);
      const refs = (list: SearchPage[]) => list.map((p) => ({ url: p.url, title: p.title }));

      // Titles: pages searchers skip (their top query) and quick wins, one title per page.
      const candidates: TitleCandidate[] = [];
      const lowCtr = pages
        .filter((p) => p.impressions >= LOW_CTR.minImpressions && p.position <= LOW_CTR.maxPosition && p.clicks / p.impressions < LOW_CTR.share * curve.curve(p.position))
        .sort((a, b) => b.impressions - a.impressions).slice(0, MAX_PER_TYPE);
      for (const p of lowCtr) candidates.push({ type: 'optimize_title_tag', query: p.top_query, url: p.page, expected: fromBetterSnippet(p, curve) });
      const quickWins = keywords
        .filter((k) => k.url && k.current_position! >= QUICK_WIN.from && k.current_position! <= QUICK_WIN.to && k.impressions_28d >= QUICK_WIN.minImpressions);
      const keywordOf = new Map(quickWins.map((k) => [k.keyword, k]));
      for (const k of quickWins) {
        candidates.push({
          type: 'prioritize_quick_wins', query: k.keyword, url: k.url!,
          expected: fromMovingUp({ impressions: k.impressions_28d, clicks: k.clicks_28d, position: k.current_position! }, curve),
        });
      }
      const lowCtrOf = new Map(lowCtr.map((p) => [p.page, p]));
      const clicksOfPage = new Map(pages.map((p) => [p.page, p.clicks]));
      const strengthened = new Set<string>();
      let titles = 0;
      for (const plan of planTitles(candidates, (url) => audited.get(url), (url) => queriesByPage.get(url) ?? [])) {
        const { candidate: c } = plan;
        const target = c.type === 'optimize_title_tag' ? c.url : `keyword:${c.query}`;
        if (plan.kind === 'refused') { await reject(c.type, target, plan.reason); continue; }
        // The page as the audit knows it: its address as the site writes it (Search Console's may differ by a slash).
        const page = audited.get(c.url)!;
        const url = page.url;
        if (plan.kind === 'elsewhere') {
          if (c.type === 'optimize_title_tag') {
            await reject(c.type, target, `its title already says "${c.query}": the clicks it misses are lost to the snippet or to what the results page shows above it, not to the title`);
            continue;
          }
          // A page gets one such brief, for its query worth most; its other queries would ask the same links.
          if (strengthened.has(url)) { await reject('strengthen_page_for_query', target, `a brief for ${url} already asks for its links`); continue; }
          strengthened.add(url);
          const k = keywordOf.get(c.query)!;
          const from = linkFrom(c.query, url);
          const opening = holdsQuery(page.opening, c.query);
          await propose({
            type: 'strengthen_page_for_query', category: 'strategy', priority: priorityOfGain(c.expected),
            title: `Help "${c.query}" up from position ${k.current_position}`,
            description: `"${c.query}" is at position ${k.current_position} with ${k.impressions_28d} impressions in 28 days, and ${url}'s title already says it: links from related pages${opening ? '' : ' and an opening that answers it'} are what is missing.`,
            target,
            configuration: {
              keyword: c.query, url, position: k.current_position!, link_from: refs(from), opening_says_query: opening,
              instructions: [
                ...(from.length > 0 ? [`Link to ${url} with the words "${c.query}" (or close to them) as the link text from: ${from.map((p) => p.url).join(', ')}.`] : []),
                ...(opening ? [] : [`Make the opening paragraph of ${url} answer "${c.query}" in its first two sentences.`]),
              ].join(' '),
            },
            evidence: evidence({ keyword: c.query, url, position: k.current_position, impressions: k.impressions_28d, clicks: k.clicks_28d, ...curveEvidence }),
            expectedClicks: c.expected,
          });
          continue;
        }
        if (titles++ >= MAX_PER_TYPE * 2) { await reject(c.type, target, 'more title proposals than a queue can review at once: the ones worth most were proposed'); continue; }
        const served = plan.alsoServes.map((s) => s.query);
        const expected = plan.alsoServes.reduce<ExpectedClicks>((sum, s) => ({
          ...sum, clicks: sum.clicks + s.expected.clicks, low: sum.low + s.expected.low, high: sum.high + s.expected.high,
          method: `${sum.method}; and for "${s.query}": ${s.expected.method}`,
        }), c.expected);
        const also = served.length > 0 ? ` It also says ${served.map((q) => `"${q}"`).join(', ')}.` : '';
        // What the new title keeps of the current one, said as it is (never "keeps what the page is about" when it does not).
        const keeps = (query: string, alone = query) => (plan.kept ? `leads with ${query} and keeps "${plan.kept}" from the current title` : `is ${alone} alone, with the site's name`);
        const now = clicksOfPage.get(c.url);
        const current = now === undefined ? '' : ` The page has ${now} clicks from search in 28 days now.`;
        if (c.type === 'optimize_title_tag') {
          const p = lowCtrOf.get(c.url)!;
          const ctr = p.clicks / p.impressions;
          await propose({
            type: 'optimize_title_tag', category: 'seo', priority: priorityOfGain(expected),
            title: 'Rewrite a title that searchers skip',
            description: `${url} ranks at ${p.position.toFixed(1)} but only ${(ctr * 100).toFixed(1)}% click (about ${(curve.curve(p.position) * 100).toFixed(1)}% is usual there): its new title ${keeps(`its top query "${c.query}"`)}.${also}`,
            target: url,
            configuration: {
              url, field: 'title', before: plan.before, after: plan.after, also_serves: served,
              top_query: c.query, position: round(p.position), ctr: round(ctr, 4), expected_ctr: round(curve.curve(p.position), 4),
            },
            evidence: evidence({ url, clicks: p.clicks, impressions: p.impressions, position: round(p.position), ctr: round(ctr, 4), ...curveEvidence }),
            expectedClicks: expected,
          });
        } else {
          const k = keywordOf.get(c.query)!;
          await propose({
            type: 'prioritize_quick_wins', category: 'strategy', priority: priorityOfGain(expected),
            title: `Put "${c.query}" in the title of its page`,
            description: `"${c.query}" is at position ${k.current_position} with ${k.impressions_28d} impressions in 28 days, and ${url}'s title does not say it: the new title ${keeps('it', 'the query')}.${also}${current}`,
            // The page is what changes (and what the connector writes to): one open title proposal per page.
            target: url,
            configuration: { url, field: 'title', before: plan.before, after: plan.after, also_serves: served, keyword: c.query, position: k.current_position },
            evidence: evidence({ keyword: c.query, url, position: k.current_position, impressions: k.impressions_28d, clicks: k.clicks_28d, ...curveEvidence }),
            expectedClicks: expected,
          });
        }
      }

      const declining = pages
        .filter((p) => p.prev_clicks >= DECLINE.minPreviousClicks && p.clicks <= (1 - DECLINE.drop) * p.prev_clicks)
        .sort((a, b) => b.prev_clicks - b.clicks - (a.prev_clicks - a.clicks)).slice(0, MAX_PER_TYPE);
      for (const p of declining) {
        const expected = fromRecovery(p.clicks, p.prev_clicks);
        await propose({
          type: 'refresh_declining_content', category: 'content', priority: priorityOfGain(expected),
          title: 'Refresh a page that is losing clicks',
          description: `${p.page} had ${p.prev_clicks} clicks in the 28 days before and ${p.clicks} in the last 28.`,
          target: p.page,
          configuration: {
            url: p.page, clicks: p.clicks, previous_clicks: p.prev_clicks, top_query: p.top_query,
            instructions: `Update ${p.page}: check what now ranks above it for "${p.top_query}", bring facts and dates up to date, answer the questions it misses, and re-submit it in Search Console.`,
          },
          evidence: evidence({ url: p.page, clicks: p.clicks, previous_clicks: p.prev_clicks, impressions: p.impressions }),
          expectedClicks: expected,
        });
      }

      const gaps = keywords.filter((k) => k.current_position! > NEW_CONTENT.beyond && k.impressions_28d >= NEW_CONTENT.minImpressions).slice(0, MAX_PER_TYPE);
      for (const k of gaps) {
        const expected = fromNewPage({ impressions: k.impressions_28d, clicks: k.clicks_28d, position: k.current_position! }, curve);
        // Related: queries that share a word with it and no page serves on page one (one that does stays with its page),
        // those Google shows the same page for first (a shared "how to grow" says less than a shared page).
        const topic = topicWordsOf(k.keyword);
        const related = keywords
          .flatMap((r) => {
            if (r.keyword === k.keyword || r.current_position! <= 10) return [];
            const words = topicWordsOf(r.keyword);
            const shared = topic.filter((w) => words.some((x) => sameFamily(w, x))).length;
            return shared > 0 ? [{ r, shared, samePage: r.url === k.url }] : [];
          })
          .sort((a, b) => Number(b.samePage) - Number(a.samePage) || b.shared - a.shared || b.r.impressions_28d - a.r.impressions_28d)
          .slice(0, RELATED).map(({ r }) => ({ query: r.keyword, impressions: r.impressions_28d, position: r.current_position! }));
        const from = linkFrom(k.keyword, null);
        const outline = [k.keyword, ...related.slice(0, 5).map((r) => r.query)].map((q) => q.charAt(0).toUpperCase() + q.slice(1));
        await propose({
          type: 'create_content_for_keyword', category: 'research', priority: priorityOfGain(expected),
          title: `Write a page for "${k.keyword}"`,
          description: `Searchers see the site for "${k.keyword}" ${k.impressions_28d} times in 28 days, but only at position ${k.current_position}${k.url ? ` (with ${k.url}, which is about something else)` : ''}: a page written for it can rank on page one.`,
          target: `keyword:${k.keyword}`,
          configuration: {
            keyword: k.keyword, current_url: k.url, position: k.current_position, outline, related_queries: related, link_from: refs(from),
            instructions: [
              // A searcher who wants to buy wants a product or category page, not an article.
              k.intent === 'transactional' || k.intent === 'commercial'
                ? `Make a product or category page for "${k.keyword}" (searchers are looking to buy or compare): say it in the title, the h1 and the URL, with prices, choices and how to order.`
                : `Write a page whose subject is "${k.keyword}": say it in the title, the h1 and the URL, and answer it fully.`,
              related.length > 0 ? `Cover what searchers who find the site also ask: ${related.slice(0, 5).map((r) => `"${r.query}"`).join(', ')}.` : '',
              from.length > 0 ? `Link to it from ${from.map((p) => p.url).join(', ')}.` : k.url ? `Link to it from ${k.url}.` : '',
            ].filter(Boolean).join(' '),
          },
          evidence: evidence({ keyword: k.keyword, url: k.url, position: k.current_position, impressions: k.impressions_28d, ...curveEvidence }),
          expectedClicks: expected,
        });
      }

      // Queries where two or more pages of the site split the impressions and none ranks well.
      const topQueryOf = new Map(pages.map((p) => [p.page, p.top_query]));
      const split = await deps.search.splitQueries(siteId, { ...CANNIBAL, limit: MAX_PER_TYPE });
      for (const q of split) {
        const keep = [...q.pages].sort((a, b) => a.position - b.position || b.impressions - a.impressions)[0]!;
        const others = q.pages.filter((p) => p.page !== keep.page).map((p) => {
          const own = topQueryOf.get(p.page);
          return own && own !== q.query
            ? { url: p.page, action: 'separate' as const, why: `its own top query is "${own}": it keeps that topic, and its title and headings stop saying "${q.query}"` }
            : { url: p.page, action: 'redirect' as const, why: `"${q.query}" is what it is found for: its useful parts move into ${keep.page}, and it redirects there (301)` };
        });
        const impressions = q.pages.reduce((sum, p) => sum + p.impressions, 0);
        const expected = fromMovingUp({ impressions, clicks: 0, position: keep.position }, curve);
        await propose({
          type: 'consolidate_cannibalized_pages', category: 'strategy', priority: priorityOfGain(expected),
          title: `Let one page answer "${q.query}"`,
          description: `${q.pages.length} pages of the site share the impressions for "${q.query}" and none ranks in the top 5: ${keep.page} (position ${keep.position}) keeps it.`,
          target: `query:${q.query}`,
          configuration: {
            query: q.query, pages: q.pages, keep: keep.page, others,
            instructions: [`Keep ${keep.page} for "${q.query}" and point internal links about it there.`, ...others.map((o) => `${o.url}: ${o.why}.`)].join(' '),
          },
          evidence: evidence({ query: q.query, impressions: q.impressions, pages: q.pages, ...curveEvidence }),
          expectedClicks: expected,
        });
      }
      deps.log.info({ siteId, proposed, rejected, ctrCurve: fitted.basis }, 'search-data proposals');
      return { proposed, rejected };
    },
  };
}

export type SearchPlanner = ReturnType<typeof createSearchPlanner>;
