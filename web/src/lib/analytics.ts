// The Analytics page's periods and metrics, agreeing with the Performance page: the same default period (Search
// Console's 28 days) and the same names for the same figures.
import { DEFAULT_PERIOD, METRIC_NAMES } from './metric-names.ts';

/** The dashboard's and trends' periods in the API (the contract's: 7d, 30d, 90d, 12m; 30d by default). */
export type ApiPeriod = '7d' | '30d' | '90d' | '12m';

/**
 * The page's periods. The API has no 28 days (its contract names 30): the 28 days are its 30 days' last 28 in the charts,
 * and the clicks of the Performance report's 28 days (the same figure the Performance page shows).
 */
export const ANALYTICS_PERIODS = [
  { value: '7d', label: '7 days', api: '7d' },
  { value: '28d', label: '28 days', api: '30d', days: 28 },
  { value: '90d', label: '90 days', api: '90d' },
  { value: '12m', label: '12 months', api: '12m' },
] as const satisfies ReadonlyArray<{ value: string; label: string; api: ApiPeriod; days?: number }>;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number]['value'];
export const ANALYTICS_DEFAULT: AnalyticsPeriod = DEFAULT_PERIOD;

/** The period the address asks for, else the default (28 days, as on the Performance page). */
export function analyticsPeriod(value: string | undefined) {
  return ANALYTICS_PERIODS.find((p) => p.value === value) ?? ANALYTICS_PERIODS.find((p) => p.value === ANALYTICS_DEFAULT)!;
}

/** The points of the last `days` days up to `end` (a period's last day), oldest first; every point without `days`. */
export function lastDays<T extends { date: string }>(points: readonly T[], end: string, days?: number): T[] {
  if (days === undefined) return [...points];
  const first = new Date(Date.parse(`${end}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return points.filter((p) => p.date >= first && p.date <= end);
}

/**
 * The trends charted, each named as the Performance page names it. The API's bounce rate is charted as GA4's
 * engagement rate (engaged sessions over sessions: 1 − the bounce rate), its conversions as GA4's key events.
 */
export const ANALYTICS_METRICS = [
  { metric: 'organic_traffic', title: METRIC_NAMES.clicks, unit: 'from Google Search, a day', color: '#2557d6', sum: true },
  { metric: 'keyword_positions', title: METRIC_NAMES.position, unit: 'lower is better', color: '#7c3aed', invert: true, digits: 1 },
  { metric: 'conversions', title: METRIC_NAMES.key_events, unit: 'a day', color: '#047857', sum: true },
  { metric: 'page_views', title: METRIC_NAMES.page_views, unit: 'a day', color: '#b45309', sum: true },
  { metric: 'bounce_rate', title: METRIC_NAMES.engagement_rate, unit: '% of sessions', color: '#be123c', digits: 1, engagement: true },
] as const;

/** A day's bounce rate (a share, 0.42, or a percentage, 42) as the engagement rate in percent (58). */
export const engagementPercent = (bounce: number) => 100 - (bounce <= 1 ? bounce * 100 : bounce);
