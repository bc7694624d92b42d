import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayInWords, parseDayInput, readRange } from '../../web/src/lib/day-input.ts';

describe('a day typed in the filters', () => {
  it('is read year-month-day only: 03/05/2026 could be March or May, so it is refused', () => {
    assert.deepEqual(parseDayInput('2026-03-05'), { day: '2026-03-05' });
    assert.deepEqual(parseDayInput(' 2026-3-5 '), { day: '2026-03-05' });
    assert.deepEqual(parseDayInput(''), { empty: true });
    assert.match((parseDayInput('03/05/2026') as { error: string }).error, /year-month-day \(YYYY-MM-DD/);
    assert.match((parseDayInput('2026-02-30') as { error: string }).error, /not a day of the calendar/);
  });

  it('is said back in words with the month named', () => {
    assert.equal(dayInWords('2026-03-05'), 'Thu 5 March 2026');
    assert.deepEqual(readRange('2026-03-05', '2026-04-01'), { start: '2026-03-05', end: '2026-04-01', text: 'Thu 5 March 2026 to Wed 1 April 2026 (28 days)' });
  });

  it('says what is wrong with a range: a missing day, a day before the first', () => {
    assert.deepEqual(readRange('', ''), { empty: true });
    assert.deepEqual(readRange('2026-03-05', ''), { error: 'Give the last day too' });
    assert.match((readRange('2026-03-05', '2026-03-01') as { error: string }).error, /^To: Sun 1 March 2026 is before Thu 5 March 2026$/);
    assert.match((readRange('5/3/2026', '2026-03-01') as { error: string }).error, /^From: /);
  });
});
