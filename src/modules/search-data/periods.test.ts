import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changePercent, periodRange } from './periods.ts';

describe('reporting periods', () => {
  const now = new Date('2026-03-01T10:00:00Z');

  it('end yesterday and span exactly N days; the previous period is the N days before', () => {
    assert.deepEqual({ ...periodRange('7d', now), dates: undefined }, {
      days: 7, start: '2026-02-22', end: '2026-02-28', previousStart: '2026-02-15', previousEnd: '2026-02-21', dates: undefined,
    });
    const month = periodRange('30d', now);
    assert.deepEqual([month.start, month.end, month.previousStart, month.previousEnd], ['2026-01-30', '2026-02-28', '2025-12-31', '2026-01-29']);
    const quarter = periodRange('90d', now);
    assert.equal(quarter.dates().length, 90);
    assert.equal(quarter.dates()[0], quarter.start);
    assert.equal(quarter.dates().at(-1), '2026-02-28');
  });

  it('treats 12m as 365 days, across a leap day', () => {
    const year = periodRange('12m', new Date('2024-03-01T12:00:00Z'));
    assert.deepEqual([year.start, year.end, year.dates().length], ['2023-03-02', '2024-02-29', 365]);
    assert.equal(year.previousEnd, '2023-03-01');
  });

  it('are on Pacific Time, as Search Console is: at 03:00 UTC it is still the day before in California', () => {
    assert.equal(periodRange('7d', new Date('2026-03-01T03:00:00Z')).end, '2026-02-27');
    assert.equal(periodRange('7d', new Date('2026-03-01T09:00:00Z')).end, '2026-02-28');
  });

  it('end at the last day with data when that is earlier than yesterday, never later', () => {
    const lagging = periodRange('7d', now, '2026-02-26');
    assert.deepEqual([lagging.start, lagging.end, lagging.previousStart, lagging.previousEnd], ['2026-02-20', '2026-02-26', '2026-02-13', '2026-02-19']);
    assert.equal(periodRange('7d', now, '2026-03-05').end, '2026-02-28', 'no period reaches into today');
  });

  it('compute the change, null when there was nothing before', () => {
    assert.equal(changePercent(150, 100), 50);
    assert.equal(changePercent(1, 3), -66.7);
    assert.equal(changePercent(10, 0), null);
    assert.equal(changePercent(0, 0), null);
  });
});
