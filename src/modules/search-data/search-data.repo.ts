import { atomically } from '../../db/transact.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { intentSql } from './intent.ts';
import { DAY_MS, isoDate, pacificToday } from './periods.ts';

/** Rows per INSERT: 7 parameters a row stays far below PostgreSQL's 65,535. */
const CHUNK = 2000;

export interface SearchDay { date: string; clicks: number; impressions: number; ctr: number; position: number }
export interface QueryPageDay { date: string; query: string; page: string; clicks: number; impressions: number; position: number }
/** One country's (ISO 3166-1 alpha-3, lower case, as Search Console writes it) or device's figures on one day. */
export interface SegmentDay { date: string; key: string; clicks: number; impressions: number; position: number }
export type SegmentDimension = 'country' | 'device';
export interface AnalyticsDay { date: string; sessions: number; page_views: number; bounce_rate: number; conversions: number }

const chunks = <T>(rows: T[]) => Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Stored search data. Every write is an upsert on its natural key (site, day, query, page),
 * so a re-sync of the same days replaces them and never doubles anything.
 */
/**
 * One row per key: Search Console orders rows tied on clicks arbitrarily between startRow
 * pages, so a row may come twice, and one INSERT ... ON CONFLICT cannot touch a row twice.
 */
const lastByKey = <T>(rows: T[], key: (row: T) => string) => [...new Map(rows.map((row) => [key(row), row])).values()];

export function createSearchDataRepo(db: Kysely<DB>) {
  return {
    async upsertSearchDays(siteId: string, rows: SearchDay[]) {
      for (const part of chunks(lastByKey(rows, (r) => r.date))) {
        await db.insertInto('search_daily').values(part.map((r) => ({ site_id: siteId, ...r })))
          .onConflict((oc) => oc.columns(['site_id', 'date']).doUpdateSet((eb) => ({
            clicks: eb.ref('excluded.clicks'), impressions: eb.ref('excluded.impressions'), ctr: eb.ref('excluded.ctr'), position: eb.ref('excluded.position'),
          })))
          .execute();
      }
    },

    /**
     * Replaces the query×page rows of the days given (a day's rows may shrink when data settles), and in the same
     * transaction stores the performance report's default period again (its sets were dropped by the writes:
     * 0033_performance_summaries.sql), so the report reads them instead of aggregating millions of rows.
     */
    async replaceQueryDays(siteId: string, days: string[], rows: QueryPageDay[]) {
      await atomically(db, async (trx) => {
        if (days.length > 0) await trx.deleteFrom('search_query_daily').where('site_id', '=', siteId).where('date', 'in', days).execute();
        for (const part of chunks(lastByKey(rows, (r) => `${r.date}\u0000${r.query}\u0000${r.page}`))) {
          await trx.insertInto('search_query_daily').values(part.map((r) => ({ site_id: siteId, ...r })))
            .onConflict((oc) => oc.columns(['site_id', 'date', 'query', 'page']).doUpdateSet((eb) => ({
              clicks: eb.ref('excluded.clicks'), impressions: eb.ref('excluded.impressions'), position: eb.ref('excluded.position'),
            })))
            .execute();
        }
        await sql`select refresh_performance_summaries(${siteId}, ${isoDate(pacificToday() - DAY_MS)}::date)`.execute(trx);
      });
    },

    /**
     * Stages one page of a sync's query×page rows (migration 0037): a page at a time, so the sync holds one page in
     * memory whatever the property's size. A row Search Console repeats across pages is staged once (the last wins).
     */
    async stageQueryRows(syncId: string, siteId: string, rows: QueryPageDay[]) {
      for (const part of chunks(lastByKey(rows, (r) => `${r.date}\u0000${r.query}\u0000${r.page}`))) {
        await db.insertInto('search_query_staging').values(part.map((r) => ({ sync_id: syncId, site_id: siteId, ...r })))
          .onConflict((oc) => oc.columns(['sync_id', 'date', 'query', 'page']).doUpdateSet((eb) => ({
            clicks: eb.ref('excluded.clicks'), impressions: eb.ref('excluded.impressions'), position: eb.ref('excluded.position'),
          })))
          .execute();
      }
    },

    /**
     * Replaces the days given with the sync's staged rows, in one transaction with the performance report's stored
     * period (as replaceQueryDays), and drops them from the staging table.
     */
    async promoteStagedQueryRows(syncId: string, siteId: string, days: string[]) {
      await atomically(db, async (trx) => {
        if (days.length > 0) await trx.deleteFrom('search_query_daily').where('site_id', '=', siteId).where('date', 'in', days).execute();
        await sql`
          insert into search_query_daily (site_id, date, query, page, clicks, impressions, position)
          select site_id, date, query, page, clicks, impressions, position from search_query_staging
          where sync_id = ${syncId} and site_id = ${siteId}
          on conflict (site_id, date, query, page) do update
            set clicks = excluded.clicks, impressions = excluded.impressions, position = excluded.position`.execute(trx);
        await trx.deleteFrom('search_query_staging').where('sync_id', '=', syncId).execute();
        await sql`select refresh_performance_summaries(${siteId}, ${isoDate(pacificToday() - DAY_MS)}::date)`.execute(trx);
      });
    },

    /** A sync that failed: its staged rows go (the stored days stay as they were). */
    async discardStagedQueryRows(syncId: string) {
      await db.deleteFrom('search_query_staging').where('sync_id', '=', syncId).execute();
    },

    /** Replaces a dimension's rows of the days given (as query rows: a day's rows may change as data settles). */
    async replaceSegmentDays(siteId: string, dimension: SegmentDimension, days: string[], rows: SegmentDay[]) {
      await atomically(db, async (trx) => {
        if (days.length > 0) await trx.deleteFrom('search_segment_daily').where('site_id', '=', siteId).where('dimension', '=', dimension).where('date', 'in', days).execute();
        for (const part of chunks(lastByKey(rows, (r) => `${r.date}\u0000${r.key}`))) {
          await trx.insertInto('search_segment_daily').values(part.map((r) => ({ site_id: siteId, dimension, ...r }))).execute();
        }
      });
    },

    /** Whether the site has any country or device rows (a site synced before they were fetched has none: they backfill). */
    async hasSegments(siteId: string) {
      return (await db.selectFrom('search_segment_daily').select('site_id').where('site_id', '=', siteId).limit(1).executeTakeFirst()) !== undefined;
    },

    async upsertAnalyticsDays(siteId: string, rows: AnalyticsDay[]) {
      for (const part of chunks(lastByKey(rows, (r) => r.date))) {
        await db.insertInto('analytics_daily').values(part.map((r) => ({ site_id: siteId, ...r })))
          .onConflict((oc) => oc.columns(['site_id', 'date']).doUpdateSet((eb) => ({
            sessions: eb.ref('excluded.sessions'), page_views: eb.ref('excluded.page_views'),
            bounce_rate: eb.ref('excluded.bounce_rate'), conversions: eb.ref('excluded.conversions'),
          })))
          .execute();
      }
    },

    /** Clicks and impressions per page over the last 28 days of data (the agents weigh tasks by them). */
    async pageMetrics(siteId: string): Promise<Map<string, { clicks_28d: number; impressions_28d: number }>> {
      const rows = await sql<{ page: string; clicks: number; impressions: number }>`
        select page, sum(clicks)::int as clicks, sum(impressions)::int as impressions from search_query_daily
        where site_id = ${siteId} and date > (select max(date) from search_query_daily where site_id = ${siteId}) - 28
        group by page`.execute(db);
      return new Map(rows.rows.map((r) => [r.page, { clicks_28d: r.clicks, impressions_28d: r.impressions }]));
    },

    /**
     * Search metrics of a page (and one query on it, when given) in equal windows before and
     * after a moment (a task completing): up to 28 days each, as many as Search Console data
     * covers after it. Undefined without data.
     */
    async impactAround(siteId: string, page: string, since: Date, query?: string) {
      const row = await sql<{ days: number | null; b_clicks: number; b_impr: number; b_pos: number | null; a_clicks: number; a_impr: number; a_pos: number | null }>`
        with bounds as (
          -- least() skips nulls: without any data there is no window at all.
          select ${since}::date as d, case when max(date) is null then null else least(28, max(date) - ${since}::date) end as days
          from search_query_daily where site_id = ${siteId}
        )
        select b.days,
          coalesce(sum(q.clicks) filter (where q.date < b.d and q.date >= b.d - b.days), 0)::int as b_clicks,
          coalesce(sum(q.impressions) filter (where q.date < b.d and q.date >= b.d - b.days), 0)::int as b_impr,
          sum(q.position * q.impressions) filter (where q.date < b.d and q.date >= b.d - b.days) / nullif(sum(q.impressions) filter (where q.date < b.d and q.date >= b.d - b.days), 0) as b_pos,
          coalesce(sum(q.clicks) filter (where q.date > b.d and q.date <= b.d + b.days), 0)::int as a_clicks,
          coalesce(sum(q.impressions) filter (where q.date > b.d and q.date <= b.d + b.days), 0)::int as a_impr,
          sum(q.position * q.impressions) filter (where q.date > b.d and q.date <= b.d + b.days) / nullif(sum(q.impressions) filter (where q.date > b.d and q.date <= b.d + b.days), 0) as a_pos
        from bounds b left join search_query_daily q on q.site_id = ${siteId} and q.page = ${page} ${query === undefined ? sql`` : sql`and q.query = ${query}`}
        group by b.days, b.d`.execute(db);
      const r = row.rows[0];
      if (!r || r.days === null || r.days < 1) return undefined;
      const pos = (p: number | null) => (p === null ? null : Math.round(Number(p) * 10) / 10);
      return {
        url: page, query: query ?? null, window_days: Number(r.days),
        before: { clicks: r.b_clicks, impressions: r.b_impr, position: pos(r.b_pos) },
        after: { clicks: r.a_clicks, impressions: r.a_impr, position: pos(r.a_pos) },
      };
    },

    /** Per page: clicks, impressions and position over the last 28 days of data, clicks in the 28 before, and its top query. */
    async pagePerformance(siteId: string) {
      const { rows } = await sql<{ page: string; clicks: number; impressions: number; position: number; prev_clicks: number; top_query: string }>`
        with latest as (select max(date) as d from search_query_daily where site_id = ${siteId})
        select q.page,
          coalesce(sum(q.clicks) filter (where q.date > l.d - 28), 0)::int as clicks,
          coalesce(sum(q.impressions) filter (where q.date > l.d - 28), 0)::int as impressions,
          coalesce(sum(q.position * q.impressions) filter (where q.date > l.d - 28) / nullif(sum(q.impressions) filter (where q.date > l.d - 28), 0), 0) as position,
          coalesce(sum(q.clicks) filter (where q.date <= l.d - 28 and q.date > l.d - 56), 0)::int as prev_clicks,
          (array_agg(q.query order by q.clicks desc, q.impressions desc))[1] as top_query
        from search_query_daily q, latest l where q.site_id = ${siteId} and q.date > l.d - 56
        group by q.page`.execute(db);
      return rows;
    },

    /** Clicks and impressions by whole position (1-20) over the last 90 days of data: what the site's CTR curve is fitted on. */
    async ctrByPosition(siteId: string) {
      const { rows } = await sql<{ position: number; clicks: number; impressions: number }>`
        select greatest(1, round(q.position))::int as position, sum(q.clicks)::int as clicks, sum(q.impressions)::int as impressions
        from search_query_daily q
        where q.site_id = ${siteId} and q.position < 20.5
          and q.date > (select max(date) from search_query_daily where site_id = ${siteId}) - 90
        group by 1 order by 1`.execute(db);
      return rows;
    },

    /** Queries whose impressions two or more pages split (each at least minShare), none ranking better than worseThan. */
    async splitQueries(siteId: string, limits: { minShare: number; minImpressions: number; worseThan: number; limit: number }) {
      const { rows } = await sql<{ query: string; pages: Array<{ page: string; impressions: number; position: number }>; impressions: number }>`
        with latest as (select max(date) as d from search_query_daily where site_id = ${siteId}),
        per_page as (
          select q.query, q.page, sum(q.impressions)::int as impressions, sum(q.position * q.impressions) / nullif(sum(q.impressions), 0) as position
          from search_query_daily q, latest l where q.site_id = ${siteId} and q.date > l.d - 28 group by q.query, q.page
        ),
        shares as (select *, impressions::float / nullif(sum(impressions) over (partition by query), 0) as share, sum(impressions) over (partition by query) as total from per_page)
        select query, sum(impressions)::int as impressions,
          json_agg(json_build_object('page', page, 'impressions', impressions, 'position', round(position::numeric, 1)) order by impressions desc) as pages
        from shares where share >= ${limits.minShare} and total >= ${limits.minImpressions}
        group by query having count(*) >= 2 and min(position) > ${limits.worseThan}
        order by sum(impressions) desc limit ${limits.limit}`.execute(db);
      return rows;
    },

    /**
     * Recomputes the site's keywords from the query×page rows of the last 28 days of data:
     * current position = impression-weighted average over the latest 7 days of data, previous
     * over the 7 before; url = the page with the most clicks (then impressions); volume and
     * difficulty estimated (see README). Keywords that no longer appear keep their row with
     * no current position; keywords added by hand keep their source.
     */
    async refreshKeywords(siteId: string, brand: string | undefined) {
      await sql`
        with latest as (select max(date) as d from search_query_daily where site_id = ${siteId}),
        recent as (
          select q.* from search_query_daily q, latest
          where q.site_id = ${siteId} and q.date > latest.d - 28
        ),
        agg as (
          select r.query,
            sum(r.position * r.impressions) filter (where r.date > l.d - 7) / nullif(sum(r.impressions) filter (where r.date > l.d - 7), 0) as cur,
            sum(r.position * r.impressions) filter (where r.date <= l.d - 7 and r.date > l.d - 14) / nullif(sum(r.impressions) filter (where r.date <= l.d - 7 and r.date > l.d - 14), 0) as prev,
            sum(r.position * r.impressions) / nullif(sum(r.impressions), 0) as pos28,
            sum(r.clicks) as clicks, sum(r.impressions) as impressions
          from recent r, latest l group by r.query
        ),
        pages as (
          select distinct on (query) query, page from (
            select query, page, sum(clicks) as c, sum(impressions) as i from recent group by query, page
          ) x order by query, c desc, i desc, page
        ),
        scored as (
          select a.query, a.cur, a.prev, a.clicks, a.impressions, p.page,
            -- visibility() of search-data/expected-clicks.ts: the share of searches that see a result at that position.
            round(a.impressions * 30.0 / 28 / case when a.pos28 <= 10 then 1 when a.pos28 < 12 then power(10, -(a.pos28 - 10) / 2) when a.pos28 <= 20 then 0.1 else 0.1 * power(20 / a.pos28, 2) end)::integer as volume
          from agg a join pages p using (query)
        )
        insert into keywords (site_id, keyword, source, search_volume, volume_source, difficulty, current_position, previous_position, url, intent, clicks_28d, impressions_28d)
        select ${siteId}, s.query, 'search_console', s.volume, 'estimated',
          least(100, round(12 * ln(1 + s.volume)))::integer,
          -- greatest() skips nulls: a keyword without impressions in a week keeps a null position.
          case when s.cur is null then null else greatest(1, round(s.cur))::integer end,
          case when s.prev is null then null else greatest(1, round(s.prev))::integer end, s.page,
          ${intentSql(sql`s.query`, brand)}, s.clicks, s.impressions
        from scored s
        on conflict (site_id, keyword) do update set
          search_volume = excluded.search_volume, volume_source = excluded.volume_source, difficulty = excluded.difficulty,
          current_position = excluded.current_position, previous_position = excluded.previous_position, url = excluded.url,
          clicks_28d = excluded.clicks_28d, impressions_28d = excluded.impressions_28d, updated_at = now()`.execute(db);
      // Keywords with no data in the window are not ranking now.
      await sql`
        update keywords k set current_position = null, previous_position = k.current_position, clicks_28d = 0, impressions_28d = 0, updated_at = now()
        where k.site_id = ${siteId} and k.current_position is not null
          and not exists (
            select 1 from search_query_daily q
            where q.site_id = ${siteId} and q.query = k.keyword and q.date > (select max(date) from search_query_daily where site_id = ${siteId}) - 28
          )`.execute(db);
    },
  };
}

export type SearchDataRepo = ReturnType<typeof createSearchDataRepo>;
