import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { impressionsOf, readWorth } from '../../web/src/lib/worth.ts';

// Estimates as the demo's planner makes them.
const smallQuery = { clicks: 89, low: 0, high: 125, basis: 'site_curve', method: "54 impressions at position 45.0 (about 2,734 searches, counting those who never look past page one); a page written for it ranking at 10 (15 to 7) on this site's CTR curve" };
const bigQuery = { clicks: 80, low: 27, high: 179, basis: 'site_curve', method: "2112 impressions at position 4.0; moving to 2.6 (3.4 to 1.8) on this site's CTR curve" };

describe("a task's expected clicks", () => {
  it('reads the impressions an estimate rests on, adding those of every query a title serves', () => {
    assert.equal(impressionsOf(smallQuery.method), 54);
    assert.equal(impressionsOf(`${bigQuery.method}; and for "roses": 1,300 impressions at position 9.0; moving to 5.9`), 3412);
    assert.equal(impressionsOf('26 clicks lost against the 28 days before'), undefined);
  });

  it('is uncertain on a query of a few impressions: no figure first, its range and why', () => {
    assert.deepEqual(readWorth(smallQuery), { kind: 'uncertain', low: 0, high: 125, impressions: 54, why: 'only 54 impressions in 28 days to estimate from' });
    const moreClicksThanSeen = { ...bigQuery, clicks: 250, high: 400, method: '201 impressions at position 45.0 (about 10,000 searches)' };
    assert.equal((readWorth(moreClicksThanSeen) as { why: string }).why, 'more clicks than the 201 impressions seen in 28 days');
  });

  it('is a figure on a query with enough searches, or on pages’ clicks; nothing when none are expected', () => {
    assert.deepEqual(readWorth(bigQuery), { kind: 'estimate', clicks: 80, low: 27, high: 179 });
    assert.deepEqual(readWorth({ clicks: 13, low: 7, high: 21, basis: 'page_clicks', method: '26 clicks lost against the 28 days before; a refresh is taken to win back half' }), { kind: 'estimate', clicks: 13, low: 7, high: 21 });
    assert.deepEqual(readWorth({ ...bigQuery, clicks: 0, low: 0, high: 0 }), { kind: 'none' });
  });
});
