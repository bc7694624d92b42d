/**
 * The share of searchers who click an organic result at a position: a typical CTR curve
 * (28% at 1, falling with position on page one, about 1% and less on page two). The
 * search-data planner compares pages against it; the demo data is generated from it.
 */
export const expectedCtr = (position: number) =>
  position <= 1 ? 0.28 : position <= 10 ? 0.28 / position ** 0.9 : 0.01 / Math.max(1, position - 9);
