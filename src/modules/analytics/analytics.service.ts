import { changePercent, DAY_MS, isoDate, PERIOD_DAYS, periodRange, type Period } from '../search-data/periods.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';

type Metric = 'organic_traffic' | 'keyword_positions' | 'conversions' | 'page_views' | 'bounce_rate';

/**
 * Dashboards and trends from the stored search data. A metric's source is connected when
 * the site is linked to its property (Search Console for traffic and positions, GA4 for the
 * rest); an unconnected source gives empty data points, not an error.
 */
export function createAnalyticsService(deps: { repo: AnalyticsRepo; sites: Pick<SitesService, 'getSite'>; now?: () => Date }) {
  const { repo } = deps;
  const now = () => deps.now?.() ?? new Date();

  return {
    async dashboard(ownerId: string, siteId: string, period: Period) {
      const site = await deps.sites.getSite(ownerId, siteId);
      // Traffic periods end at the last day with (complete) data, not at a calendar day.
      const covered = await repo.coverage('search_daily', siteId);
      const range = periodRange(period, now(), covered.last ?? undefined);
      // Work done counts to the moment asked: a task completed an hour ago is this period's (its days end today, UTC).
      const today = Date.parse(`${isoDate(now().getTime())}T00:00:00Z`);
      const tasksRange = { start: isoDate(today - (PERIOD_DAYS[period] - 1) * DAY_MS), end: isoDate(today) };
      const [current, previous, rankings, tasks] = await Promise.all([
        repo.clicksBetween(siteId, range.start, range.end),
        repo.clicksBetween(siteId, range.previousStart, range.previousEnd),
        repo.rankings(siteId),
        repo.completedTasks(siteId, tasksRange),
      ]);
      return {
        organic_traffic: {
          current, previous,
          // A previous period the data does not fully cover has no meaningful change.
          change_percent: covered.first !== null && covered.first <= range.previousStart ? changePercent(current, previous) : null,
          start: range.start, end: range.end, previous_start: range.previousStart, previous_end: range.previousEnd,
        },
        keyword_rankings: { top_3: Number(rankings.top_3), top_10: Number(rankings.top_10), total_tracked: Number(rankings.total) },
        tasks_completed: { current_period: Number(tasks.current_period), total: Number(tasks.total) },
        health_score: site.health_score,
        period,
      };
    },

    /**
     * Daily points over the period. Traffic, page views and conversions count a day with no
     * row as 0 (Search Console omits empty days); positions and bounce rate have no value on
     * such a day, so it has no point.
     */
    async trends(ownerId: string, siteId: string, metric: Metric, period: Period) {
      const site = await deps.sites.getSite(ownerId, siteId);
      const fromSearch = metric === 'organic_traffic' || metric === 'keyword_positions';
      const covered = await repo.coverage(fromSearch ? 'search_daily' : 'analytics_daily', siteId);
      const range = periodRange(period, now(), covered.last ?? undefined);
      if (fromSearch ? !site.gsc_property : !site.ga4_property) return { metric, period, start: range.start, end: range.end, data_points: [] };
      const rows = await repo.trendRows(siteId, fromSearch, metric, range);
      const byDate = new Map(rows.map((r) => [r.date, Number(r.value)]));
      const zeroWhenEmpty = metric === 'organic_traffic' || metric === 'page_views' || metric === 'conversions';
      const data_points = range.dates().flatMap((date) => {
        const value = byDate.get(date);
        if (value === undefined) return zeroWhenEmpty ? [{ date, value: 0 }] : [];
        return [{ date, value: metric === 'keyword_positions' || metric === 'bounce_rate' ? Math.round(value * 100) / 100 : value }];
      });
      return { metric, period, start: range.start, end: range.end, data_points };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
