import { DAY_MS, GOOGLE_TIME_ZONE, isoDate } from '../search-data/periods.ts';
import type { DateRange } from './report-periods.ts';

/**
 * The days of the reports are the property's: Search Console's (and by default GA4's) days are
 * Pacific Time. Whatever else a report counts by day (the tasks completed, the changes on the
 * charts' timeline) counts by the same days, or a task done on a Pacific evening would be
 * counted on the next day (a UTC day starts at 16:00 or 17:00 Pacific).
 */

const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: GOOGLE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const pacificOffset = new Intl.DateTimeFormat('en-US', { timeZone: GOOGLE_TIME_ZONE, timeZoneName: 'longOffset' });

/** The Pacific date (YYYY-MM-DD) an instant falls on. */
export const pacificDateOf = (at: Date) => pacificDate.format(at);

/** Pacific Time's offset from UTC at an instant, in ms ("GMT-07:00" -> -7 h). */
function offsetAt(time: number): number {
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(pacificOffset.format(time));
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

/**
 * The instant a Pacific date begins. Taken with the offset of the instant itself (a second look), so a day that follows a
 * change of clocks starts at its own midnight; midnight is never skipped or repeated there (the clocks change at 02:00).
 */
export function pacificDayStart(date: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const guess = utcMidnight - offsetAt(utcMidnight);
  return new Date(utcMidnight - offsetAt(guess));
}

/** The instants a period's Pacific days cover: from its first day's start (included) to the start of the day after its last (excluded). */
export const pacificBounds = (range: DateRange) => ({
  from: pacificDayStart(range.start),
  to: pacificDayStart(isoDate(Date.parse(`${range.end}T00:00:00Z`) + DAY_MS)),
});
