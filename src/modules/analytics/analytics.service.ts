import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { changePercent, periodRange, type Period } from '../search-data/periods.ts';
import type { SitesService } from '../sites/sites.service.ts';

type Metric = 'organic_traffic' | 'keyword_positions' | 'conversions' | 'page_views' | 'bounce_rate';
const GA4_COLUMNS = { conversions: 'conversions', page_views: 'page_views', bounce_rate: 'bounce_rate' } as const;

/**
 * Dashboards and trends from the stored search data. A metric's source is connected when
 * the site is linked to its property (Search Console for traffic and positions, GA4 for the
 * rest); an unconnected source gives empty data points, not an error.
 */
export function createAnalyticsService(deps: { db: Kysely<DB>; sites: Pick<SitesService, 'getSite'>; now?: () => Date }) {
  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();

  /** The first and last day a source has data for (null when none). */
  const coverage = async (table: 'search_daily' | 'analytics_daily', siteId: string) => {
    const row = await db.selectFrom(table).select((eb) => [eb.fn.min<string | null>('date').as('first'), eb.fn.max<string | null>('date').as('last')])
      .where('site_id', '=', siteId).executeTakeFirstOrThrow();
    return { first: row.first ?? null, last: row.last ?? null };
  };

  const clicksBetween = async (siteId: string, start: string, end: string) => {
    const row = await db.selectFrom('search_daily').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('clicks'), sql<number>`0`).as('clicks'))
      .where('site_id', '=', siteId).where('date', '>=', start).where('date', '<=', end).executeTakeFirstOrThrow();
    return Number(row.clicks);
  };

  return {
    async dashboard(ownerId: string, siteId: string, period: Period) {
      const site = await deps.sites.getSite(ownerId, siteId);
      // Traffic periods end at the last day with (complete) data, not at a calendar day.
      const covered = await coverage('search_daily', siteId);
      const range = periodRange(period, now(), covered.last ?? undefined);
      const tasksRange = periodRange(period, now());
      const [current, previous, rankings, tasks] = await Promise.all([
        clicksBetween(siteId, range.start, range.end),
        clicksBetween(siteId, range.previousStart, range.previousEnd),
        db.selectFrom('keywords')
          .select([
            sql<number>`count(*) filter (where current_position <= 3)`.as('top_3'),
            sql<number>`count(*) filter (where current_position <= 10)`.as('top_10'),
            sql<number>`count(*)`.as('total'),
          ])
          .where('site_id', '=', siteId).executeTakeFirstOrThrow(),
        db.selectFrom('task_events').innerJoin('tasks', 'tasks.id', 'task_events.task_id')
          .select([
            sql<number>`count(distinct tasks.id) filter (where task_events.at >= ${tasksRange.start}::date and task_events.at < ${tasksRange.end}::date + 1)`.as('current_period'),
            sql<number>`count(distinct tasks.id)`.as('total'),
          ])
          .where('tasks.site_id', '=', siteId).where('task_events.to_status', '=', 'completed').executeTakeFirstOrThrow(),
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
      const covered = await coverage(fromSearch ? 'search_daily' : 'analytics_daily', siteId);
      const range = periodRange(period, now(), covered.last ?? undefined);
      if (fromSearch ? !site.gsc_property : !site.ga4_property) return { metric, period, start: range.start, end: range.end, data_points: [] };
      const rows = fromSearch
        ? await db.selectFrom('search_daily').select(['date', metric === 'organic_traffic' ? 'clicks as value' : 'position as value'])
          .where('site_id', '=', siteId).where('date', '>=', range.start).where('date', '<=', range.end).execute()
        : await db.selectFrom('analytics_daily').select((eb) => ['date', eb.ref(GA4_COLUMNS[metric as keyof typeof GA4_COLUMNS]).as('value')])
          .where('site_id', '=', siteId).where('date', '>=', range.start).where('date', '<=', range.end).execute();
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
