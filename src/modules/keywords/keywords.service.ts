import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import { brandOf } from '../search-data/intent.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { KeywordSort, KeywordsRepo } from './keywords.repo.ts';

/** Sorts whose natural first page is the largest value (most clicks, most gained, hardest). */
const DESCENDING_FIRST = new Set<KeywordSort>(['clicks', 'change', 'volume', 'difficulty']);

/** Keywords of the caller's sites: from Search Console, plus those added by hand. */
export function createKeywordsService(deps: { repo: KeywordsRepo; sites: Pick<SitesService, 'getSite' | 'requireAccess'> }) {
  const { repo } = deps;

  return {
    /**
     * Most clicked first (the last 28 days) unless another order is asked for, over the whole
     * list before paging; keywords without the value (added by hand, no data yet) last.
     */
    async list(ownerId: string, query: { site_id: string; sort?: KeywordSort | undefined; order?: 'asc' | 'desc' | undefined; page?: number | undefined; page_size?: number | undefined }) {
      await deps.sites.getSite(ownerId, query.site_id);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const sort = query.sort ?? 'clicks';
      const dir = query.order ?? (DESCENDING_FIRST.has(sort) ? 'desc' : 'asc');
      const { items, total } = await repo.page(query.site_id, page, pageSize, { sort, dir });
      return { items, total, page, page_size: pageSize };
    },

    async stats(ownerId: string, siteId: string) {
      await deps.sites.getSite(ownerId, siteId);
      const row = await repo.stats(siteId);
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
      const site = await deps.sites.getSite(ownerId, input.site_id, 'editor');
      const keyword = input.keyword.trim().toLowerCase().replace(/\s+/g, ' ');
      try {
        return await repo.insertManual(input.site_id, keyword, brandOf(site.domain));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`The site already tracks "${keyword}"`);
        throw error;
      }
    },

    /** For the search planner (internal, no owner): the site's ranking keywords. */
    rankedForPlanning: (siteId: string) => repo.rankedForPlanning(siteId),

    async remove(ownerId: string, keywordId: string) {
      await deps.sites.requireAccess(ownerId, { keyword: keywordId }, 'editor');
      if (!(await repo.remove(ownerId, keywordId))) throw notFound('Keyword');
    },
  };
}

export type KeywordsService = ReturnType<typeof createKeywordsService>;
