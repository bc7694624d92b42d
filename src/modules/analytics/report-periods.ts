import { invalid } from '../../lib/problem.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';

/**
 * The periods of the performance report, as Search Console offers them: the last 7, 28 or 90
 * days, the last 3, 6, 12 or 16 calendar months, or custom dates. A period ends at the last
 * day with data (Search Console's days are Pacific Time and settle late), never later than
 * yesterday; it is compared with the days just before it, with the same dates a year before,
 * or with nothing.
 */
export const REPORT_PERIODS = ['7d', '28d', '90d', '3m', '6m', '12m', '16m'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const COMPARISONS = ['previous', 'year', 'none'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Search Console keeps 16 months of data: no period is longer (16 months of 31 days, rounded up). */
export const MAX_REPORT_DAYS = 496;

const DAYS: Partial<Record<ReportPeriod, number>> = { '7d': 7, '28d': 28, '90d': 90 };
const MONTHS: Partial<Record<ReportPeriod, number>> = { '3m': 3, '6m': 6, '12m': 12, '16m': 16 };

export interface DateRange {
  start: string;
  end: string;
}
export interface ReportRange extends DateRange {
  days: number;
  comparison: (DateRange & { mode: Exclude<Comparison, 'none'> }) | null;
}

const time = (date: string) => Date.parse(`${date}T00:00:00Z`);
const daysBetween = (start: string, end: string) => Math.round((time(end) - time(start)) / DAY_MS) + 1;
/** The same day `months` months earlier, on the month's last day where it has no such day (31 March -> 28 or 29 February). */
function monthsBefore(date: string, months: number): string {
  const d = new Date(time(date));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return isoDate(target.getTime());
}
/** A real calendar date written YYYY-MM-DD ("2026-02-30" is not one). */
const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time(value)) && isoDate(time(value)) === value;

/** Every date from start to end, oldest first. */
export const datesOf = (range: DateRange) => Array.from({ length: daysBetween(range.start, range.end) }, (_, i) => isoDate(time(range.start) + i * DAY_MS));

/**
 * Whether a day's figures are Search Console's settled ones: the sync stores a day only once it is complete (Google's
 * first_incomplete_date), so a day after the last one stored has none yet, not none at all.
 */
export const isFinal = (date: string, lastDataDate: string | null) => lastDataDate !== null && date <= lastDataDate;

/**
 * The report's dates: a named period ending at the last day with data (or yesterday, Pacific
 * Time), or custom dates (both, in order, within the 16 months Search Console keeps). Bad
 * combinations are 422s naming the parameter.
 */
export function reportRange(
  input: { period?: ReportPeriod | undefined; start?: string | undefined; end?: string | undefined; compare?: Comparison | undefined },
  lastDataDate: string | undefined,
  now = new Date(),
): ReportRange {
  const yesterday = isoDate(pacificToday(now) - DAY_MS);
  const custom = input.start !== undefined || input.end !== undefined;
  if (custom && input.period !== undefined) throw invalid('/period', 'give a period or custom dates (start and end), not both');
  let start: string;
  let end: string;
  if (custom) {
    if (input.start === undefined || input.end === undefined) throw invalid(input.start === undefined ? '/start' : '/end', 'custom dates need both start and end');
    for (const [path, value] of [['/start', input.start], ['/end', input.end]] as const) {
      if (!isDate(value)) throw invalid(path, 'must be a calendar date written YYYY-MM-DD');
    }
    [start, end] = [input.start, input.end];
    if (start > end) throw invalid('/end', 'must not be before start');
    if (end > yesterday) throw invalid('/end', `must not be after ${yesterday}, the last day Search Console can have data for`);
    if (daysBetween(start, end) > MAX_REPORT_DAYS) throw invalid('/start', 'a period is at most 16 months (the data Search Console keeps)');
  } else {
    const period = input.period ?? '28d';
    end = lastDataDate !== undefined && lastDataDate < yesterday ? lastDataDate : yesterday;
    const days = DAYS[period];
    start = days !== undefined ? isoDate(time(end) - (days - 1) * DAY_MS) : isoDate(time(monthsBefore(end, MONTHS[period]!)) + DAY_MS);
  }
  const days = daysBetween(start, end);
  const mode = input.compare ?? 'previous';
  const comparison = mode === 'none' ? null
    : mode === 'previous'
      ? { mode, start: isoDate(time(start) - days * DAY_MS), end: isoDate(time(start) - DAY_MS) }
      // As many days as the period from the same date a year before (a period that holds 29 February, or starts the day
      // after one, would otherwise be compared with one a day longer or shorter).
      : { mode, start: monthsBefore(start, 12), end: isoDate(time(monthsBefore(start, 12)) + (days - 1) * DAY_MS) };
  return { start, end, days, comparison };
}
