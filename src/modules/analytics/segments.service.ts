import type { Static } from 'typebox';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';
import type { Figures } from './performance.repo.ts';
import { changeOf, metricsOf } from './performance.service.ts';
import type { SegmentsQuery } from './segments.schemas.ts';
import type { SegmentsRepo } from './segments.repo.ts';
import { datesOf, isFinal, reportRange } from './report-periods.ts';

const NONE: Figures = { clicks: 0, impressions: 0, weighted_position: 0 };
const sum = (days: Iterable<Figures>): Figures => {
  const total = { ...NONE };
  for (const d of days) {
    total.clicks += d.clicks;
    total.impressions += d.impressions;
    total.weighted_position += d.weighted_position;
  }
  return total;
};

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
      const asked = query.sort ?? 'clicks';
      const sort = comparison ? asked : (asked.replace(/_change$/, '') as typeof asked);
      const pageSize = query.page_size ?? 50;
      const pageNumber = query.page ?? 1;
      const rows = await deps.repo.rows(site.id, {
        dimension: query.dimension, range, comparison, sort, order: query.order ?? (sort === 'position' ? 'asc' : 'desc'), limit: pageSize, offset: (pageNumber - 1) * pageSize,
      });
      /** One key's totals and days, for the charts. */
      const chartOf = async (key: string) => {
        const [current, previous] = await Promise.all([
          deps.repo.days(site.id, query.dimension, key, range),
          comparison ? deps.repo.days(site.id, query.dimension, key, comparison) : Promise.resolve(undefined),
        ]);
        const known = (date: string) => isFinal(date, covered.last) && rowsFrom !== null && date >= rowsFrom;
        const previousDates = comparison ? datesOf(comparison) : [];
        const now = metricsOf(sum(current.values()));
        const before = previous ? metricsOf(sum(previous.values())) : null;
        return {
          totals: { current: now, previous: before, change: before ? changeOf(now, before) : null },
          days: datesOf(range).map((date, i) => {
            const then = previousDates[i];
            return { date, final: known(date), ...metricsOf(current.get(date) ?? NONE), previous: then === undefined || !previous ? null : { date: then, ...metricsOf(previous.get(then) ?? NONE) } };
          }),
        };
      };
      const chart = query.key === undefined ? { totals: null, days: null } : await chartOf(query.key);
      return {
        site_id: site.id, dimension: query.dimension,
        period: { start: range.start, end: range.end, days: range.days },
        comparison: comparison ? { ...comparison, has_data: rowsFrom !== null && rowsFrom <= comparison.start } : null,
        rows_from: rowsFrom, key: query.key ?? null, ...chart,
        rows: {
          items: rows.items.map((r) => {
            const metrics = metricsOf(r.current);
            const before = r.previous ? metricsOf(r.previous) : null;
            return { key: r.key, ...metrics, previous: before, change: before ? changeOf(metrics, before) : null };
          }),
          total: rows.total, page: pageNumber, page_size: pageSize,
        },
      };
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
