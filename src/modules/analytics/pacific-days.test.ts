import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pacificBounds, pacificDateOf, pacificDayStart } from './pacific-days.ts';

describe('Pacific days', () => {
  it('begin at Pacific midnight, in winter (UTC-8), in summer (UTC-7) and on the days the clocks change', () => {
    const starts = {
      '2026-01-05': '2026-01-05T08:00:00.000Z',
      '2026-07-01': '2026-07-01T07:00:00.000Z',
      // The clocks go forward at 02:00 on 8 March (a day of 23 hours) and back at 02:00 on 1 November (25 hours).
      '2026-03-08': '2026-03-08T08:00:00.000Z',
      '2026-03-09': '2026-03-09T07:00:00.000Z',
      '2026-11-01': '2026-11-01T07:00:00.000Z',
      '2026-11-02': '2026-11-02T08:00:00.000Z',
    };
    for (const [date, start] of Object.entries(starts)) {
      assert.equal(pacificDayStart(date).toISOString(), start, date);
      assert.equal(pacificDateOf(pacificDayStart(date)), date, `${date}: its first instant is on it`);
      assert.notEqual(pacificDateOf(new Date(pacificDayStart(date).getTime() - 1)), date, `${date}: the instant before is not`);
    }
  });

  it("bound a period from its first day's start to the start of the day after its last", () => {
    const { from, to } = pacificBounds({ start: '2026-03-08', end: '2026-03-08' });
    assert.deepEqual([from.toISOString(), to.toISOString()], ['2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z']);
    assert.equal(pacificDateOf(new Date('2026-01-05T03:00:00Z')), '2026-01-04', '03:00 UTC is the evening before, Pacific');
  });
});
