// What the Performance page's parts share: the report's types, settings and how its figures read.
import type { paths } from '../generated/api';
import { changeTone, formatChange, formatNumber } from './format.ts';

export type ReportQuery = NonNullable<paths['/api/v1/analytics/performance']['get']['parameters']['query']>;
export type Report = paths['/api/v1/analytics/performance']['get']['responses'][200]['content']['application/json'];
export type Metrics = { clicks: number; impressions: number; ctr: number | null; position: number | null };
export type MetricKey = keyof Metrics;
/** Goes to the report with these settings changed. */
export type Go = (changes: Partial<Record<keyof ReportQuery, string | number | undefined>>) => void;

/** Search Console's periods: days, then calendar months. */
export const PERIODS = [
  { value: '7d', label: '7 days' }, { value: '28d', label: '28 days' }, { value: '3m', label: '3 months' },
  { value: '6m', label: '6 months' }, { value: '12m', label: '12 months' }, { value: '16m', label: '16 months' },
] as const;
export const COMPARE = [{ value: 'previous', label: 'Previous period' }, { value: 'year', label: 'Same period last year' }, { value: 'none', label: 'No comparison' }] as const;
export const MATCHES = [{ value: 'contains', label: 'contains' }, { value: 'not_contains', label: 'does not contain' }, { value: 'equals', label: 'is exactly' }] as const;
export const SORTS = ['clicks', 'impressions', 'ctr', 'position', 'clicks_change', 'impressions_change', 'ctr_change', 'position_change'] as const;
export const FILTER_KEYS = ['query_contains', 'query_not_contains', 'query_equals', 'page_contains', 'page_not_contains', 'page_equals'] as const;

/** A difference in points or places, signed; "no earlier data" without one. */
export function signed(delta: number | null | undefined, unit: string, digits = 1) {
  if (delta === null || delta === undefined) return 'no earlier data';
  return `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatNumber(Math.abs(delta), { digits })}${unit}`;
}
export const tone = (key: MetricKey, delta: number | null | undefined) => changeTone(delta, key === 'position');

/** The four metrics as Search Console shows them: a count, a share, a place (lower is better). */
export const METRICS: Array<{ key: MetricKey; title: string; color: string; lowerIsBetter?: true; format: (v: number | null) => string }> = [
  { key: 'clicks', title: 'Clicks', color: '#2557d6', format: (v) => formatNumber(v, { compact: true }) },
  { key: 'impressions', title: 'Impressions', color: '#7c3aed', format: (v) => formatNumber(v, { compact: true }) },
  { key: 'ctr', title: 'Average CTR', color: '#047857', format: (v) => (v === null ? '—' : `${formatNumber(v * 100, { digits: 1 })}%`) },
  { key: 'position', title: 'Average position', color: '#b45309', lowerIsBetter: true, format: (v) => formatNumber(v, { digits: 1 }) },
];

/**
 * How a metric changed, as the table sorts it: counts by their difference, with the percent beside it ("+56 · +200%"),
 * CTR in points, position in places.
 */
export function changeText(key: MetricKey, now: Metrics, before: Metrics, change: Report['totals']['change']): string {
  if (key === 'clicks' || key === 'impressions') {
    const percent = change?.[key];
    return `${signed(now[key] - before[key], '', 0)}${percent === null || percent === undefined ? '' : ` · ${formatChange(percent)}`}`;
  }
  return signed(change?.[key], key === 'ctr' ? ' pts' : '');
}
