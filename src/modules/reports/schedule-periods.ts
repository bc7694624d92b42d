import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import type { ReportFrequency } from '../../db/types.ts';

/**
 * The periods a scheduled report covers: whole weeks (Monday to Sunday) or calendar months, on
 * Search Console's (Pacific) days. A period is sent once its last day has settled: Search
 * Console's figures come two to three days late, so a month's report goes out on the 3rd and a
 * week's on Wednesday, never with its last days counted as zero.
 */
export const SETTLE_DAYS = 3;

export interface ReportPeriod { start: string; end: string }

const SUNDAY = 0;
const at = (date: string) => Date.parse(`${date}T00:00:00Z`);
const firstOfMonth = (time: number) => { const d = new Date(time); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); };

/** The last period of this frequency whose days have all settled by `now`. */
export function latestSettledPeriod(frequency: ReportFrequency, now = new Date()): ReportPeriod {
  const settled = pacificToday(now) - SETTLE_DAYS * DAY_MS; // the last day whose figures are final
  if (frequency === 'weekly') {
    const end = settled - ((new Date(settled).getUTCDay() - SUNDAY + 7) % 7) * DAY_MS;
    return { start: isoDate(end - 6 * DAY_MS), end: isoDate(end) };
  }
  const end = firstOfMonth(settled + DAY_MS) - DAY_MS; // the day itself when it is a month's last, else the last of the month before
  return { start: isoDate(firstOfMonth(end)), end: isoDate(end) };
}

/** The period after `period`, of the same frequency. */
export function nextPeriod(frequency: ReportFrequency, period: ReportPeriod): ReportPeriod {
  const start = at(period.end) + DAY_MS;
  if (frequency === 'weekly') return { start: isoDate(start), end: isoDate(start + 6 * DAY_MS) };
  const d = new Date(start);
  return { start: isoDate(start), end: isoDate(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY_MS) };
}

/** The period before `period`, of the same frequency. */
export function previousPeriod(frequency: ReportFrequency, period: ReportPeriod): ReportPeriod {
  const end = at(period.start) - DAY_MS;
  if (frequency === 'weekly') return { start: isoDate(end - 6 * DAY_MS), end: isoDate(end) };
  return { start: isoDate(firstOfMonth(end)), end: isoDate(end) };
}

/** The day a period's report goes out: when its last day has settled. */
export const sendDayOf = (period: ReportPeriod) => isoDate(at(period.end) + SETTLE_DAYS * DAY_MS);

/** How a period is stored (report_schedules.last_sent_period) and how it keys a send. */
export const periodKey = (period: ReportPeriod) => `${period.start}..${period.end}`;
export function parsePeriodKey(key: string | null): ReportPeriod | null {
  const m = key ? /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(key) : null;
  return m ? { start: m[1]!, end: m[2]! } : null;
}
