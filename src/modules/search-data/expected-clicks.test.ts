import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitCtrCurve, industryCtr, SISTRIX_2020, type PositionBucket } from './ctr-curve.ts';
import { fromBetterSnippet, fromMovingUp, fromNewPage, fromPageClicks, fromRecovery, inWords, visibility } from './expected-clicks.ts';

/** Rows of a site whose searchers follow a known curve exactly. */
const rowsOf = (curve: (p: number) => number, positions: number[], impressions = 1_000): PositionBucket[] =>
  positions.map((position) => ({ position, impressions, clicks: Math.round(impressions * curve(position)) }));
const near = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

describe('the CTR curve', () => {
  it('is the published one (Sistrix 2020) at whole positions, falling in between and on page two', () => {
    SISTRIX_2020.forEach((ctr, i) => assert.equal(industryCtr(i + 1), ctr));
    near(industryCtr(1.5), (0.285 + 0.157) / 2, 1e-9);
    assert.ok(industryCtr(11) < 0.01 && industryCtr(15) < industryCtr(11) && industryCtr(30) < industryCtr(15));
  });

  it("recovers a site's own power curve and its page-two level from rows that follow it", () => {
    const known = (p: number) => (p <= 10 ? 0.4 * p ** -1.2 : 0.4 * p ** -1.2 * 0.3);
    const fitted = fitCtrCurve(rowsOf(known, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18], 20_000));
    assert.equal(fitted.basis, 'site');
    near(fitted.params!.a, 0.4, 0.01);
    near(fitted.params!.b, 1.2, 0.02);
    near(fitted.params!.pageTwo, 0.3, 0.02);
    near(fitted.curve(3), known(3), 0.003);
    near(fitted.curve(14), known(14), 0.001);
  });

  it('weighs each position by its impressions: a rarely seen position cannot bend the curve', () => {
    const known = (p: number) => 0.3 * p ** -1;
    const rows = rowsOf(known, [1, 2, 3, 4, 5, 6], 50_000);
    rows.push({ position: 8, impressions: 100, clicks: 60 }); // 60% at position 8: noise
    near(fitCtrCurve(rows).params!.b, 1, 0.05);
  });

  it('falls back on the published curve when the site has too little data, and says so', () => {
    const few = fitCtrCurve(rowsOf(industryCtr, [1, 2, 3], 5_000)); // three positions on page one
    assert.equal(few.basis, 'industry');
    assert.equal(few.curve, industryCtr);
    assert.equal(fitCtrCurve(rowsOf(industryCtr, [1, 2, 3, 4, 5], 300)).basis, 'industry'); // 1,500 impressions in all
    assert.equal(fitCtrCurve(rowsOf(industryCtr, [1, 2, 3, 4, 5], 400)).basis, 'site');
    assert.equal(fitCtrCurve(rowsOf(() => 0.004, [1, 2, 3, 4, 5], 2_000)).basis, 'industry', '40 clicks in all');
  });

  it('counts a position that got no click as half a click, never as evidence of zero', () => {
    const fitted = fitCtrCurve([...rowsOf((p) => 0.3 / p, [1, 2, 3, 4], 5_000), { position: 9, impressions: 200, clicks: 0 }]);
    assert.ok(fitted.curve(9) > 0 && Number.isFinite(fitted.params!.b));
  });
});

describe('expected clicks', () => {
  const industry = { curve: industryCtr, basis: 'industry' as const };

  it('of moving a query up: the curve between where it is and 15-55% of the way up, with page-two searchers counted', () => {
    const e = fromMovingUp({ impressions: 1_000, clicks: 80, position: 4 }, industry);
    // 4 -> 2.6 (mid): 1,000 x (ctr(2.6) - ctr(4)) on the published curve.
    assert.equal(e.clicks, Math.round(1_000 * (industryCtr(2.6) - industryCtr(4))));
    assert.equal(e.low, Math.round(1_000 * (industryCtr(3.4) - industryCtr(4))));
    assert.equal(e.high, Math.round(1_000 * (industryCtr(1.8) - industryCtr(4))));
    assert.equal(e.basis, 'industry_curve');
    // From page two, reaching page one counts the searchers who never open page two.
    const fromPageTwo = fromMovingUp({ impressions: 100, clicks: 1, position: 14 }, industry);
    assert.equal(fromPageTwo.clicks, Math.round(100 * (visibility(9.1) / visibility(14)) * industryCtr(9.1) - 100 * industryCtr(14)));
    assert.ok(fromPageTwo.low < fromPageTwo.clicks && fromPageTwo.clicks < fromPageTwo.high);
  });

  it('of a better snippet: the CTR brought half to all the way to what is usual at the position, less the clicks it has', () => {
    const e = fromBetterSnippet({ impressions: 2_000, clicks: 20, position: 3 }, industry);
    assert.deepEqual([e.low, e.clicks, e.high], [2_000 * 0.5 * 0.11 - 20, 2_000 * 0.75 * 0.11 - 20, 2_000 * 0.11 - 20].map(Math.round));
  });

  it('of a new page, a refresh and a technical fix', () => {
    const page = fromNewPage({ impressions: 100, clicks: 0, position: 30 }, industry);
    assert.equal(page.clicks, Math.round(100 * (1 / visibility(30)) * industryCtr(10)));
    // Seen further down, the same impressions are more searches: position counts.
    assert.ok(fromNewPage({ impressions: 100, clicks: 0, position: 45 }, industry).clicks > page.clicks);
    assert.match(page.method, /about 2,250 searches/);
    assert.deepEqual([fromRecovery(10, 50).low, fromRecovery(10, 50).clicks, fromRecovery(10, 50).high], [10, 20, 32]);
    const fix = fromPageClicks('fix_missing_meta_description', [{ clicks: 600 }, { clicks: 400 }])!;
    assert.equal(fromPageClicks('fix_indexing_block', [{ clicks: 0 }]), undefined, 'a page out of the index: its clicks say nothing of its worth');
    assert.deepEqual([fix.low, fix.clicks, fix.high], [0, 30, 80]);
    assert.match(fix.method, /1000 clicks in 28 days on its 2 pages/);
    assert.equal(fromPageClicks('fix_h1', [{ clicks: 0 }])!.high, 0);
    assert.equal(inWords(fromPageClicks('fix_h1', [{ clicks: 0 }])!), 'no clicks expected from search');
    assert.equal(inWords({ clicks: 120, low: 60, high: 200, basis: 'site_curve', method: '' }), 'about +120 clicks / 28 days, 60-200');
  });

  it('has no jump where page one ends: a tenth of a position changes the estimate by little', () => {
    for (const at of [9.9, 10, 10.1, 10.4, 11, 11.9, 12, 19.9, 20, 20.1, 20.5]) {
      const [a, b] = [fromMovingUp({ impressions: 1_000, clicks: 0, position: at }, industry), fromMovingUp({ impressions: 1_000, clicks: 0, position: at + 0.1 }, industry)];
      assert.ok(Math.abs(a.clicks - b.clicks) <= Math.max(15, a.clicks * 0.15), `${at}: ${a.clicks} vs ${b.clicks}`);
    }
  });

  it('never goes below zero, and its range holds the estimate', () => {
    const e = fromBetterSnippet({ impressions: 100, clicks: 50, position: 5 }, industry);
    assert.deepEqual([e.low, e.clicks, e.high], [0, 0, 0]);
  });
});
