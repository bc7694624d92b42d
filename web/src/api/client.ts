import createClient from 'openapi-fetch';
import type { components, paths } from '../generated/api';

export type Schemas = components['schemas'];
export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: Array<{ path: string; message: string }>;
}

/** An API error with what the user needs: the problem's detail, field errors and when to retry. */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;
  readonly retryAfter: number | undefined;
  constructor(status: number, problem: Problem, retryAfter?: number) {
    super(problem.detail ?? problem.title ?? `Request failed (${status})`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

const SESSION = '/api/v1/auth/session';
const SESSION_HEADERS = { 'x-session-request': '1' };

// The access token lives only in this module's memory: a reload gets a new one from the
// httpOnly session cookie, which no script can read.
let accessToken: string | undefined;
let onSignedOut: () => void = () => {};
let refreshing: Promise<boolean> | undefined;

export const setSignedOutHandler = (handler: () => void) => void (onSignedOut = handler);
export const hasToken = () => accessToken !== undefined;

const trade = () => fetch(`${SESSION}/refresh`, { method: 'POST', headers: SESSION_HEADERS, credentials: 'same-origin' });

/** Tabs of this origin tell each other when one has refreshed the session (its new cookie is then the browser's). */
const tabs = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel('session');
let refreshedElsewhereAt = 0;
tabs?.addEventListener('message', () => void (refreshedElsewhereAt = Date.now()));

/** Whether another tab refreshes the session after `since` (waiting at most `ms`). */
function refreshedElsewhere(since: number, ms: number): Promise<boolean> {
  if (refreshedElsewhereAt >= since) return Promise.resolve(true);
  if (!tabs) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      tabs.removeEventListener('message', heard);
      resolve(value);
    };
    const heard = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    tabs.addEventListener('message', heard);
  });
}

const lostRace = async (res: Response) =>
  res.status === 401 && ((await res.clone().json().catch(() => ({}))) as Problem).code === 'refresh_in_progress';

/**
 * Trades the session cookie for an access token; one attempt at a time in this tab, and one
 * at a time across the tabs of this origin (Web Locks), so that each presents the cookie the
 * one before it set. Where the browser offers no Web Locks (plain http off localhost), a tab
 * that lost the race with another (401 refresh_in_progress; its cookie kept) waits until
 * that tab says it has the new cookie, then tries once more: presenting the old one again
 * before then would be a reuse, which ends the session.
 */
export function refreshSession(): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const attempt = async () => {
    const started = Date.now();
    let res = await trade();
    if ((await lostRace(res)) && (await refreshedElsewhere(started, 5000))) res = await trade();
    if (!res.ok) return false;
    accessToken = ((await res.json()) as { access_token: string }).access_token;
    tabs?.postMessage('refreshed');
    return true;
  };
  refreshing ??= (locks ? locks.request('session-refresh', attempt).then((ok) => ok) : attempt())
    .catch(() => false)
    .finally(() => void (refreshing = undefined));
  return refreshing;
}

async function authedFetch(request: Request): Promise<Response> {
  const send = () => {
    const copy = request.clone();
    if (accessToken) copy.headers.set('authorization', `Bearer ${accessToken}`);
    return fetch(copy);
  };
  let response = await send();
  // An expired access token: renew it from the cookie once, then give up to the sign-in page.
  if (response.status === 401 && accessToken) {
    if (await refreshSession()) response = await send();
    if (response.status === 401) {
      accessToken = undefined;
      onSignedOut();
    }
  }
  return response;
}

export const api = createClient<paths>({ fetch: authedFetch });

/** The data of an openapi-fetch result, or an ApiError carrying the problem document. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const problem = (typeof result.error === 'object' && result.error ? result.error : {}) as Problem;
  const retry = Number(result.response.headers.get('retry-after'));
  throw new ApiError(result.response.status, problem, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

export async function signIn(email: string, password: string): Promise<void> {
  const res = await fetch(SESSION, {
    method: 'POST', credentials: 'same-origin',
    headers: { ...SESSION_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string } & Problem;
  if (!res.ok || !body.access_token) {
    const retry = Number(res.headers.get('retry-after'));
    throw new ApiError(res.status, body, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  }
  accessToken = body.access_token;
}

/** Forgets the access token without asking the service (it has already ended the session: sign out everywhere, a password reset). */
export const forgetSession = () => void (accessToken = undefined);

export async function signOut(): Promise<void> {
  if (accessToken) {
    await fetch(SESSION, {
      method: 'DELETE', credentials: 'same-origin',
      headers: { ...SESSION_HEADERS, authorization: `Bearer ${accessToken}` },
    }).catch(() => undefined);
  }
  accessToken = undefined;
}

/**
 * An account just made by accepting an invitation comes with a bearer token pair, which is not
 * a web session (that needs the httpOnly cookie only /auth/session sets). The pair is traded
 * for one: its access token names the account's e-mail, a sign-in with the password just chosen
 * sets the cookie, and the pair is then revoked so no second session is left behind.
 * Returns false when that did not work: the account exists, and signing in by hand does it.
 */
export async function adoptNewAccount(tokens: { access_token?: string | undefined; refresh_token?: string | undefined }, password: string): Promise<boolean> {
  if (!tokens.access_token) return false;
  const bearer = { authorization: `Bearer ${tokens.access_token}` };
  try {
    const me = await fetch('/api/v1/auth/me', { headers: bearer });
    if (!me.ok) return false;
    await signIn(((await me.json()) as { email: string }).email, password);
    await fetch('/api/v1/auth/logout', {
      method: 'POST', headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}
