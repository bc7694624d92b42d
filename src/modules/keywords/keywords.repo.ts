import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { containing } from '../../lib/like-pattern.ts';
import { snapshotBatches } from '../../db/snapshot-cursor.ts';
import { intentSql } from '../search-data/intent.ts';
import type { CHANGES, INTENTS, KEYWORD_SORTS, POSITION_BANDS } from './keywords.schemas.ts';
import { memberWorkspaces } from '../workspaces/access.repo.ts';

const COLUMNS = ['id', 'keyword', 'search_volume', 'volume_source', 'difficulty', 'current_position', 'previous_position', 'url', 'intent', 'source', 'tags', 'updated_at'] as const;

export type KeywordSort = (typeof KEYWORD_SORTS)[number];
export interface KeywordOrder { sort: KeywordSort; dir: 'asc' | 'desc' }
export interface KeywordFilters {
  search?: string | undefined;
  intent?: (typeof INTENTS)[number] | undefined;
  position?: (typeof POSITION_BANDS)[number] | undefined;
  change?: (typeof CHANGES)[number] | undefined;
  tag?: string | undefined;
}

/** Each position band as a condition on the current position (fixed SQL, never a client's text). */
const BANDS: Record<(typeof POSITION_BANDS)[number], ReturnType<typeof sql>> = {
  '1-3': sql`current_position between 1 and 3`,
  '4-10': sql`current_position between 4 and 10`,
  '11-20': sql`current_position between 11 and 20`,
  '21-100': sql`current_position between 21 and 100`,
  unranked: sql`current_position is null`,
};
const MOVES: Record<(typeof CHANGES)[number], ReturnType<typeof sql>> = {
  improved: sql`current_position < previous_position`,
  declined: sql`current_position > previous_position`,
  unchanged: sql`current_position = previous_position`,
  new: sql`current_position is not null and previous_position is null`,
};
/** What each sort orders by: fixed expressions only, never a client's text. */
const SORT_COLUMNS: Record<KeywordSort, ReturnType<typeof sql>> = {
  clicks: sql`clicks_28d`,
  keyword: sql`keyword`,
  position: sql`current_position`,
  // Positions gained since the previous period (a move from 8 to 3 is +5).
  change: sql`(previous_position - current_position)`,
  volume: sql`search_volume`,
  difficulty: sql`difficulty`,
  intent: sql`intent`,
  url: sql`url`,
};

/**
 * Keywords of a site. Rows from Search Console are written by the sync (search-data's
 * refreshKeywords, one statement over the query data); this repository reads them and
 * writes the keywords added by hand.
 */
export function createKeywordsRepo(db: Kysely<DB>) {
  const matching = (siteId: string, f: KeywordFilters) => {
    let query = db.selectFrom('keywords').where('site_id', '=', siteId);
    if (f.search !== undefined) query = query.where(sql<boolean>`keyword ilike ${containing(f.search)}`);
    if (f.intent !== undefined) query = query.where('intent', '=', f.intent);
    if (f.position !== undefined) query = query.where(sql<boolean>`${BANDS[f.position]}`);
    if (f.change !== undefined) query = query.where(sql<boolean>`${MOVES[f.change]}`);
    if (f.tag !== undefined) query = query.where(sql<boolean>`tags @> array[${f.tag}]::text[]`);
    return query;
  };
  /** The sites of the workspaces a user is a member of: every read or write by a keyword's id names them. */
  const memberSites = (userId: string) => db.selectFrom('sites').select('id').where('workspace_id', 'in', memberWorkspaces(db, userId));
  const ordered = (siteId: string, order: KeywordOrder, filters: KeywordFilters) => matching(siteId, filters)
    .orderBy(sql`${SORT_COLUMNS[order.sort]} ${sql.raw(order.dir === 'asc' ? 'asc' : 'desc')} nulls last`)
    .orderBy('keyword').orderBy('id');
  return {
    /** One page of the site's keywords in the given order (missing values last), ties by keyword then id. */
    async page(siteId: string, page: number, pageSize: number, order: KeywordOrder = { sort: 'clicks', dir: 'desc' }, filters: KeywordFilters = {}) {
      const [items, count] = await Promise.all([
        ordered(siteId, order, filters).select(COLUMNS).limit(pageSize).offset((page - 1) * pageSize).execute(),
        matching(siteId, filters).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },

    /**
     * Rows of the export, in the list's order, a batch at a time: the list's columns and the last 28 days' clicks and
     * impressions. Read in one snapshot: the orders are by figures a sync rewrites (clicks, positions), so the last row
     * read is no stable place to go on from.
     */
    exportBatches(siteId: string, order: KeywordOrder, filters: KeywordFilters, size: number) {
      return snapshotBatches(db, async () => ordered(siteId, order, filters).select([...COLUMNS, 'clicks_28d', 'impressions_28d']), size);
    },

    stats(siteId: string) {
      return db.selectFrom('keywords')
        .select([
          sql<number>`count(*)`.as('total'),
          sql<number>`count(*) filter (where current_position <= 3)`.as('top_3'),
          sql<number>`count(*) filter (where current_position <= 10)`.as('top_10'),
          sql<number>`count(*) filter (where current_position <= 100)`.as('top_100'),
          sql<number | null>`avg(current_position)`.as('average'),
          sql<number>`coalesce(sum(search_volume), 0)`.as('volume'),
          sql<number>`count(*) filter (where current_position < previous_position)`.as('improved'),
          sql<number>`count(*) filter (where current_position > previous_position)`.as('declined'),
          sql<number>`count(*) filter (where current_position = previous_position)`.as('unchanged'),
        ])
        .where('site_id', '=', siteId).executeTakeFirstOrThrow();
    },

    /** A keyword added by hand, its intent classified like the synced ones (throws a unique violation when tracked already). */
    async insertManual(siteId: string, keyword: string, brand: string | undefined) {
      const intent = await sql<{ intent: 'informational' | 'navigational' | 'commercial' | 'transactional' }>`select ${intentSql(sql`${keyword}::text`, brand)} as intent`.execute(db);
      return db.insertInto('keywords')
        .values({ site_id: siteId, keyword, source: 'manual', intent: intent.rows[0]!.intent, current_position: null, previous_position: null, url: null })
        .returning(COLUMNS).executeTakeFirstOrThrow();
    },

    /** For the search planner: ranking keywords, most impressions first. */
    rankedForPlanning(siteId: string) {
      return db.selectFrom('keywords')
        .select(['keyword', 'current_position', 'impressions_28d', 'clicks_28d', 'url', 'intent'])
        .where('site_id', '=', siteId).where('current_position', 'is not', null).orderBy('impressions_28d', 'desc').limit(5000).execute();
    },

    /** Replaces a keyword's tags (the caller's role is checked before; the row is one of their sites' too); the row as the list gives it. */
    setTags(userId: string, keywordId: string, tags: readonly string[]) {
      return db.updateTable('keywords').set({ tags: sql`${sql.val(tags)}::text[]` }).where('id', '=', keywordId).where('site_id', 'in', memberSites(userId))
        .returning(COLUMNS).executeTakeFirst();
    },

    /** The site's tags in use, most used first (for the filter's choices). */
    async tagsOf(siteId: string) {
      const { rows } = await sql<{ tag: string; keywords: number }>`
        select tag, count(*) as keywords from keywords, unnest(tags) as tag where site_id = ${siteId} group by tag order by count(*) desc, tag limit 200`.execute(db);
      return rows.map((r) => ({ tag: r.tag, keywords: Number(r.keywords) }));
    },

    /** A keyword's row, of one of the caller's sites. */
    find(userId: string, keywordId: string) {
      return db.selectFrom('keywords').select([...COLUMNS, 'site_id']).where('id', '=', keywordId).where('site_id', 'in', memberSites(userId)).executeTakeFirst();
    },

    /**
     * A query's figures per day over a range, from Search Console's query x page rows: clicks and impressions summed,
     * the position weighted by impressions, and the page shown most that day (then most clicked) as the one ranking.
     */
    async dailyHistory(siteId: string, query: string, start: string, end: string) {
      const { rows } = await sql<{ date: string; clicks: number; impressions: number; position: number | null; page: string }>`
        with by_page as (
          select date, page, sum(clicks) as clicks, sum(impressions) as impressions, sum(position * impressions) as weighted
          from search_query_daily where site_id = ${siteId} and query = ${query} and date between ${start} and ${end}
          group by date, page)
        select date::text as date, sum(clicks) as clicks, sum(impressions) as impressions,
               sum(weighted) / nullif(sum(impressions), 0) as position,
               (array_agg(page order by impressions desc, clicks desc, page))[1] as page
        from by_page group by date order by date`.execute(db);
      return rows.map((r) => ({ ...r, clicks: Number(r.clicks), impressions: Number(r.impressions), position: r.position === null ? null : Number(r.position) }));
    },

    /** The last day Search Console reported the query for the site, and the last day it reported anything (null when never). */
    async lastSeen(siteId: string, query: string) {
      const { rows } = await sql<{ query_last: string | null; site_last: string | null }>`
        select (select max(date)::text from search_query_daily where site_id = ${siteId} and query = ${query}) as query_last,
               (select max(date)::text from search_daily where site_id = ${siteId}) as site_last`.execute(db);
      return { query: rows[0]?.query_last ?? null, site: rows[0]?.site_last ?? null };
    },

    /** Deletes one of the owner's keywords; false when there is none. */
    async remove(ownerId: string, keywordId: string) {
      const deleted = await db.deleteFrom('keywords')
        .where('id', '=', keywordId)
        .where('site_id', 'in', db.selectFrom('sites').select('id').where('workspace_id', 'in', memberWorkspaces(db, ownerId)))
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },
  };
}

export type KeywordsRepo = ReturnType<typeof createKeywordsRepo>;
