import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isolatedDays, positionSeries, worstPosition } from '../../web/src/lib/position-series.ts';

describe("a keyword's position by day", () => {
  it('leaves a gap on a day without impressions, never a 0 or a position carried over', () => {
    const days = [
      { position: 4.2, impressions: 10 },
      { position: null, impressions: 0 },
      // A row that says a position with no impression (or a 0 position) is no ranking either.
      { position: 3, impressions: 0 },
      { position: 0, impressions: 5 },
      { position: 5.1, impressions: 7 },
    ];
    assert.deepEqual(positionSeries(days), [4.2, null, null, null, 5.1]);
  });

  it('marks a day ranked alone between gaps, which a line cannot show', () => {
    assert.deepEqual(isolatedDays([null, 14.9, null, null, 15, 15.2, null, 16]), [1, 7]);
    assert.deepEqual(isolatedDays([3]), [0]);
    assert.deepEqual(isolatedDays([null, null]), []);
  });

  it('scales the axis to the worst day charted, not to the empty days', () => {
    assert.equal(worstPosition([null, 14.9, null]), 16);
    assert.equal(worstPosition([1.2, null]), 5);
    assert.equal(worstPosition([null]), 5);
  });
});
