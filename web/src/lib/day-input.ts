// Dates typed in the filters, written one way only: the year, then the month, then the day (ISO 8601, 2026-03-05).
// A browser's date input writes the date as its locale does (03/05/2026 in the US, 05/03/2026 in the UK), which reads
// as two different days; so the fields take ISO text and say the day back in words.

const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const longDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export type DayInput = { day: string } | { error: string } | { empty: true };

/** A typed day: "2026-3-5" and "2026-03-05" are 2026-03-05; "03/05/2026" (which day?) and "2026-02-30" are refused, saying why. */
export function parseDayInput(text: string): DayInput {
  const trimmed = text.trim();
  if (trimmed === '') return { empty: true };
  const match = ISO_DAY.exec(trimmed);
  if (!match) return { error: `“${trimmed}” is not a date written year-month-day (YYYY-MM-DD, e.g. 2026-03-05)` };
  const day = `${match[1]}-${match[2]!.padStart(2, '0')}-${match[3]!.padStart(2, '0')}`;
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) return { error: `${day} is not a day of the calendar` };
  return { day };
}

/** A day in words, which no reader can take for another: "Thu 5 March 2026". */
export const dayInWords = (day: string) => longDay.format(new Date(`${day}T00:00:00Z`)).replace(',', '');

/** What the two fields say together: the days in words, or what is wrong with them (the first problem). */
export function readRange(from: string, to: string): { start: string; end: string; text: string } | { error: string } | { empty: true } {
  const [start, end] = [parseDayInput(from), parseDayInput(to)];
  if ('error' in start) return { error: `From: ${start.error}` };
  if ('error' in end) return { error: `To: ${end.error}` };
  if ('empty' in start || 'empty' in end) return 'empty' in start && 'empty' in end ? { empty: true } : { error: `Give the ${'empty' in start ? 'first' : 'last'} day too` };
  if (start.day > end.day) return { error: `To: ${dayInWords(end.day)} is before ${dayInWords(start.day)}` };
  const days = Math.round((Date.parse(end.day) - Date.parse(start.day)) / 86_400_000) + 1;
  return { start: start.day, end: end.day, text: `${dayInWords(start.day)} to ${dayInWords(end.day)} (${days} ${days === 1 ? 'day' : 'days'})` };
}
