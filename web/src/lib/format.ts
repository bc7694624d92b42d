// Formatting shared by every page: numbers, changes, dates and the wording of errors.

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

export function formatNumber(value: number | null | undefined, options: { compact?: boolean; digits?: number } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (options.compact && Math.abs(value) >= 10_000) return compact.format(value);
  if (options.digits !== undefined) return value.toLocaleString('en', { minimumFractionDigits: options.digits, maximumFractionDigits: options.digits });
  return integer.format(value);
}

/** "+12.5%", "−3.0%", "0%"; null when there is nothing to compare with. */
export function formatChange(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return 'no earlier data';
  if (percent === 0) return '0%';
  const sign = percent > 0 ? '+' : '−';
  return `${sign}${Math.abs(percent).toFixed(1)}%`;
}

/** Whether a change is good news: lower is better for positions and bounce rate. */
export function changeTone(delta: number | null | undefined, lowerIsBetter = false): 'good' | 'bad' | 'neutral' {
  if (!delta) return 'neutral';
  return (delta > 0) !== lowerIsBetter ? 'good' : 'bad';
}

/**
 * The time zone timestamps are shown in: the person's preference (Settings; loaded once after sign-in), else the
 * browser's. Calendar days (Search Console's and GA4's "2025-11-12") are no instants and stay as they are.
 */
let timeZone: string | undefined;
let dateTime: Intl.DateTimeFormat;
let dateOfInstant: Intl.DateTimeFormat;
const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
/** The browser's own time zone (what null, "Browser default", means). */
export const browserTimeZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone;
/** Sets the zone timestamps are shown in (null or undefined: the browser's; a name this browser does not know: the browser's too). */
export function setTimeZone(zone: string | null | undefined) {
  let chosen: string | undefined;
  try {
    chosen = zone ? new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone : undefined;
  } catch {
    chosen = undefined;
  }
  timeZone = chosen;
  dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', ...(chosen ? { timeZone: chosen } : {}) });
  dateOfInstant = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', ...(chosen ? { timeZone: chosen } : {}) });
}
setTimeZone(undefined);
/** The zone timestamps are shown in now (the preference, or the browser's). */
export const currentTimeZone = () => timeZone ?? browserTimeZone();

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A date ("12 Nov 2025"), with its time when asked ("12 Nov 2025, 14:03 CET"). A calendar day is that day; an instant is read in the chosen zone. */
export function formatDate(iso: string | null | undefined, withTime = false): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const text = CALENDAR_DAY.test(iso) ? dateOnly.format(date) : (withTime ? dateTime : dateOfInstant).format(date);
  // ICU's British English writes September "Sept", every other month in three letters: "Sep" like them.
  return text.replace('Sept', 'Sep');
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  if (seconds < 30 * 86_400) return `${Math.round(seconds / 86_400)} days ago`;
  return formatDate(iso);
}

/** "fix_missing_meta_description" -> "Fix missing meta description". */
/** Platforms as their makers write them ("WordPress", not "Wordpress"). */
const PLATFORM_NAMES: Record<string, string> = {
  wordpress: 'WordPress', shopify: 'Shopify', wix: 'Wix', squarespace: 'Squarespace', webflow: 'Webflow',
  drupal: 'Drupal', joomla: 'Joomla', custom: 'Custom', unknown: 'Not detected',
};
export const platformName = (platform: string) => PLATFORM_NAMES[platform] ?? humanize(platform);

export function humanize(identifier: string): string {
  const words = identifier.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A position change: positive means the keyword moved up (a smaller number). */
export function positionDelta(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null) return null;
  return previous - current;
}

/** The API's field errors in plain words: "/domain must match format hostname" -> field "domain". */
export function fieldErrors(errors: Array<{ path: string; message: string }> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of errors ?? []) {
    const field = path.replace(/^\/?(body\/)?/, '').split('/')[0] || 'form';
    out[field] ??= plainMessage(message, field);
  }
  return out;
}

function plainMessage(message: string, field: string): string {
  const min = /must NOT have fewer than (\d+) characters/.exec(message);
  if (min) return min[1] === '1' ? 'Required.' : `Use at least ${min[1]} characters.`;
  const max = /must NOT have more than (\d+) characters/.exec(message);
  if (max) return `Use at most ${max[1]} characters.`;
  if (/must have required property/.test(message)) return 'Required.';
  // A name of spaces only (the API's pattern "\S": at least one character that is not a space).
  if (/must match pattern "\\S"/.test(message)) return 'Required.';
  if (/must match format "?email"?/.test(message)) return 'Enter an e-mail address like name@example.com.';
  if (/must match format "?uri"?/.test(message)) return 'Enter a full address like https://example.com.';
  // "is required for…", "must be an http URL": the API names the field in the path; say it in the sentence.
  const phrase = /^(is|are|must|should|cannot|can't|has|does|already)\b/.test(message) ? `${humanize(field)} ${message}` : message;
  const sentence = phrase.charAt(0).toUpperCase() + phrase.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** What to tell the user about a failed request. */
export function errorMessage(error: unknown): string {
  const e = error as { status?: number; retryAfter?: number; problem?: { detail?: string; title?: string }; message?: string };
  if (e?.status === 429) {
    const wait = e.retryAfter ? ` Try again in ${e.retryAfter} second${e.retryAfter === 1 ? '' : 's'}.` : ' Try again in a moment.';
    return `Too many requests.${wait}`;
  }
  if (e?.problem?.detail) return e.problem.detail;
  if (e?.status && e.status >= 500) return 'The service could not complete the request. Try again shortly.';
  if (e instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return e?.message || 'Something went wrong.';
}

/** What a refused Google round trip came back with (a code in the address: the words are the app's own). */
const GOOGLE_REFUSALS: Record<string, string> = {
  other_browser: 'it was not started in this browser. Start again from here.',
  not_granted: 'Google did not grant access (the consent was cancelled or declined). Start again to grant it.',
  google_failed: 'Google did not answer as expected. Try again in a moment.',
  account_disabled: 'this account has been disabled by an administrator.',
};
export const googleRefusal = (code: string | null) => (code === null ? undefined : GOOGLE_REFUSALS[code] ?? 'it could not be completed. Start again.');

/** Scopes Google did not grant, only as Google names them (anything else in the address is ignored). */
export const missingScopes = (value: string | null) =>
  (value ?? '').split(/\s+/).filter((scope) => /^https:\/\/www\.googleapis\.com\/auth\/[\w.]+$/.test(scope)).map((scope) => scope.slice('https://www.googleapis.com/auth/'.length));
