import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { SegmentDimension } from '../search-data/search-data.repo.ts';
import { figures, SORT_SQL, tableItemOf, type Figures, type Sort, type TableRow } from './performance.repo.ts';
import type { DateRange } from './report-periods.ts';

/**
 * The report's countries and devices (search_segment_daily): a dimension's keys over a period
 * joined with the comparison period's, sorted and paged as the queries and pages are, and one
 * key's days for the charts. Every read names the site: the service has checked the caller.
 */
export function createSegmentsRepo(db: Kysely<DB>) {
  const aggregate = (siteId: string, dimension: SegmentDimension, range: DateRange) => sql`
    select key, sum(clicks) as clicks, sum(impressions) as impressions, sum(position * impressions) as weighted_position
    from search_segment_daily where site_id = ${siteId} and dimension = ${dimension} and date between ${range.start} and ${range.end} group by key`;
  return {
    /** The first day the site has this dimension's rows for (null when none). */
    async firstDate(siteId: string, dimension: SegmentDimension): Promise<string | null> {
      const { rows } = await sql<{ first: string | null }>`select min(date)::text as first from search_segment_daily where site_id = ${siteId} and dimension = ${dimension}`.execute(db);
      return rows[0]?.first ?? null;
    },

    async rows(siteId: string, input: {
      dimension: SegmentDimension; range: DateRange; comparison: DateRange | null; sort: Sort; order: 'asc' | 'desc'; limit: number; offset: number;
    }) {
      const previous = input.comparison ? aggregate(siteId, input.dimension, input.comparison)
        : sql`select null::text as key, 0::bigint as clicks, 0::bigint as impressions, 0::float8 as weighted_position where false`;
      const { rows } = await sql<TableRow>`
        with c as (${aggregate(siteId, input.dimension, input.range)}), p as (${previous})
        select coalesce(c.key, p.key) as key, c.clicks, c.impressions, c.weighted_position,
               p.clicks as p_clicks, p.impressions as p_impressions, p.weighted_position as p_weighted_position, count(*) over () as total
        from c full outer join p on p.key = c.key
        order by ${SORT_SQL[input.sort]} ${input.order === 'asc' ? sql`asc` : sql`desc`} nulls last, coalesce(c.key, p.key) asc
        limit ${input.limit} offset ${input.offset}`.execute(db);
      return {
        // A page past the end has no row to carry the count (a country or device list is short: counted again then).
        total: rows.length > 0 ? Number(rows[0]!.total) : input.offset === 0 ? 0
          : Number((await sql<{ n: number }>`with c as (${aggregate(siteId, input.dimension, input.range)}), p as (${previous}) select count(*) as n from c full outer join p on p.key = c.key`.execute(db)).rows[0]?.n ?? 0),
        items: rows.map(tableItemOf(input.comparison)),
      };
    },

    /** One key's figures per day (a country's or a device's), for the charts. */
    async days(siteId: string, dimension: SegmentDimension, key: string, range: DateRange): Promise<Map<string, Figures>> {
      const rows = await db.selectFrom('search_segment_daily')
        .select([sql<string>`date::text`.as('date'), 'clicks', 'impressions', sql<number>`position * impressions`.as('weighted_position')])
        .where('site_id', '=', siteId).where('dimension', '=', dimension).where('key', '=', key)
        .where('date', '>=', range.start).where('date', '<=', range.end).execute();
      return new Map(rows.map((r) => [r.date, figures(r)]));
    },
  };
}

export type SegmentsRepo = ReturnType<typeof createSegmentsRepo>;
