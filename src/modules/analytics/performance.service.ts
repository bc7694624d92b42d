import type { Static } from 'typebox';
import { changePercent } from '../search-data/periods.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';
import { hasFilters, type Figures, type PerformanceRepo, type ReportFilters } from './performance.repo.ts';
import type { PerformanceQuery } from './performance.schemas.ts';
import { datesOf, isFinal, reportRange } from './report-periods.ts';

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** Clicks, impressions, CTR and the impression-weighted position of some figures. */
export function metricsOf(f: Figures) {
  return {
    clicks: f.clicks,
    impressions: f.impressions,
    ctr: f.impressions === 0 ? null : round(f.clicks / f.impressions, 4),
    position: f.impressions === 0 ? null : round(f.weighted_position / f.impressions, 1),
  };
}
type Metrics = ReturnType<typeof metricsOf>;

/** The change from `before` to `now`: percent for counts, percentage points for CTR, places for position. */
export function changeOf(now: Metrics, before: Metrics) {
  return {
    clicks: changePercent(now.clicks, before.clicks),
    impressions: changePercent(now.impressions, before.impressions),
    ctr: now.ctr === null || before.ctr === null ? null : round((now.ctr - before.ctr) * 100, 2),
    position: now.position === null || before.position === null ? null : round(now.position - before.position, 1),
  };
}

const sum = (days: Iterable<Figures>): Figures => {
  const total = { clicks: 0, impressions: 0, weighted_position: 0 };
  for (const d of days) {
    total.clicks += d.clicks;
    total.impressions += d.impressions;
    total.weighted_position += d.weighted_position;
  }
  return total;
};
const NONE: Figures = { clicks: 0, impressions: 0, weighted_position: 0 };

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
  return {
    async report(userId: string, query: Static<typeof PerformanceQuery>) {
      const site = await deps.sites.getSite(userId, query.site_id);
      const [covered, rowsFrom] = await Promise.all([deps.analytics.coverage('search_daily', site.id), deps.repo.firstQueryDate(site.id)]);
      const range = reportRange(query, covered.last ?? undefined, now());
      const filters: ReportFilters = {
        query_contains: query.query_contains, query_not_contains: query.query_not_contains, query_equals: query.query_equals,
        page_contains: query.page_contains, page_not_contains: query.page_not_contains, page_equals: query.page_equals,
      };
      const comparison = range.comparison;
      const filtered = hasFilters(filters);
      // Filtered figures are the query rows' (kept for fewer days than the totals): the days before them are unknown, not zero.
      const firstKnown = filtered ? rowsFrom : covered.first;
      const known = (date: string) => isFinal(date, covered.last) && firstKnown !== null && date >= firstKnown;
      // A change needs a period to change from: without a comparison a change's sort is its metric's.
      const asked = query.sort ?? 'clicks';
      const sort = comparison ? asked : (asked.replace(/_change$/, '') as typeof asked);
      const pageSize = query.page_size ?? 50;
      const pageNumber = query.page ?? 1;
      const [current, previous, rows] = await Promise.all([
        deps.repo.days(site.id, range, filters),
        comparison ? deps.repo.days(site.id, comparison, filters) : Promise.resolve(undefined),
        deps.repo.rows(site.id, {
          dimension: query.dimension ?? 'query', range, comparison, filters, search: query.search, sort,
          order: query.order ?? (sort === 'position' ? 'asc' : 'desc'), limit: pageSize, offset: (pageNumber - 1) * pageSize,
        }),
      ]);
      const totalNow = metricsOf(sum(current.values()));
      const totalBefore = previous ? metricsOf(sum(previous.values())) : null;
      const previousDates = comparison ? datesOf(comparison) : [];
      return {
        site_id: site.id,
        period: { start: range.start, end: range.end, days: range.days },
        comparison: comparison ? { ...comparison, has_data: firstKnown !== null && firstKnown <= comparison.start } : null,
        filtered,
        rows_from: rowsFrom,
        totals: { current: totalNow, previous: totalBefore, change: totalBefore ? changeOf(totalNow, totalBefore) : null },
        // Every day of the period (Search Console leaves out a day without data: it counts as none), each beside the day
        // in the same place of the comparison period.
        days: datesOf(range).map((date, i) => {
          const before = previousDates[i];
          return {
            date, final: known(date), ...metricsOf(current.get(date) ?? NONE),
            previous: before === undefined || !previous ? null : { date: before, ...metricsOf(previous.get(before) ?? NONE) },
          };
        }),
        rows: {
          dimension: query.dimension ?? 'query',
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

export type PerformanceService = ReturnType<typeof createPerformanceService>;
