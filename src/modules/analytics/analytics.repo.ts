import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

export const GA4_COLUMNS = { conversions: 'conversions', page_views: 'page_views', bounce_rate: 'bounce_rate' } as const;

/**
 * The dashboards' read queries over the stored search data, keywords and task history (a
 * read model: it writes nothing; the tables' writers are search-data, keywords and tasks).
 */
export function createAnalyticsRepo(db: Kysely<DB>) {
  return {
    /** The first and last day a source has data for (null when none). */
    async coverage(table: 'search_daily' | 'analytics_daily', siteId: string) {
      const row = await db.selectFrom(table).select((eb) => [eb.fn.min<string | null>('date').as('first'), eb.fn.max<string | null>('date').as('last')])
        .where('site_id', '=', siteId).executeTakeFirstOrThrow();
      return { first: row.first ?? null, last: row.last ?? null };
    },

    async clicksBetween(siteId: string, start: string, end: string) {
      const row = await db.selectFrom('search_daily').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('clicks'), sql<number>`0`).as('clicks'))
        .where('site_id', '=', siteId).where('date', '>=', start).where('date', '<=', end).executeTakeFirstOrThrow();
      return Number(row.clicks);
    },

    rankings: (siteId: string) =>
      db.selectFrom('keywords')
        .select([
          sql<number>`count(*) filter (where current_position <= 3)`.as('top_3'),
          sql<number>`count(*) filter (where current_position <= 10)`.as('top_10'),
          sql<number>`count(*)`.as('total'),
        ])
        .where('site_id', '=', siteId).executeTakeFirstOrThrow(),

    completedTasks: (siteId: string, range: { start: string; end: string }) =>
      db.selectFrom('task_events').innerJoin('tasks', 'tasks.id', 'task_events.task_id')
        .select([
          sql<number>`count(distinct tasks.id) filter (where task_events.at >= ${range.start}::date and task_events.at < ${range.end}::date + 1)`.as('current_period'),
          sql<number>`count(distinct tasks.id)`.as('total'),
        ])
        .where('tasks.site_id', '=', siteId).where('task_events.to_status', '=', 'completed').executeTakeFirstOrThrow(),

    /** Daily values of one metric: Search Console's or GA4's. */
    trendRows(siteId: string, fromSearch: boolean, column: 'organic_traffic' | 'keyword_positions' | keyof typeof GA4_COLUMNS, range: { start: string; end: string }) {
      return fromSearch
        ? db.selectFrom('search_daily').select(['date', column === 'organic_traffic' ? 'clicks as value' : 'position as value'])
          .where('site_id', '=', siteId).where('date', '>=', range.start).where('date', '<=', range.end).execute()
        : db.selectFrom('analytics_daily').select((eb) => ['date', eb.ref(GA4_COLUMNS[column as keyof typeof GA4_COLUMNS]).as('value')])
          .where('site_id', '=', siteId).where('date', '>=', range.start).where('date', '<=', range.end).execute();
    },
  };
}

export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
