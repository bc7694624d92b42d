/**
 * Reporting periods. A period is the N whole days ending yesterday (UTC): today is not
 * over, and Search Console has nothing for it yet. `12m` is 365 days. The previous period is
 * the N days just before, so the two never overlap.
 */
export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90, '12m': 365 } as const;
export type Period = keyof typeof PERIOD_DAYS;

export const DAY_MS = 86_400_000;
export const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

export function periodRange(period: Period, now = new Date()) {
  const days = PERIOD_DAYS[period];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const end = today - DAY_MS;
  const start = end - (days - 1) * DAY_MS;
  return {
    days,
    start: isoDate(start),
    end: isoDate(end),
    previousStart: isoDate(start - days * DAY_MS),
    previousEnd: isoDate(start - DAY_MS),
    /** Every date of the period, oldest first. */
    dates: () => Array.from({ length: days }, (_, i) => isoDate(start + i * DAY_MS)),
  };
}

/** Percent change from previous to current, one decimal; null when there was nothing before. */
export const changePercent = (current: number, previous: number) =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;
