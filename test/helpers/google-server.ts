import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A local stand-in for Google, speaking the wire formats the service uses: the OAuth 2.0
 * authorization-code flow with PKCE (token endpoint, refresh, revoke), signed id_tokens
 * and their JWKS, Search Console's sites.list and searchAnalytics.query (dimensions,
 * rowLimit, startRow, date ranges, empty days omitted) and GA4's runReport (string values,
 * YYYYMMDD dates). Tests play the browser with authorize().
 */
/** A row of the property's data; its country (ISO 3166-1 alpha-3, lower case) and device default to usa and DESKTOP. */
export interface GscRow { date: string; query: string; page: string; clicks: number; impressions: number; position: number; country?: string; device?: 'DESKTOP' | 'MOBILE' | 'TABLET' }
export interface Ga4Row { date: string; sessions: number; screenPageViews: number; bounceRate: number; keyEvents: number }
/** The GA4 metrics this stand-in knows; any other name is refused, as Google refuses it. */
const GA4_METRIC_NAMES = new Set(['sessions', 'screenPageViews', 'bounceRate', 'keyEvents']);
/** What Google's token endpoint returns for the short scope names it was asked for. */
const SCOPE_AS_GRANTED: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
};
const asGranted = (scope: string) => scope.split(' ').filter(Boolean).map((s) => SCOPE_AS_GRANTED[s] ?? s).join(' ');

export async function startGoogleServer(options: { clientId?: string; clientSecret?: string } = {}) {
  const clientId = options.clientId ?? 'test-client.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? 'test-client-secret';
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { challenge: string; redirectUri: string; sub: string; email: string; scope: string }>();
  const refreshTokens = new Map<string, { sub: string; scope: string; revoked: boolean }>();
  const accessTokens = new Map<string, { sub: string; expiresAt: number }>();
  const properties = new Map<string, Array<{ siteUrl: string; permissionLevel: string }>>();
  const gsc = new Map<string, GscRow[]>();
  /** Per Search Console property: the first day still settling (sent as metadata.first_incomplete_date). */
  const incompleteFrom = new Map<string, string>();
  /** Per property: rows of the previous page repeated at the start of the next (ties reordered between pages). */
  const overlap = new Map<string, number>();
  const ga4 = new Map<string, Ga4Row[]>();
  const faults: Array<{ status: number; path: string; body?: object; headers?: Record<string, string> }> = [];
  const requests: Array<{ method: string; path: string; body: unknown }> = [];
  let origin = '';

  const idToken = (claims: { sub: string; email: string; aud?: string; expiresIn?: number; iss?: string; nonce?: string }, key = privateKey) =>
    new SignJWT({ email: claims.email, email_verified: true, ...(claims.nonce ? { nonce: claims.nonce } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(claims.iss ?? origin)
      .setAudience(claims.aud ?? clientId)
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 3600))
      .sign(key);

  const issueAccess = (sub: string) => {
    const token = `ya29.${randomBytes(16).toString('hex')}`;
    accessTokens.set(token, { sub, expiresAt: Date.now() + 3600_000 });
    return token;
  };
  const oauthError = (error: string, description: string, status = 400) => ({ status, body: { error, error_description: description } });
  const apiError = (status: number, message: string, reason: string) => ({
    status, body: { error: { code: status, message, errors: [{ message, domain: 'global', reason }], status: status === 401 ? 'UNAUTHENTICATED' : status === 429 ? 'RESOURCE_EXHAUSTED' : status === 400 ? 'INVALID_ARGUMENT' : 'PERMISSION_DENIED' } },
  });

  function token(form: URLSearchParams) {
    // Google answers a wrong client with 401, not 400.
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return oauthError('invalid_client', 'Unauthorized', 401);
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code) return oauthError('invalid_grant', 'Malformed auth code.');
      if (code.redirectUri !== form.get('redirect_uri')) return oauthError('redirect_uri_mismatch', 'Bad Request');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return oauthError('invalid_grant', 'Invalid code verifier.');
      const refresh = `1//${randomBytes(16).toString('hex')}`;
      refreshTokens.set(refresh, { sub: code.sub, scope: code.scope, revoked: false });
      return {
        status: 200,
        body: { access_token: issueAccess(code.sub), expires_in: 3599, refresh_token: refresh, scope: asGranted(code.scope), token_type: 'Bearer', id_token: null as string | null, sub: code.sub, email: code.email },
      };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!refresh || refresh.revoked) return oauthError('invalid_grant', 'Token has been expired or revoked.');
      return { status: 200, body: { access_token: issueAccess(refresh.sub), expires_in: 3599, scope: asGranted(refresh.scope), token_type: 'Bearer' } };
    }
    return oauthError('unsupported_grant_type', 'Invalid grant_type');
  }

  function searchAnalytics(siteUrl: string, body: { startDate: string; endDate: string; dimensions?: string[]; rowLimit?: number; startRow?: number; dataState?: string }) {
    const dimensions = body.dimensions ?? [];
    const rowLimit = Math.min(body.rowLimit ?? 1000, 25_000);
    const inRange = (gsc.get(siteUrl) ?? []).filter((r) => r.date >= body.startDate && r.date <= body.endDate);
    const groups = new Map<string, { keys: string[]; clicks: number; impressions: number; weighted: number }>();
    for (const row of inRange) {
      const keys = dimensions.map((d) => String(d === 'country' ? row.country ?? 'usa' : d === 'device' ? row.device ?? 'DESKTOP' : row[d as keyof GscRow]));
      const key = keys.join('\u0000');
      const group = groups.get(key) ?? { keys, clicks: 0, impressions: 0, weighted: 0 };
      group.clicks += row.clicks;
      group.impressions += row.impressions;
      group.weighted += row.position * row.impressions;
      groups.set(key, group);
    }
    const from = Math.max(0, (body.startRow ?? 0) - (body.startRow ? overlap.get(siteUrl) ?? 0 : 0));
    const rows = [...groups.values()]
      .sort((a, b) => b.clicks - a.clicks || a.keys.join().localeCompare(b.keys.join()))
      .slice(from, from + rowLimit)
      .map((g) => ({ keys: g.keys, clicks: g.clicks, impressions: g.impressions, ctr: g.impressions ? g.clicks / g.impressions : 0, position: g.impressions ? g.weighted / g.impressions : 0 }));
    // Like Search Console, an empty page has no "rows" field at all; with dataState "all"
    // and the date dimension, metadata names the first day whose data is still incomplete.
    const incomplete = incompleteFrom.get(siteUrl);
    const metadata = body.dataState === 'all' && dimensions.includes('date') && incomplete ? { metadata: { first_incomplete_date: incomplete } } : {};
    return { status: 200, body: rows.length > 0 ? { rows, responseAggregationType: dimensions.includes('page') ? 'byPage' : 'byProperty', ...metadata } : { responseAggregationType: 'byProperty', ...metadata } };
  }

  function runReport(property: string, body: { dateRanges: Array<{ startDate: string; endDate: string }>; metrics: Array<{ name: string }>; limit?: number; offset?: number }) {
    const unknown = body.metrics.find((m) => !GA4_METRIC_NAMES.has(m.name));
    if (unknown) {
      return apiError(400, `Field ${unknown.name} is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema `, 'badRequest');
    }
    // A property the user cannot read (here: one without data) is a 403, as Google answers.
    if (!ga4.has(property)) return apiError(403, 'User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.', 'forbidden');
    const range = body.dateRanges[0]!;
    const all = (ga4.get(property) ?? []).filter((r) => r.date >= range.startDate && r.date <= range.endDate);
    const limit = body.limit ?? 10_000;
    const rows = all.slice(body.offset ?? 0, (body.offset ?? 0) + limit).map((r) => ({
      dimensionValues: [{ value: r.date.replace(/-/g, '') }],
      metricValues: body.metrics.map((m) => ({ value: String(r[m.name as keyof Ga4Row]) })),
    }));
    return {
      status: 200,
      body: {
        dimensionHeaders: [{ name: 'date' }],
        metricHeaders: body.metrics.map((m) => ({ name: m.name, type: m.name === 'bounceRate' ? 'TYPE_FLOAT' : 'TYPE_INTEGER' })),
        ...(rows.length > 0 ? { rows } : {}),
        rowCount: all.length,
        metadata: { currencyCode: 'USD', timeZone: 'America/Los_Angeles' },
        kind: 'analyticsData#runReport',
      },
    };
  }

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const isJson = (request.headers['content-type'] ?? '').includes('json');
    const body = isJson && raw ? JSON.parse(raw) : new URLSearchParams(raw);
    requests.push({ method: request.method ?? 'GET', path: url.pathname, body: isJson ? body : Object.fromEntries(body as URLSearchParams) });
    const send = (result: { status: number; body: unknown; headers?: Record<string, string> }) => {
      response.writeHead(result.status, { 'content-type': 'application/json; charset=UTF-8', ...result.headers });
      response.end(JSON.stringify(result.body));
    };
    const fault = faults.findIndex((f) => url.pathname.startsWith(f.path));
    if (fault >= 0) {
      const f = faults.splice(fault, 1)[0]!;
      return send({ status: f.status, body: f.body ?? apiError(f.status, 'Fault injected', 'backendError').body, ...(f.headers ? { headers: f.headers } : {}) });
    }
    if (url.pathname === '/token' && request.method === 'POST') return send(await withIdToken(token(body as URLSearchParams)));
    if (url.pathname === '/revoke' && request.method === 'POST') {
      const value = (body as URLSearchParams).get('token') ?? '';
      const refresh = refreshTokens.get(value);
      if (refresh) refresh.revoked = true;
      accessTokens.delete(value);
      return send({ status: refresh ? 200 : 400, body: refresh ? {} : { error: 'invalid_token', error_description: 'Token expired or revoked' } });
    }
    if (url.pathname === '/oauth2/v3/certs') return send({ status: 200, body: { keys: [jwk] } });

    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const access = accessTokens.get(bearer);
    if (!access || access.expiresAt < Date.now()) return send(apiError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.', 'authError'));
    if (url.pathname === '/webmasters/v3/sites' && request.method === 'GET') {
      return send({ status: 200, body: { siteEntry: properties.get(access.sub) ?? [] } });
    }
    const query = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(url.pathname);
    if (query && request.method === 'POST') {
      const siteUrl = decodeURIComponent(query[1]!);
      if (!(properties.get(access.sub) ?? []).some((p) => p.siteUrl === siteUrl)) return send(apiError(403, `User does not have sufficient permission for site '${siteUrl}'.`, 'forbidden'));
      return send(searchAnalytics(siteUrl, body as never));
    }
    const report = /^\/v1beta\/(properties\/\d+):runReport$/.exec(url.pathname);
    if (report && request.method === 'POST') return send(runReport(report[1]!, body as never));
    return send({ status: 404, body: { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } } });
  });

  async function withIdToken(result: { status: number; body: any }) {
    if (result.status === 200 && 'id_token' in result.body) {
      const { sub, email, ...rest } = result.body;
      const claims = { sub, email, nonce: pendingNonce.get(sub) };
      const forged = idTokenOverrides.shift();
      return { status: 200, body: { ...rest, id_token: forged ? await forged(claims) : await idToken(claims) } };
    }
    return result;
  }
  const idTokenOverrides: Array<(claims: { sub: string; email: string; nonce: string | undefined }) => Promise<string>> = [];
  const pendingNonce = new Map<string, string>();

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    clientId,
    clientSecret,
    requests,
    /** The configuration that points the service at this server. */
    env: {
      GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTH_URL: `${origin}/o/oauth2/v2/auth`, GOOGLE_TOKEN_URL: `${origin}/token`, GOOGLE_REVOKE_URL: `${origin}/revoke`,
      GOOGLE_JWKS_URL: `${origin}/oauth2/v3/certs`, GOOGLE_ISSUER: origin,
      GOOGLE_SEARCH_CONSOLE_URL: `${origin}/webmasters/v3`, GOOGLE_ANALYTICS_DATA_URL: `${origin}/v1beta`,
    },
    /**
     * Plays the browser at Google's consent screen: checks the authorization URL and
     * returns the redirect back to the service, with a code bound to the PKCE challenge.
     */
    authorize(authorizationUrl: string, user: { sub: string; email: string }) {
      const url = new URL(authorizationUrl);
      if (url.searchParams.get('client_id') !== clientId) throw new Error('wrong client_id');
      if (url.searchParams.get('code_challenge_method') !== 'S256') throw new Error('PKCE S256 expected');
      const code = `4/${randomBytes(12).toString('hex')}`;
      codes.set(code, {
        challenge: url.searchParams.get('code_challenge')!, redirectUri: url.searchParams.get('redirect_uri')!,
        sub: user.sub, email: user.email, scope: url.searchParams.get('scope') ?? '',
      });
      const nonce = url.searchParams.get('nonce');
      if (nonce) pendingNonce.set(user.sub, nonce);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      return { redirect: back, scope: url.searchParams.get('scope'), accessType: url.searchParams.get('access_type'), prompt: url.searchParams.get('prompt') };
    },
    idToken,
    /** The next token response carries this id_token instead (forged, expired, another audience…). */
    nextIdToken: (make: (claims: { sub: string; email: string; nonce: string | undefined }) => Promise<string>) => void idTokenOverrides.push(make),
    properties: (sub: string, list: Array<{ siteUrl: string; permissionLevel: string }>) => void properties.set(sub, list),
    searchData: (siteUrl: string, rows: GscRow[], options: { firstIncompleteDate?: string; overlapRows?: number } = {}) => {
      gsc.set(siteUrl, rows);
      overlap.set(siteUrl, options.overlapRows ?? 0);
      if (options.firstIncompleteDate) incompleteFrom.set(siteUrl, options.firstIncompleteDate);
      else incompleteFrom.delete(siteUrl);
    },
    analyticsData: (property: string, rows: Ga4Row[]) => void ga4.set(property, rows),
    /** The next request whose path starts with this prefix gets this answer. */
    failNext: (path: string, status: number, body?: object, headers?: Record<string, string>) => void faults.push({ path, status, ...(body ? { body } : {}), ...(headers ? { headers } : {}) }),
    /** An access token for a user, as if obtained through OAuth (for calling the APIs directly). */
    issueAccessToken: (sub: string) => issueAccess(sub),
    revokeAll: () => refreshTokens.forEach((t) => (t.revoked = true)),
    expireAccessTokens: () => accessTokens.forEach((t) => (t.expiresAt = 0)),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type GoogleServer = Awaited<ReturnType<typeof startGoogleServer>>;
