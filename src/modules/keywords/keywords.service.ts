import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import { brandOf } from '../search-data/intent.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { KeywordFilters, KeywordSort, KeywordsRepo } from './keywords.repo.ts';
import { EXPORT_BATCH, fileNamePart, type CsvColumn, type CsvExport } from '../../lib/csv-export.ts';
import { datesOf, reportRange, type ReportPeriod } from '../analytics/report-periods.ts';

/** Sorts whose natural first page is the largest value (most clicks, most gained, hardest). */
const DESCENDING_FIRST = new Set<KeywordSort>(['clicks', 'change', 'volume', 'difficulty']);

type ListQuery = KeywordFilters & { site_id: string; sort?: KeywordSort | undefined; order?: 'asc' | 'desc' | undefined };
const filtersOf = (q: KeywordFilters): KeywordFilters => ({ search: q.search, intent: q.intent, position: q.position, change: q.change, tag: q.tag });

const orderOf = (query: { sort?: KeywordSort | undefined; order?: 'asc' | 'desc' | undefined }) => {
  const sort = query.sort ?? 'clicks';
  return { sort, dir: query.order ?? (DESCENDING_FIRST.has(sort) ? 'desc' : 'asc') };
};

type KeywordRow = ReturnType<KeywordsRepo['exportBatches']> extends AsyncIterable<Array<infer Row>> ? Row : never;
/** The export's columns: what the list shows, the change in places (positive: gained), and how the volume was had. */
const KEYWORD_COLUMNS: Array<CsvColumn<KeywordRow>> = [
  { header: 'keyword', value: (k) => k.keyword },
  { header: 'position', value: (k) => k.current_position },
  { header: 'previous_position', value: (k) => k.previous_position },
  { header: 'positions_gained', value: (k) => (k.current_position === null || k.previous_position === null ? null : k.previous_position - k.current_position) },
  { header: 'clicks_28d', value: (k) => k.clicks_28d },
  { header: 'impressions_28d', value: (k) => k.impressions_28d },
  { header: 'url', value: (k) => k.url },
  { header: 'intent', value: (k) => k.intent },
  { header: 'source', value: (k) => k.source },
  { header: 'tags', value: (k) => k.tags.join('; ') },
  { header: 'search_volume', value: (k) => k.search_volume },
  { header: 'volume_source', value: (k) => k.volume_source },
  { header: 'difficulty', value: (k) => k.difficulty },
  { header: 'updated_at', value: (k) => new Date(k.updated_at).toISOString() },
];

/** Keywords of the caller's sites: from Search Console, plus those added by hand. */
export function createKeywordsService(deps: { repo: KeywordsRepo; sites: Pick<SitesService, 'getSite' | 'requireAccess'>; now?: () => Date }) {
  const { repo } = deps;

  return {
    /**
     * Most clicked first (the last 28 days) unless another order is asked for, over the whole
     * list before paging; keywords without the value (added by hand, no data yet) last.
     */
    async list(ownerId: string, query: ListQuery & { page?: number | undefined; page_size?: number | undefined }) {
      await deps.sites.getSite(ownerId, query.site_id);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const { items, total } = await repo.page(query.site_id, page, pageSize, orderOf(query), filtersOf(query));
      return { items, total, page, page_size: pageSize };
    },

    /** Every keyword of the site as a CSV file, in the list's order, with its last 28 days' clicks and impressions. */
    async exportAll(ownerId: string, query: ListQuery): Promise<CsvExport<KeywordRow>> {
      const site = await deps.sites.getSite(ownerId, query.site_id);
      const order = orderOf(query);
      const filters = filtersOf(query);
      return {
        filename: `${fileNamePart(site.domain)}-keywords.csv`,
        columns: KEYWORD_COLUMNS,
        batches: repo.exportBatches(site.id, order, filters, EXPORT_BATCH),
      };
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

    /**
     * A keyword's rank history: every day of the period with its position, clicks, impressions and the page that ranked
     * (Search Console's rows; a day it did not report has no position), the days the ranking page changed, and when
     * Search Console last reported the query, so that a keyword added by hand can say where its figures come from.
     */
    async history(userId: string, keywordId: string, query: { period?: ReportPeriod | undefined; start?: string | undefined; end?: string | undefined }) {
      await deps.sites.requireAccess(userId, { keyword: keywordId }, 'viewer');
      const keyword = await repo.find(userId, keywordId);
      if (!keyword) throw notFound('Keyword');
      const seen = await repo.lastSeen(keyword.site_id, keyword.keyword);
      const range = reportRange({ ...query, compare: 'none' }, seen.site ?? undefined, deps.now?.() ?? new Date());
      const rows = new Map((await repo.dailyHistory(keyword.site_id, keyword.keyword, range.start, range.end)).map((r) => [r.date, r]));
      const days = datesOf(range).map((date) => {
        const row = rows.get(date);
        return { date, position: row?.position == null ? null : Math.round(row.position * 10) / 10, clicks: row?.clicks ?? 0, impressions: row?.impressions ?? 0, page: row?.page ?? null };
      });
      const pageChanges: Array<{ date: string; from: string; to: string }> = [];
      let ranking: string | null = null;
      for (const d of days) {
        if (d.page === null) continue;
        if (ranking !== null && d.page !== ranking) pageChanges.push({ date: d.date, from: ranking, to: d.page });
        ranking = d.page;
      }
      const clicks = days.reduce((n, d) => n + d.clicks, 0);
      const impressions = days.reduce((n, d) => n + d.impressions, 0);
      const weighted = [...rows.values()].reduce((n, r) => n + (r.position ?? 0) * r.impressions, 0);
      const positions = days.flatMap((d) => (d.position === null ? [] : [d.position]));
      return {
        keyword_id: keyword.id, keyword: keyword.keyword, source: keyword.source,
        period: { start: range.start, end: range.end, days: range.days },
        last_seen: seen.query, data_through: seen.site,
        totals: { clicks, impressions, position: impressions === 0 ? null : Math.round((weighted / impressions) * 10) / 10, best_position: positions.length ? Math.min(...positions) : null },
        days, page_changes: pageChanges,
      };
    },

    /** Replaces a keyword's tags (editor and up). */
    async update(userId: string, keywordId: string, input: { tags: string[] }) {
      await deps.sites.requireAccess(userId, { keyword: keywordId }, 'editor');
      const updated = await repo.setTags(userId, keywordId, input.tags);
      if (!updated) throw notFound('Keyword');
      return updated;
    },

    /** The tags a site's keywords carry, most used first. */
    async tags(userId: string, siteId: string) {
      await deps.sites.getSite(userId, siteId);
      return { items: await repo.tagsOf(siteId) };
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
