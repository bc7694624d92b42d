/**
 * Click-through rate by position: how many of the searchers who see a result at a position
 * click it. A site's own curve is fitted on its Search Console rows; a site with too little
 * data uses a published one. The expected clicks of a proposal (expected-clicks.ts) read it.
 */

/** A curve: the share of searchers who click a result at a (fractional) position. */
export type CtrCurve = (position: number) => number;

/**
 * Google organic CTR at positions 1-10: Sistrix, "Why (almost) everything you knew about
 * Google CTR is no longer valid" (July 2020; 80 million keywords, billions of results). The
 * same study measured under 1% for every position of page two, read here as 0.9% at 11
 * falling with position.
 */
export const SISTRIX_2020 = [0.285, 0.157, 0.11, 0.08, 0.072, 0.051, 0.04, 0.032, 0.028, 0.025] as const;
const PAGE_TWO_TOP = 0.009;

export const industryCtr: CtrCurve = (position) => {
  const p = Math.max(1, position);
  if (p <= 10) {
    const i = Math.floor(p) - 1;
    const next = SISTRIX_2020[Math.min(9, i + 1)]!;
    return SISTRIX_2020[i]! + (next - SISTRIX_2020[i]!) * (p - Math.floor(p));
  }
  if (p < 11) return SISTRIX_2020[9] + (PAGE_TWO_TOP - SISTRIX_2020[9]) * (p - 10);
  return PAGE_TWO_TOP * (11 / p) ** 2;
};

/**
 * The demo's searchers (demo-data.ts generates its Search Console rows from it): a smooth
 * power curve, 28% at 1, about 1% and less on page two.
 */
export const expectedCtr: CtrCurve = (position) =>
  position <= 1 ? 0.28 : position <= 10 ? 0.28 / position ** 0.9 : 0.01 / Math.max(1, position - 9);

/** Clicks and impressions of a site at one whole position (rows grouped by rounded position). */
export interface PositionBucket {
  position: number;
  clicks: number;
  impressions: number;
}

/** When a site's own rows are enough to fit its curve. */
export const FIT_NEEDS = {
  /** A position counts with at least this many impressions... */
  bucketImpressions: 100,
  /** ...and the fit needs this many such positions on page one... */
  pageOnePositions: 4,
  /** ...and this many impressions and clicks in all (a few clicks say little about a curve). */
  totalImpressions: 2_000,
  totalClicks: 50,
  /** Page two gets its own level from the site's rows only with this many impressions there. */
  pageTwoImpressions: 300,
};

export interface FittedCurve {
  curve: CtrCurve;
  basis: 'site' | 'industry';
  /** ctr = a * position^-b on page one, times pageTwo beyond position 10. */
  params?: { a: number; b: number; pageTwo: number };
  impressions: number;
}

/**
 * Fits a site's CTR curve on its rows: ctr = a * position^-b on page one (weighted least
 * squares on log CTR, each position weighed by its impressions: a position seen 10,000
 * times says more than one seen 100 times), and one level for page two relative to that
 * line (the jump between pages is not a slope). Too little data: the industry curve. The
 * fitted curve is bounded by 0.95 and never rises with position.
 */
export function fitCtrCurve(buckets: readonly PositionBucket[]): FittedCurve {
  const usable = buckets.filter((b) => b.position >= 1 && b.position <= 20 && b.impressions >= FIT_NEEDS.bucketImpressions);
  const pageOne = usable.filter((b) => b.position <= 10);
  const impressions = usable.reduce((sum, b) => sum + b.impressions, 0);
  const clicks = usable.reduce((sum, b) => sum + b.clicks, 0);
  if (pageOne.length < FIT_NEEDS.pageOnePositions || impressions < FIT_NEEDS.totalImpressions || clicks < FIT_NEEDS.totalClicks) {
    return { curve: industryCtr, basis: 'industry', impressions };
  }
  // A position with no click in its impressions is given half a click: log(0) is no evidence.
  const logCtr = (b: PositionBucket) => Math.log(Math.max(b.clicks, 0.5) / b.impressions);
  let sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const b of pageOne) {
    const w = b.impressions, x = Math.log(b.position), y = logCtr(b);
    sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y;
  }
  const denominator = sw * sxx - sx * sx;
  // One position only in effect (all rows at the same place): no slope to fit.
  if (Math.abs(denominator) < 1e-9) return { curve: industryCtr, basis: 'industry', impressions };
  const b = Math.max(0, -(sw * sxy - sx * sy) / denominator);
  const a = Math.exp((sy + b * sx) / sw);
  const line = (p: number) => a * Math.max(1, p) ** -b;
  const pageTwoRows = usable.filter((r) => r.position > 10);
  const pageTwoImpressions = pageTwoRows.reduce((sum, r) => sum + r.impressions, 0);
  // Without page-two rows, the industry's drop between pages (0.9% against 2.5% at 10, about 0.4 of the line).
  const pageTwo = pageTwoImpressions >= FIT_NEEDS.pageTwoImpressions
    ? Math.min(1, Math.exp(pageTwoRows.reduce((sum, r) => sum + r.impressions * (logCtr(r) - Math.log(line(r.position))), 0) / pageTwoImpressions))
    : 0.4;
  const curve: CtrCurve = (p) => Math.min(0.95, p <= 10 ? line(p) : line(p) * pageTwo);
  return { curve, basis: 'site', params: { a, b, pageTwo }, impressions };
}
