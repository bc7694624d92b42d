import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { GoogleConfig } from '../../../config.ts';

/**
 * Google's OAuth, Search Console and GA4 Data APIs with plain HTTP and their documented
 * shapes, not the googleapis packages: three endpoints each way are all the service uses,
 * every base URL must be configurable (tests stand in for Google), and the official
 * clients would bring hundreds of files for it. 429 and 5xx are retried by undici's retry
 * interceptor, honouring Retry-After.
 */
export class GoogleApiError extends Error {
  readonly status: number;
  readonly reason: string | undefined;
  constructor(message: string, status: number, reason?: string) {
    super(message);
    this.name = 'GoogleApiError';
    this.status = status;
    this.reason = reason;
  }
  /** The grant was revoked or expired: the user must connect Google again. */
  get revoked() {
    return this.reason === 'invalid_grant';
  }
  /** A quota or rate limit that retries did not outlast. */
  get quota() {
    return this.status === 429 || /quota|rateLimit/i.test(this.reason ?? '');
  }
}

export interface TokenSet {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
}

export interface SearchAnalyticsRow { keys: string[]; clicks: number; impressions: number; ctr: number; position: number }

/**
 * Google's token response names some scopes by their full URL: `email` comes back as
 * .../auth/userinfo.email and `profile` as .../auth/userinfo.profile. Granted scopes are
 * compared under the short names the service asks with.
 */
const SCOPE_ALIASES: Record<string, string> = {
  'https://www.googleapis.com/auth/userinfo.email': 'email',
  'https://www.googleapis.com/auth/userinfo.profile': 'profile',
};
export const normalizeScopes = (scope: string) => [...new Set(scope.split(/\s+/).filter(Boolean).map((s) => SCOPE_ALIASES[s] ?? s))];

/** Search Console's permission level of an unverified user: the reference and the v1 discovery document spell it differently. */
export const isUnverifiedPermission = (level: string) => level === 'siteUnverifiedUser' || level === 'SITE_UNVERIFIED_USER';

/** GA4 Data API metric names the sync asks for (`conversions` was renamed `keyEvents` in 2024). */
export const GA4_METRICS = ['sessions', 'screenPageViews', 'bounceRate', 'keyEvents'] as const;

export function createGoogleClient(config: GoogleConfig, options: { retryMinMs?: number } = {}) {
  const dispatcher: Dispatcher = new Agent({ connections: 8, headersTimeout: 60_000, bodyTimeout: 120_000 }).compose(
    interceptors.retry({
      maxRetries: 4, minTimeout: options.retryMinMs ?? 1000, maxTimeout: 30_000, throwOnError: false,
      methods: ['GET', 'POST'], statusCodes: [429, 500, 502, 503, 504],
    }),
  );

  async function call<T>(method: 'GET' | 'POST', url: string, init: { bearer?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<T> {
    const response = await request(url, {
      method,
      dispatcher,
      headers: {
        accept: 'application/json',
        ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    const text = await response.body.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw new GoogleApiError(`Google answered ${response.statusCode} with a body that is not JSON`, response.statusCode);
    }
    if (response.statusCode >= 400) {
      // OAuth errors: { error, error_description }; API errors: { error: { code, message, errors: [{ reason }], status } }.
      const reason = typeof body.error === 'string' ? body.error : body.error?.errors?.[0]?.reason ?? body.error?.status;
      const message = typeof body.error === 'string' ? body.error_description ?? body.error : body.error?.message ?? `HTTP ${response.statusCode}`;
      throw new GoogleApiError(`Google answered ${response.statusCode}: ${message}`, response.statusCode, reason);
    }
    return body as T;
  }

  const credentials = { client_id: config.clientId, client_secret: config.clientSecret };

  return {
    exchangeCode: (code: string, codeVerifier: string, redirectUri: string) =>
      call<TokenSet>('POST', config.tokenUrl, { form: { ...credentials, grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri } }),
    refresh: (refreshToken: string) =>
      call<TokenSet>('POST', config.tokenUrl, { form: { ...credentials, grant_type: 'refresh_token', refresh_token: refreshToken } }),
    /** The token goes in the form body, never in the URL. */
    revoke: (token: string) => call<object>('POST', config.revokeUrl, { form: { token } }),

    sites: (accessToken: string) =>
      call<{ siteEntry?: Array<{ siteUrl: string; permissionLevel: string }> }>('GET', `${config.searchConsoleUrl}/sites`, { bearer: accessToken }),
    searchAnalytics: (accessToken: string, siteUrl: string, body: { startDate: string; endDate: string; dimensions: string[]; rowLimit: number; startRow: number }) =>
      // With dataState "all", `metadata.first_incomplete_date` marks the first day still settling.
      call<{ rows?: SearchAnalyticsRow[]; metadata?: { first_incomplete_date?: string; first_incident_hour?: string } }>('POST', `${config.searchConsoleUrl}/sites/${encodeURIComponent(siteUrl)}/searchAnalytics/query`, {
        bearer: accessToken, json: { ...body, dataState: 'all' },
      }),
    runReport: (accessToken: string, property: string, body: object) =>
      call<{ rows?: Array<{ dimensionValues: Array<{ value: string }>; metricValues: Array<{ value: string }> }>; rowCount?: number }>(
        'POST', `${config.analyticsDataUrl}/${property}:runReport`, { bearer: accessToken, json: body },
      ),
    close: () => dispatcher.close(),
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;
