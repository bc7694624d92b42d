import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYTICS_METRICS, ANALYTICS_PERIODS, analyticsPeriod, engagementPercent, lastDays } from '../../web/src/lib/analytics.ts';
import { DEFAULT_PERIOD, METRIC_NAMES } from '../../web/src/lib/metric-names.ts';

describe('the Analytics and Performance pages agree', () => {
  it('open on the same period: the last 28 days, as Search Console does', () => {
    assert.equal(DEFAULT_PERIOD, '28d');
    assert.equal(analyticsPeriod(undefined).value, '28d');
    assert.equal(analyticsPeriod('nonsense').value, '28d');
    assert.equal(analyticsPeriod('90d').value, '90d');
    assert.equal(ANALYTICS_PERIODS.find((p) => p.value === DEFAULT_PERIOD)?.label, '28 days');
  });

  it("ask the API only for the contract's periods (its 30 days for the 28)", () => {
    assert.deepEqual(ANALYTICS_PERIODS.map((p) => p.api), ['7d', '30d', '90d', '12m']);
  });

  it('name each metric as the Performance page does (its cards take their titles from the same names)', () => {
    const names: string[] = Object.values(METRIC_NAMES);
    for (const m of ANALYTICS_METRICS) assert.ok(names.includes(m.title), `${m.title} is one of the shared names`);
    assert.deepEqual(ANALYTICS_METRICS.map((m) => m.title), ['Clicks', 'Average position', 'Key events', 'Page views', 'Engagement rate']);
  });

  it("chart the 28 days as the 30 days' last 28, and the bounce rate as the engagement rate", () => {
    const points = Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, value: i }));
    const kept = lastDays(points, '2026-11-30', 28);
    assert.equal(kept.length, 28);
    assert.deepEqual([kept[0]!.date, kept.at(-1)!.date], ['2026-11-03', '2026-11-30']);
    assert.equal(lastDays(points, '2026-11-30').length, 30);
    assert.equal(engagementPercent(0.42), 58);
    assert.equal(engagementPercent(42), 58);
  });
});
