import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatVital, rateVital, VITALS, type VitalId } from './vitals.ts';

describe('Core Web Vitals thresholds', () => {
  it("holds Google's published bounds", () => {
    const bounds = Object.fromEntries(Object.values(VITALS).map((v) => [v.id, [v.good, v.poor]]));
    assert.deepEqual(bounds, { lcp: [2500, 4000], inp: [200, 500], cls: [0.1, 0.25], fcp: [1800, 3000], ttfb: [800, 1800], tbt: [200, 600] });
    assert.equal(VITALS.lcp.name, 'Largest Contentful Paint');
    assert.equal(VITALS.cls.unit, 'unitless');
  });

  it('rates a value at the good bound good and one at the poor bound needs improvement', () => {
    const cases: Array<[VitalId, number, number, number, number]> = [
      // id, good bound, just above it, poor bound, just above it
      ['lcp', 2500, 2501, 4000, 4001],
      ['inp', 200, 201, 500, 501],
      ['cls', 0.1, 0.11, 0.25, 0.26],
      ['fcp', 1800, 1801, 3000, 3001],
      ['ttfb', 800, 801, 1800, 1801],
      ['tbt', 200, 201, 600, 601],
    ];
    for (const [id, good, aboveGood, poor, abovePoor] of cases) {
      assert.equal(rateVital(id, good), 'good', `${id} at ${good}`);
      assert.equal(rateVital(id, aboveGood), 'needs_improvement', `${id} at ${aboveGood}`);
      assert.equal(rateVital(id, poor), 'needs_improvement', `${id} at ${poor}`);
      assert.equal(rateVital(id, abovePoor), 'poor', `${id} at ${abovePoor}`);
    }
    assert.equal(rateVital('cls', 0), 'good');
  });

  it('formats milliseconds, seconds and the CLS score', () => {
    assert.equal(formatVital('lcp', 2600), '2.6 s');
    assert.equal(formatVital('inp', 180), '180 ms');
    assert.equal(formatVital('ttfb', 999.4), '999 ms');
    assert.equal(formatVital('ttfb', 999.6), '1.0 s', 'rounds to a whole second rather than "1000 ms"');
    assert.equal(formatVital('cls', 0.123), '0.12');
    assert.equal(formatVital('cls', 0), '0.00');
  });
});
