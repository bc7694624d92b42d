import type { Static } from 'typebox';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';
import { hasFilters, type PerformanceRepo, type ReportFilters } from './performance.repo.ts';
import type { PerformanceExportQuery, PerformanceQuery } from './performance.schemas.ts';
import { EXPORT_BATCH, fileNamePart, mapBatches, type CsvColumn, type CsvExport } from '../../lib/csv-export.ts';
import { isFinal, reportRange } from './report-periods.ts';
import { chartOf, tableOrder, tableRowOf } from './period-figures.ts';

/**
 * The performance report, as Search Console's: a period's clicks, impressions, CTR and
 * position in totals and by day, each against a comparison period, and its queries or pages
 * sorted by any metric or change, searched, filtered and paged. A filter narrows everything;
 * without one the totals are the property's own.
 */
export function createPerformanceService(deps: {
  repo: PerformanceRepo; analytics: Pick<AnalyticsRepo, 'coverage'>; sites: Pick<SitesService, 'getSite'>; now?: () => Date;
}) {
  const now = () => deps.now?.() ?? new Date();

  /** What the report and its export share: the site (the caller may see it), the period and comparison, filters, order. */
  async function prepare(userId: string, query: Static<typeof PerformanceExportQuery>) {
    const site = await deps.sites.getSite(userId, query.site_id);
    const [covered, rowsFrom] = await Promise.all([deps.analytics.coverage('search_daily', site.id), deps.repo.firstQueryDate(site.id)]);
    const range = reportRange(query, covered.last ?? undefined, now());
    const filters: ReportFilters = {
      query_contains: query.query_contains, query_not_contains: query.query_not_contains, query_equals: query.query_equals,
      page_contains: query.page_contains, page_not_contains: query.page_not_contains, page_equals: query.page_equals,
    };
    const { sort, order } = tableOrder(query, range.comparison);
    return { site, covered, rowsFrom, range, filters, comparison: range.comparison, filtered: hasFilters(filters), sort, order };
  }

  return {
    async report(userId: string, query: Static<typeof PerformanceQuery>) {
      const { site, covered, rowsFrom, range, filters, comparison, filtered, sort, order } = await prepare(userId, query);
      // Filtered figures are the query rows' (kept for fewer days than the totals): the days before them are unknown, not zero.
      const firstKnown = filtered ? rowsFrom : covered.first;
      const known = (date: string) => isFinal(date, covered.last) && firstKnown !== null && date >= firstKnown;
      const pageSize = query.page_size ?? 50;
      const pageNumber = query.page ?? 1;
      const [current, previous, rows] = await Promise.all([
        deps.repo.days(site.id, range, filters),
        comparison ? deps.repo.days(site.id, comparison, filters) : Promise.resolve(undefined),
        deps.repo.rows(site.id, {
          dimension: query.dimension ?? 'query', range, comparison, filters, search: query.search, sort, order,
          limit: pageSize, offset: (pageNumber - 1) * pageSize,
        }),
      ]);
      return {
        site_id: site.id,
        period: { start: range.start, end: range.end, days: range.days },
        comparison: comparison ? { ...comparison, has_data: firstKnown !== null && firstKnown <= comparison.start } : null,
        filtered,
        rows_from: rowsFrom,
        ...chartOf(range, current, previous, known),
        rows: {
          dimension: query.dimension ?? 'query',
          items: rows.items.map(tableRowOf),
          total: rows.total, page: pageNumber, page_size: pageSize,
        },
      };
    },

    /**
     * The report's table as a CSV file: every query or page of the period (filtered, searched and sorted as asked), each
     * with its figures and, with a comparison, the comparison's and the change, read a batch at a time.
     */
    async exportRows(userId: string, query: Static<typeof PerformanceExportQuery>): Promise<CsvExport<ExportRow>> {
      const { site, range, filters, comparison, sort, order } = await prepare(userId, query);
      const dimension = query.dimension ?? 'query';
      const kind = dimension === 'query' ? 'queries' : 'pages';
      return {
        filename: `${fileNamePart(site.domain)}-${kind}-${range.start}-to-${range.end}${comparison ? `-vs-${comparison.start}-to-${comparison.end}` : ''}.csv`,
        columns: [...exportColumns(dimension), ...(comparison ? COMPARISON_COLUMNS : [])],
        // Summed and sorted once, in one snapshot (performance.repo exportBatches), then read a batch at a time.
        batches: mapBatches(deps.repo.exportBatches(site.id, { dimension, range, comparison, filters, search: query.search, sort, order }, EXPORT_BATCH), (rows) => rows.map(tableRowOf)),
      };
    },
  };
}

type ExportRow = ReturnType<typeof tableRowOf>;
const exportColumns = (dimension: 'query' | 'page'): Array<CsvColumn<ExportRow>> => [
  { header: dimension, value: (r) => r.key },
  { header: 'clicks', value: (r) => r.clicks },
  { header: 'impressions', value: (r) => r.impressions },
  { header: 'ctr', value: (r) => r.ctr },
  { header: 'position', value: (r) => r.position },
];
const COMPARISON_COLUMNS: Array<CsvColumn<ExportRow>> = [
  { header: 'previous_clicks', value: (r) => r.previous?.clicks },
  { header: 'previous_impressions', value: (r) => r.previous?.impressions },
  { header: 'previous_ctr', value: (r) => r.previous?.ctr },
  { header: 'previous_position', value: (r) => r.previous?.position },
  { header: 'clicks_change_percent', value: (r) => r.change?.clicks },
  { header: 'impressions_change_percent', value: (r) => r.change?.impressions },
  { header: 'ctr_change_points', value: (r) => r.change?.ctr },
  { header: 'position_change', value: (r) => r.change?.position },
];

export type PerformanceService = ReturnType<typeof createPerformanceService>;
