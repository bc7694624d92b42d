import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import { brandOf, intentSql } from '../search-data/intent.ts';
import type { SitesService } from '../sites/sites.service.ts';

const COLUMNS = ['id', 'keyword', 'search_volume', 'volume_source', 'difficulty', 'current_position', 'previous_position', 'url', 'intent', 'source', 'updated_at'] as const;

/** Keywords of the caller's sites: from Search Console, plus those added by hand. */
export function createKeywordsService(deps: { db: Kysely<DB>; sites: Pick<SitesService, 'getSite'> }) {
  const { db } = deps;

  return {
    /** Most clicked first (the last 28 days), then alphabetically; keywords added by hand without data last. */
    async list(ownerId: string, query: { site_id: string; page?: number | undefined; page_size?: number | undefined }) {
      await deps.sites.getSite(ownerId, query.site_id);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const base = db.selectFrom('keywords').where('site_id', '=', query.site_id);
      const [items, count] = await Promise.all([
        base.select(COLUMNS).orderBy('clicks_28d', 'desc').orderBy('keyword').limit(pageSize).offset((page - 1) * pageSize).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total), page, page_size: pageSize };
    },

    async stats(ownerId: string, siteId: string) {
      await deps.sites.getSite(ownerId, siteId);
      const row = await db.selectFrom('keywords')
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
      return {
        total_keywords: Number(row.total),
        keywords_in_top_3: Number(row.top_3),
        keywords_in_top_10: Number(row.top_10),
        keywords_in_top_100: Number(row.top_100),
        average_position: row.average === null ? 0 : Math.round(Number(row.average) * 10) / 10,
        total_search_volume: Number(row.volume),
        position_changes: { improved: Number(row.improved), declined: Number(row.declined), unchanged: Number(row.unchanged) },
      };
    },

    /** A keyword to track by hand; it fills in from Search Console when data for it appears. */
    async add(ownerId: string, input: { site_id: string; keyword: string }) {
      const site = await deps.sites.getSite(ownerId, input.site_id);
      const keyword = input.keyword.trim().toLowerCase().replace(/\s+/g, ' ');
      try {
        const intent = await sql<{ intent: 'informational' | 'navigational' | 'commercial' | 'transactional' }>`select ${intentSql(sql`${keyword}::text`, brandOf(site.domain))} as intent`.execute(db);
        return await db.insertInto('keywords')
          .values({ site_id: input.site_id, keyword, source: 'manual', intent: intent.rows[0]!.intent, current_position: null, previous_position: null, url: null })
          .returning(COLUMNS).executeTakeFirstOrThrow();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`The site already tracks "${keyword}"`);
        throw error;
      }
    },

    async remove(ownerId: string, keywordId: string) {
      const deleted = await db.deleteFrom('keywords')
        .where('id', '=', keywordId)
        .where('site_id', 'in', db.selectFrom('sites').select('id').where('owner_id', '=', ownerId))
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('Keyword');
    },
  };
}

export type KeywordsService = ReturnType<typeof createKeywordsService>;
