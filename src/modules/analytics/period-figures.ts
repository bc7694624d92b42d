import { changePercent } from '../search-data/periods.ts';
import type { Figures, Sort } from './performance.repo.ts';
import { datesOf, type DateRange, type ReportRange } from './report-periods.ts';

/**
 * Search Console's figures of a period beside its comparison's, as the performance report shows
 * them: the totals, the chart's days and a table's row. The queries and pages (performance.service)
 * and the countries and devices (segments.service) share them, so that every table and chart of
 * the report computes CTR, position and their changes the same way.
 */

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** No clicks, no impressions: a day without a row (Search Console leaves such days out). */
const NONE: Figures = { clicks: 0, impressions: 0, weighted_position: 0 };

/** Clicks, impressions, CTR and the impression-weighted position of some figures. */
export function metricsOf(f: Figures) {
  return {
    clicks: f.clicks,
    impressions: f.impressions,
    ctr: f.impressions === 0 ? null : round(f.clicks / f.impressions, 4),
    position: f.impressions === 0 ? null : round(f.weighted_position / f.impressions, 1),
  };
}
export type Metrics = ReturnType<typeof metricsOf>;

/** The change from `before` to `now`: percent for counts, percentage points for CTR, places for position. */
export function changeOf(now: Metrics, before: Metrics) {
  return {
    clicks: changePercent(now.clicks, before.clicks),
    impressions: changePercent(now.impressions, before.impressions),
    ctr: now.ctr === null || before.ctr === null ? null : round((now.ctr - before.ctr) * 100, 2),
    position: now.position === null || before.position === null ? null : round(now.position - before.position, 1),
  };
}

function sumOf(days: Iterable<Figures>): Figures {
  const total = { ...NONE };
  for (const d of days) {
    total.clicks += d.clicks;
    total.impressions += d.impressions;
    total.weighted_position += d.weighted_position;
  }
  return total;
}

/**
 * The sort and order a table is read in: a change needs a period to change from, so without a comparison a change's sort
 * is its metric's; the default order is the best first (the highest figures, the lowest position).
 */
export function tableOrder(query: { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined }, comparison: DateRange | null) {
  const asked = query.sort ?? 'clicks';
  const sort = comparison ? asked : (asked.replace(/_change$/, '') as Sort);
  return { sort, order: query.order ?? (sort === 'position' ? 'asc' : 'desc') } as const;
}

/** A table's row: its figures in the period, in the comparison period (null without one) and the change. */
export function tableRowOf(r: { key: string; current: Figures; previous?: Figures | undefined }) {
  const metrics = metricsOf(r.current);
  const before = r.previous ? metricsOf(r.previous) : null;
  return { key: r.key, ...metrics, previous: before, change: before ? changeOf(metrics, before) : null };
}

/**
 * The charts of a period: its totals against the comparison's (if any), and every day of the period (a day without data
 * counts as none), each beside the day in the same place of the comparison period. `known` tells a day's figures are
 * settled and covered by the data.
 */
export function chartOf(range: ReportRange, current: Map<string, Figures>, previous: Map<string, Figures> | undefined, known: (date: string) => boolean) {
  const totalNow = metricsOf(sumOf(current.values()));
  const totalBefore = previous ? metricsOf(sumOf(previous.values())) : null;
  const previousDates = range.comparison ? datesOf(range.comparison) : [];
  return {
    totals: { current: totalNow, previous: totalBefore, change: totalBefore ? changeOf(totalNow, totalBefore) : null },
    days: datesOf(range).map((date, i) => {
      const then = previousDates[i];
      return {
        date, final: known(date), ...metricsOf(current.get(date) ?? NONE),
        previous: then === undefined || !previous ? null : { date: then, ...metricsOf(previous.get(then) ?? NONE) },
      };
    }),
  };
}
