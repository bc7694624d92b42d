import type { Static } from 'typebox';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';
import type { SegmentsQuery } from './segments.schemas.ts';
import type { SegmentsRepo } from './segments.repo.ts';
import { isFinal, reportRange } from './report-periods.ts';
import { chartOf, tableOrder, tableRowOf } from './period-figures.ts';

/**
 * The performance report's countries and devices, as Search Console's tables: each key's
 * figures in the period beside the comparison's, sorted and paged; with `key`, that country's
 * or device's totals and days for the charts.
 */
export function createSegmentsService(deps: { repo: SegmentsRepo; analytics: Pick<AnalyticsRepo, 'coverage'>; sites: Pick<SitesService, 'getSite'>; now?: () => Date }) {
  return {
    async report(userId: string, query: Static<typeof SegmentsQuery>) {
      const site = await deps.sites.getSite(userId, query.site_id);
      const [covered, rowsFrom] = await Promise.all([deps.analytics.coverage('search_daily', site.id), deps.repo.firstDate(site.id, query.dimension)]);
      const range = reportRange(query, covered.last ?? undefined, deps.now?.() ?? new Date());
      const comparison = range.comparison;
      const pageSize = query.page_size ?? 50;
      const pageNumber = query.page ?? 1;
      const rows = await deps.repo.rows(site.id, {
        dimension: query.dimension, range, comparison, ...tableOrder(query, comparison), limit: pageSize, offset: (pageNumber - 1) * pageSize,
      });
      /** One key's totals and days, for the charts. */
      const chartOfKey = async (key: string) => {
        const [current, previous] = await Promise.all([
          deps.repo.days(site.id, query.dimension, key, range),
          comparison ? deps.repo.days(site.id, query.dimension, key, comparison) : Promise.resolve(undefined),
        ]);
        return chartOf(range, current, previous, (date) => isFinal(date, covered.last) && rowsFrom !== null && date >= rowsFrom);
      };
      const chart = query.key === undefined ? { totals: null, days: null } : await chartOfKey(query.key);
      return {
        site_id: site.id, dimension: query.dimension,
        period: { start: range.start, end: range.end, days: range.days },
        comparison: comparison ? { ...comparison, has_data: rowsFrom !== null && rowsFrom <= comparison.start } : null,
        rows_from: rowsFrom, key: query.key ?? null, ...chart,
        rows: { items: rows.items.map(tableRowOf), total: rows.total, page: pageNumber, page_size: pageSize },
      };
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
