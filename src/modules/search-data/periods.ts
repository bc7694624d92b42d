/**
 * Reporting periods. A period is the N whole days ending at the last day with complete data:
 * Search Console's days are Pacific Time and settle two to three days late, so a period
 * ending "yesterday" would count the unsettled days as zero. The caller passes the latest
 * day its data covers; without one the period ends yesterday (Pacific Time). `12m` is 365
 * days. The previous period is the N days just before, so the two never overlap.
 */
export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90, '12m': 365 } as const;
export type Period = keyof typeof PERIOD_DAYS;

export const DAY_MS = 86_400_000;
export const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The time zone of Search Console's (and, by default, GA4's) days. */
export const GOOGLE_TIME_ZONE = 'America/Los_Angeles';
const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: GOOGLE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Midnight UTC of today's date in Pacific Time (the date Search Console is on now). */
export const pacificToday = (now = new Date()) => Date.parse(`${pacificDate.format(now)}T00:00:00Z`);

export function periodRange(period: Period, now = new Date(), lastDataDate?: string) {
  const days = PERIOD_DAYS[period];
  const yesterday = pacificToday(now) - DAY_MS;
  const end = lastDataDate ? Math.min(Date.parse(`${lastDataDate}T00:00:00Z`), yesterday) : yesterday;
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
