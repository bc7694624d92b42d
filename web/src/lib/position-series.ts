// The rank history's position line: a day Search Console saw no search for the query has no position, and the chart
// shows no position there (a gap), never a 0 at the top of the ranking nor a line drawn across the empty days.

/** A day's figures, as the rank history has them. */
export interface RankDay {
  position: number | null;
  impressions: number;
}

/**
 * Each day's position for the chart, or null for a gap: on a day without impressions a position means nothing (Search
 * Console reports none), whatever the row says; a position below 1 is no place in a ranking either.
 */
export function positionSeries(days: readonly RankDay[]): Array<number | null> {
  return days.map((d) => (d.impressions > 0 && d.position !== null && d.position >= 1 ? d.position : null));
}

/**
 * The days with a position whose neighbours have none: a line of one point is not drawn, so they are marked as dots
 * (else a query seen on scattered days would seem never seen).
 */
export function isolatedDays(values: ReadonlyArray<number | null>): number[] {
  return values.flatMap((v, i) => (v !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null ? [i] : []));
}

/** The worst position charted, rounded up (at least 5, so that a query at the top still has an axis to read). */
export const worstPosition = (values: ReadonlyArray<number | null>) =>
  Math.max(5, Math.ceil(Math.max(0, ...values.filter((v): v is number => v !== null)) + 0.5));
