/** How the printed report writes numbers and dates, the same on every server whatever its locale: "1,234", "+12.5%", "26 Nov 2026". */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const signed = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const signedInteger = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
const signedOneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
// Written out rather than from Intl: some ICU versions abbreviate September "Sept".
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const count = (n: number) => integer.format(n);
export const signedCount = (n: number) => signedInteger.format(n);
/** A percent change: "+12.5%", "-3%", "0%"; "new" when there was nothing to change from. */
export const percentChange = (p: number | null) => (p === null ? 'new' : `${signed.format(p)}%`);
export const percent = (ratio: number | null) => (ratio === null ? '–' : `${oneDecimal.format(ratio * 100)}%`);
export const points = (p: number | null) => (p === null ? '–' : `${signedOneDecimal.format(p)} pts`);
export const position = (p: number | null) => (p === null ? '–' : oneDecimal.format(p));

/** "26 Nov 2026" from a date ("2026-11-26") or a timestamp (its UTC day). */
export function day(value: string | Date): string {
  const d = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
export const dayRange = (range: { start: string; end: string }) => `${day(range.start)} – ${day(range.end)}`;

const readable = (text: string) => {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
};

/** A page of the site by its path as people read it ("/café?q=a b"), another site's page by its whole address. */
export function pagePath(url: string, domain: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname.replace(/^www\./, '');
    return host === domain.replace(/^www\./, '') ? readable(`${u.pathname}${u.search}`) : url;
  } catch {
    return url;
  }
}
