/**
 * Core Web Vitals and their thresholds as Google publishes them (web.dev/articles/vitals and
 * each metric's page), rated at the 75th percentile: good up to and including `good`, poor
 * above `poor`, needs improvement between. TBT is Lighthouse's lab stand-in for
 * responsiveness (its scoring's 200/600 ms); field data has no TBT.
 */
export type VitalId = 'lcp' | 'inp' | 'cls' | 'fcp' | 'ttfb' | 'tbt';
export type VitalRating = 'good' | 'needs_improvement' | 'poor';

export interface Vital {
  id: VitalId;
  name: string;
  /** CLS is a score without a unit; every other vital is a duration in milliseconds. */
  unit: 'ms' | 'unitless';
  good: number;
  poor: number;
}

export const VITALS: Record<VitalId, Vital> = {
  lcp: { id: 'lcp', name: 'Largest Contentful Paint', unit: 'ms', good: 2500, poor: 4000 },
  inp: { id: 'inp', name: 'Interaction to Next Paint', unit: 'ms', good: 200, poor: 500 },
  cls: { id: 'cls', name: 'Cumulative Layout Shift', unit: 'unitless', good: 0.1, poor: 0.25 },
  fcp: { id: 'fcp', name: 'First Contentful Paint', unit: 'ms', good: 1800, poor: 3000 },
  ttfb: { id: 'ttfb', name: 'Time to First Byte', unit: 'ms', good: 800, poor: 1800 },
  tbt: { id: 'tbt', name: 'Total Blocking Time', unit: 'ms', good: 200, poor: 600 },
};

export function rateVital(id: VitalId, value: number): VitalRating {
  const { good, poor } = VITALS[id];
  if (value <= good) return 'good';
  return value > poor ? 'poor' : 'needs_improvement';
}

/** Durations under a second in whole milliseconds, longer ones in seconds to a tenth; CLS to two decimals. */
export function formatVital(id: VitalId, value: number): string {
  if (VITALS[id].unit === 'unitless') return value.toFixed(2);
  const ms = Math.round(value);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
