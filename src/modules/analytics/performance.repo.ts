import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.ts';
import { containing } from '../../lib/like-pattern.ts';
import { snapshotBatches } from '../../db/snapshot-cursor.ts';
import type { DateRange } from './report-periods.ts';

/** A filter of the report, as Search Console's: the query or the page contains, does not contain or equals a text. */
export interface ReportFilters {
  query_contains?: string | undefined;
  query_not_contains?: string | undefined;
  query_equals?: string | undefined;
  page_contains?: string | undefined;
  page_not_contains?: string | undefined;
  page_equals?: string | undefined;
}
export const hasFilters = (f: ReportFilters) => Object.values(f).some((v) => v !== undefined);

export interface Figures {
  clicks: number;
  impressions: number;
  /** Impressions times position, summed: a period's position is this over its impressions (Search Console's average). */
  weighted_position: number;
}
export type Dimension = 'query' | 'page';
export const SORTS = ['clicks', 'impressions', 'ctr', 'position', 'clicks_change', 'impressions_change', 'ctr_change', 'position_change'] as const;
export type Sort = (typeof SORTS)[number];

type Columns = { query: RawBuilder<unknown>; page: RawBuilder<unknown> };
const ROW_COLUMNS: Columns = { query: sql`query`, page: sql`page` };

/** The filters as SQL conditions on search_query_daily's columns, or others (case-insensitive, as Search Console's). */
function filterSql(f: ReportFilters, { query, page }: Columns = ROW_COLUMNS): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (f.query_contains !== undefined) parts.push(sql`${query} ilike ${containing(f.query_contains)}`);
  if (f.query_not_contains !== undefined) parts.push(sql`${query} not ilike ${containing(f.query_not_contains)}`);
  if (f.query_equals !== undefined) parts.push(sql`lower(${query}) = lower(${f.query_equals})`);
  if (f.page_contains !== undefined) parts.push(sql`${page} ilike ${containing(f.page_contains)}`);
  if (f.page_not_contains !== undefined) parts.push(sql`${page} not ilike ${containing(f.page_not_contains)}`);
  if (f.page_equals !== undefined) parts.push(sql`${page} = ${f.page_equals}`);
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

export const figures = (row: { clicks: unknown; impressions: unknown; weighted_position: unknown }): Figures =>
  ({ clicks: Number(row.clicks ?? 0), impressions: Number(row.impressions ?? 0), weighted_position: Number(row.weighted_position ?? 0) });

/** A row of a table joined as `c` and `p` (the queries', the pages', the countries' and the devices'): its key and each period's figures. */
export type TableRow = {
  key: string; clicks: number | null; impressions: number | null; weighted_position: number | null;
  p_clicks: number | null; p_impressions: number | null; p_weighted_position: number | null; total: number;
};
/** A table row's figures: the comparison's are absent without a comparison period (not zero). */
export const tableItemOf = (comparison: DateRange | null) => (r: Omit<TableRow, 'total'>) => ({
  key: r.key,
  current: figures(r),
  previous: comparison ? figures({ clicks: r.p_clicks, impressions: r.p_impressions, weighted_position: r.p_weighted_position }) : undefined,
});

/** A period's figures of one row of the table, as SQL. */
interface Side { clicks: RawBuilder<unknown>; impressions: RawBuilder<unknown>; weighted_position: RawBuilder<unknown> }

/** The SQL of a sort (its value for one row of the table, from its period's and comparison's figures); nulls last whatever the order. */
const sortSql = (sort: Sort, c: Side, p: Side): RawBuilder<unknown> => ({
  clicks: sql`coalesce(${c.clicks}, 0)`,
  impressions: sql`coalesce(${c.impressions}, 0)`,
  ctr: sql`${c.clicks}::float8 / nullif(${c.impressions}, 0)`,
  position: sql`${c.weighted_position} / nullif(${c.impressions}, 0)`,
  clicks_change: sql`coalesce(${c.clicks}, 0) - coalesce(${p.clicks}, 0)`,
  impressions_change: sql`coalesce(${c.impressions}, 0) - coalesce(${p.impressions}, 0)`,
  ctr_change: sql`${c.clicks}::float8 / nullif(${c.impressions}, 0) - ${p.clicks}::float8 / nullif(${p.impressions}, 0)`,
  position_change: sql`${c.weighted_position} / nullif(${c.impressions}, 0) - ${p.weighted_position} / nullif(${p.impressions}, 0)`,
})[sort];
const side = (alias: string, prefix = ''): Side => ({
  clicks: sql.ref(`${alias}.${prefix}clicks`), impressions: sql.ref(`${alias}.${prefix}impressions`), weighted_position: sql.ref(`${alias}.${prefix}weighted_position`),
});
const NO_SIDE: Side = { clicks: sql`null::bigint`, impressions: sql`null::bigint`, weighted_position: sql`null::float8` };
/** The sorts over a table joined as `c` (the period) and `p` (the comparison): the countries' and devices' too (segments.repo.ts). */
export const SORT_SQL = Object.fromEntries(SORTS.map((sort) => [sort, sortSql(sort, side('c'), side('p'))])) as Record<Sort, RawBuilder<unknown>>;

/** The filters on the listed dimension alone (which only choose among its keys) as conditions on a key; undefined for any other. */
function keyFilterSql(dimension: Dimension, f: ReportFilters, key: RawBuilder<unknown>): RawBuilder<unknown> | undefined {
  const other = dimension === 'query'
    ? [f.page_contains, f.page_not_contains, f.page_equals] : [f.query_contains, f.query_not_contains, f.query_equals];
  if (other.some((v) => v !== undefined)) return undefined;
  return filterSql(f, { query: key, page: key });
}

/** Which table: the queries or pages of a period beside a comparison, filtered, searched and sorted. */
export type TableQuery = {
  dimension: Dimension; range: DateRange; comparison: DateRange | null; filters: ReportFilters; search?: string | undefined;
  sort: Sort; order: 'asc' | 'desc';
};
type TableInput = TableQuery & { limit: number; offset: number };

/**
 * The performance report's reads: totals and days of a site (Search Console's property
 * totals without a filter, its query and page rows with one) and its queries or pages over
 * a period joined with the comparison period's. Every read names the site: the service has
 * checked the caller may see it.
 */
export function createPerformanceRepo(db: Kysely<DB>, options: {
  /** Read the stored sets (0033_performance_summaries.sql) where one answers; false: always aggregate the rows (the bench's baseline). */
  summaries?: boolean;
} = {}) {
  const useSummaries = options.summaries ?? true;

  /** The property's totals (search_daily) or the filtered rows' (search_query_daily), per day. */
  const daily = (siteId: string, range: DateRange, filters: ReportFilters) => (hasFilters(filters)
    ? sql<{ date: string; clicks: number; impressions: number; weighted_position: number }>`
        select date::text as date, sum(clicks) as clicks, sum(impressions) as impressions, sum(position * impressions) as weighted_position
        from search_query_daily where site_id = ${siteId} and date between ${range.start} and ${range.end} and ${filterSql(filters)}
        group by date`
    : sql<{ date: string; clicks: number; impressions: number; weighted_position: number }>`
        select date::text as date, clicks, impressions, position * impressions as weighted_position
        from search_daily where site_id = ${siteId} and date between ${range.start} and ${range.end}`);

  /** The table aggregated from the query rows: each period's per key, full outer joined, every row in the order asked. */
  function liveTable(siteId: string, input: TableQuery) {
    const key = input.dimension === 'query' ? sql.ref('query') : sql.ref('page');
    const where = sql`site_id = ${siteId} and ${filterSql(input.filters)}${input.search === undefined ? sql`` : sql` and ${key} ilike ${containing(input.search)}`}`;
    // The weighted position is summed exactly (numeric): the same double whatever order the rows come in, as a stored set's.
    const aggregate = (range: DateRange) => sql`
      select ${key} as key, sum(clicks) as clicks, sum(impressions) as impressions, sum((position * impressions)::numeric)::float8 as weighted_position
      from search_query_daily where ${where} and date between ${range.start} and ${range.end} group by ${key}`;
    // Without a comparison the joined side is empty: one query shape for both.
    const previous = input.comparison ? aggregate(input.comparison) : sql`select null::text as key, 0::bigint as clicks, 0::bigint as impressions, 0::float8 as weighted_position where false`;
    const joined = sql`with c as (${aggregate(input.range)}), p as (${previous})`;
    const direction = input.order === 'asc' ? sql`asc` : sql`desc`;
    return {
      /** The rows, with more columns if asked (the paged read's count). */
      rows: (more = sql``) => sql<Omit<TableRow, 'total'>>`${joined}
        select coalesce(c.key, p.key) as key, c.clicks, c.impressions, c.weighted_position,
               p.clicks as p_clicks, p.impressions as p_impressions, p.weighted_position as p_weighted_position${more}
        from c full outer join p on p.key = c.key
        order by ${sortSql(input.sort, side('c'), side('p'))} ${direction} nulls last, coalesce(c.key, p.key) asc`,
      count: sql<{ n: number }>`${joined} select count(*) as n from c full outer join p on p.key = c.key`,
    };
  }

  async function live(siteId: string, input: TableInput): Promise<{ rows: TableRow[]; total: number }> {
    const table = liveTable(siteId, input);
    const { rows } = await sql<TableRow>`${table.rows(sql`, count(*) over () as total`)} limit ${input.limit} offset ${input.offset}`.execute(db);
    // A page past the end has no row to carry the count: counted apart.
    const total = rows.length > 0 || input.offset === 0 ? Number(rows[0]?.total ?? 0) : Number((await table.count.execute(db)).rows[0]?.n ?? 0);
    return { rows, total };
  }

  /** The stored set of exactly these periods (none for other periods or custom dates, nor once rows changed since the last refresh). */
  const summarySet = (siteId: string, { dimension, range, comparison }: TableQuery) => sql<{ id: number }>`
    select id from performance_summary_sets
    where site_id = ${siteId} and dimension = ${dimension} and start_date = ${range.start} and end_date = ${range.end}
      ${comparison ? sql`and comparison_start = ${comparison.start} and comparison_end = ${comparison.end}` : sql``}
    limit 1`;

  /** The stored set's rows (of the set a query names `found`), every one in the order asked; `keyFilters`: keyFilterSql's. */
  function summaryTable(input: TableQuery, keyFilters: RawBuilder<unknown>) {
    // Without a comparison: the keys with rows in the period, and no comparison figures (as the live query's empty side).
    const where = sql`s.set_id = (select id from found) and ${input.comparison ? sql`true` : sql`s.clicks is not null`} and ${keyFilters}${
      input.search === undefined ? sql`` : sql` and s.key ilike ${containing(input.search)}`}`;
    const p = input.comparison ? side('s', 'p_') : NO_SIDE;
    const direction = input.order === 'asc' ? sql`asc` : sql`desc`;
    return {
      where, direction,
      rows: sql<Omit<TableRow, 'total'> & { sort_value: unknown }>`
        select s.key, s.clicks, s.impressions, s.weighted_position,
          ${p.clicks} as p_clicks, ${p.impressions} as p_impressions, ${p.weighted_position} as p_weighted_position,
          ${sortSql(input.sort, side('s'), p)} as sort_value
        from performance_summaries s where ${where}
        order by sort_value ${direction} nulls last, s.key asc`,
    };
  }

  /**
   * The table read from the stored set of exactly these periods, undefined when there is none (another period, custom
   * dates, a filter on the other dimension, or rows changed since the last refresh). One statement: it sees the set
   * and its rows in one snapshot, even while a sync replaces them.
   */
  async function fromSummaries(siteId: string, input: TableInput): Promise<{ rows: TableRow[]; total: number } | undefined> {
    const keyFilters = keyFilterSql(input.dimension, input.filters, sql`s.key`);
    if (keyFilters === undefined) return undefined;
    const table = summaryTable(input, keyFilters);
    const { rows } = await sql<TableRow & { set_id: number | null }>`
      with found as (${summarySet(siteId, input)}),
      page as (${table.rows} limit ${input.limit} offset ${input.offset})
      select (select id from found) as set_id, (select count(*) from performance_summaries s where ${table.where}) as total, page.*
      from (select 1) one left join page on true
      order by page.sort_value ${table.direction} nulls last, page.key asc`.execute(db);
    if (rows[0]?.set_id == null) return undefined;
    const total = Number(rows[0].total);
    return { rows: rows.filter((r) => r.key !== null), total };
  }

  return {
    /** The first day the site has query and page rows for (null when none): the sync keeps fewer days of them than of totals. */
    async firstQueryDate(siteId: string): Promise<string | null> {
      const { rows } = await sql<{ first: string | null }>`select min(date)::text as first from search_query_daily where site_id = ${siteId}`.execute(db);
      return rows[0]?.first ?? null;
    },

    async days(siteId: string, range: DateRange, filters: ReportFilters): Promise<Map<string, Figures>> {
      const { rows } = await daily(siteId, range, filters).execute(db);
      return new Map(rows.map((r) => [r.date, figures(r)]));
    },

    /**
     * One page of the queries or pages with data in either period, sorted, with their total count: each row's figures in
     * the period and in the comparison period (absent without one). Read from a stored set when one holds exactly these
     * periods (the default 28 days, refreshed by each sync) and no filter narrows the figures; aggregated from the rows
     * otherwise. Both give the same answer (performance-summaries.test.ts).
     */
    async rows(siteId: string, input: TableInput) {
      const stored = useSummaries ? await fromSummaries(siteId, input) : undefined;
      const { rows, total } = stored ?? await live(siteId, input);
      return {
        total,
        /** Where the rows came from: a stored set, or the query rows (tests and the bench check both agree). */
        source: stored ? 'summary' as const : 'live' as const,
        items: rows.map(tableItemOf(input.comparison)),
      };
    },

    /**
     * Every row of the table (as `rows` gives them, unpaged), a batch at a time, all from one snapshot: the rows are
     * sorted by figures, which a sync rewrites, so no row read is a stable place to go on from. The table is summed and
     * sorted once, read from the stored set where `rows` would read it.
     */
    async *exportBatches(siteId: string, input: TableQuery, size: number) {
      const batches = snapshotBatches(db, async (trx) => {
        const keyFilters = useSummaries ? keyFilterSql(input.dimension, input.filters, sql`s.key`) : undefined;
        // The set looked up in the cursor's snapshot: it cannot go between the look and the read.
        if (keyFilters !== undefined && (await summarySet(siteId, input).execute(trx)).rows.length > 0) {
          return sql<Omit<TableRow, 'total'>>`with found as (${summarySet(siteId, input)}) ${summaryTable(input, keyFilters).rows}`;
        }
        return liveTable(siteId, input).rows();
      }, size);
      for await (const rows of batches) yield rows.map(tableItemOf(input.comparison));
    },
  };
}

export type PerformanceRepo = ReturnType<typeof createPerformanceRepo>;
