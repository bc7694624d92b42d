// How a task's expected clicks read. The API's estimate for a query extrapolates from its impressions: searches seen on
// page two and beyond stand for many more that never scroll that far (a position of 45 counts each impression about 50
// times), then the click-through rate at the position reached. On a small query that turns a few dozen impressions into
// more clicks than there were impressions: +89 clicks from 54 impressions. So few searches say too little about the
// query's demand and its position to put a number first: the app says such an estimate is uncertain and shows its range.

/** Fewer impressions than this in 28 days (about three searches a day) is too little to estimate a query's clicks from. */
export const FEW_IMPRESSIONS = 100;

export type Estimate = { clicks: number; low: number; high: number; basis: string; method: string };
export type WorthReading =
  | { kind: 'none' }
  | { kind: 'estimate'; clicks: number; low: number; high: number }
  | { kind: 'uncertain'; low: number; high: number; impressions: number; why: string };

/**
 * The impressions a query's estimate rests on, as its method gives them ("54 impressions at position 45.0"; a title
 * written for several queries adds each one's); undefined for an estimate from pages' clicks.
 */
export function impressionsOf(method: string): number | undefined {
  const found = [...method.matchAll(/(\d[\d,]*) impressions at position/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
  return found.length === 0 ? undefined : found.reduce((a, b) => a + b, 0);
}

/** An estimate as the app shows it: none, a figure with its range, or uncertain (too few impressions, or more clicks than them). */
export function readWorth(worth: Estimate): WorthReading {
  if (worth.high === 0) return { kind: 'none' };
  const impressions = impressionsOf(worth.method);
  if (impressions !== undefined && (impressions < FEW_IMPRESSIONS || worth.clicks > impressions)) {
    const why = impressions < FEW_IMPRESSIONS
      ? `only ${impressions} ${impressions === 1 ? 'impression' : 'impressions'} in 28 days to estimate from`
      : `more clicks than the ${impressions} impressions seen in 28 days`;
    return { kind: 'uncertain', low: worth.low, high: worth.high, impressions, why };
  }
  return { kind: 'estimate', clicks: worth.clicks, low: worth.low, high: worth.high };
}
