// The signed-in person's preferences: read once after sign-in, kept in lib/format's module state.
import { setTimeZone } from '../lib/format.ts';
import { api, unwrap } from './client.ts';

export type Preferences = { time_zone: string | null };
let current: Preferences = { time_zone: null };

/** The preferences as last loaded or saved. */
export const preferences = () => current;

/** Reads the preferences after sign-in; a failure leaves the browser's defaults (dates still show, in the browser's zone). */
export async function loadPreferences(): Promise<Preferences> {
  try {
    current = unwrap(await api.GET('/api/v1/auth/me/preferences'));
  } catch {
    current = { time_zone: null };
  }
  setTimeZone(current.time_zone);
  return current;
}

/** Saves a time zone (null: the browser's); the API refuses a name it does not know with a 422. */
export async function saveTimeZone(timeZone: string | null): Promise<Preferences> {
  current = unwrap(await api.PATCH('/api/v1/auth/me/preferences', { body: { time_zone: timeZone } }));
  setTimeZone(current.time_zone);
  return current;
}
