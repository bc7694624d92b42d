import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { GoogleConfig } from '../../../config.ts';
import { conflict, ProblemError } from '../../../lib/problem.ts';
import type { SecretBox } from '../../../lib/secret-box.ts';
import type { JobSender } from '../../../jobs/queue.ts';
import { GoogleApiError, normalizeScopes, type GoogleClient } from './google-client.ts';
import type { GoogleRepo } from './google.repo.ts';

/** Who started a Google round trip: the web app ('app': its callback answers the browser), or an API client (null: JSON). */
export type ReturnTo = 'app' | null;

/** openid and email only name the connected account in the status; the data scopes are read-only. */
export const DATA_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/webmasters.readonly', 'https://www.googleapis.com/auth/analytics.readonly'];
export const SIGNIN_SCOPES = ['openid', 'email', 'profile'];
/** Refresh a little before Google's expiry, so a token never dies mid-request. */
const EXPIRY_MARGIN_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const notConfigured = () => new ProblemError('service_unavailable', 'Google is not configured on this server (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).');

/**
 * Connecting a user's Google account for data (Search Console, GA4): the authorization-code
 * flow with PKCE (S256) and a one-time state, offline access, and the refresh token sealed
 * at rest. Access tokens are refreshed when they expire; a revoked grant is reported as such.
 */
export function createGoogleService(deps: {
  config: GoogleConfig | undefined;
  publicUrl: string;
  client: GoogleClient | undefined;
  repo: GoogleRepo;
  secrets: SecretBox;
  /** Sends "Google connected": each of the user's sites then syncs. */
  queue: JobSender;
  log: FastifyBaseLogger;
}) {
  const { repo, secrets } = deps;
  const connectRedirect = `${deps.publicUrl}/api/v1/integrations/google/callback`;
  const signinRedirect = `${deps.publicUrl}/api/v1/auth/google/callback`;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const ready = () => {
    if (!deps.config || !deps.client) throw notConfigured();
    return { config: deps.config, client: deps.client };
  };

  /** A state and PKCE pair stored server-side; the authorization URL to send the browser to. */
  async function authorizationUrl(purpose: 'connect' | 'signin', userId: string | null, redirectUri: string, scopes: string[], returnTo: ReturnTo = null) {
    const { config } = ready();
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    const nonce = purpose === 'signin' ? randomBytes(16).toString('base64url') : null;
    await repo.saveState({ stateHash: sha256(state), purpose, userId, codeVerifier: secrets.seal(verifier, `oauth:${sha256(state)}`), nonce, returnTo });
    const url = new URL(config.authUrl);
    url.search = new URLSearchParams({
      client_id: config.clientId, redirect_uri: redirectUri, response_type: 'code', scope: scopes.join(' '), state,
      code_challenge: sha256(verifier), code_challenge_method: 'S256',
      ...(purpose === 'connect' ? { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' } : { nonce: nonce! }),
    }).toString();
    return url.href;
  }

  /** The stored state for a callback, once; 400 for an unknown, used or expired one. */
  async function takeState(state: string, purpose: 'connect' | 'signin') {
    const row = await repo.takeState(sha256(state));
    if (!row || row.purpose !== purpose) throw new ProblemError('bad_request', 'Unknown or expired state: start again.');
    let verifier: string;
    try {
      verifier = secrets.open(row.code_verifier, `oauth:${sha256(state)}`);
    } catch {
      throw new ProblemError('bad_request', 'This sign-in was started before the server\'s SECRETS_KEY changed: start again.');
    }
    return { userId: row.user_id, verifier, nonce: row.nonce, returnTo: row.return_to };
  }

  /** Runs the rest of a callback; a refusal of a round trip the web app started says so, so its route can answer the browser. */
  async function finishing<T>(returnTo: ReturnTo, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (returnTo && error instanceof ProblemError) throw Object.assign(error, { returnTo });
      throw error;
    }
  }

  const googleError = (error: unknown): never => {
    if (error instanceof GoogleApiError) {
      if (error.status === 400) throw new ProblemError('bad_request', `Google refused the authorization code (${error.reason ?? error.status}): start again.`);
      throw new ProblemError('bad_gateway', error.message);
    }
    throw error;
  };

  return {
    /** Whether Google is set up on this server (GOOGLE_CLIENT_ID and secret). */
    configured: Boolean(deps.config && deps.client),
    authorizationUrl,
    takeState,
    googleError,

    async connectStart(userId: string, returnTo: ReturnTo = null) {
      return { authorization_url: await authorizationUrl('connect', userId, connectRedirect, DATA_SCOPES, returnTo) };
    },

    async connectCallback(query: { code?: string | undefined; state?: string | undefined; error?: string | undefined }, browser: { state?: string | undefined } = {}) {
      const { client } = ready();
      if (!query.state) throw new ProblemError('bad_request', 'The callback has no state.');
      const { userId, verifier, returnTo } = await takeState(query.state, 'connect');
      return finishing(returnTo, async () => {
        // A connection finishes only in the browser that started it: a consent link forwarded to
        // someone else would put their Search Console data in the account that asked for it.
        if (!browser.state || browser.state !== query.state) {
          throw new ProblemError('forbidden', 'This Google connection was not started in this browser: start it again from Settings.');
        }
        if (query.error || !query.code) throw new ProblemError('bad_request', `Google did not grant access (${query.error ?? 'no code'}).`);
        const tokens = await client.exchangeCode(query.code, verifier, connectRedirect).catch(googleError);
        if (!tokens.refresh_token) throw new ProblemError('bad_gateway', 'Google sent no refresh token (offline access was not granted): connect again.');
        const granted = normalizeScopes(tokens.scope ?? '');
        const missing = DATA_SCOPES.filter((s) => !granted.includes(s));
        // Only to show which account is connected: this id_token came straight from Google's token endpoint over TLS.
        const claims = tokens.id_token ? JSON.parse(Buffer.from(tokens.id_token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}') : {};
        await repo.saveConnection({
          userId: userId!, googleSub: String(claims.sub ?? 'unknown'), email: typeof claims.email === 'string' ? claims.email : null, scopes: granted.join(' '),
          refreshToken: secrets.seal(tokens.refresh_token, `google:${userId}`), accessToken: secrets.seal(tokens.access_token, `google:${userId}`),
          expiresAt: new Date(Date.now() + tokens.expires_in * 1000),
        });
        await deps.queue.send('search.sync-user', { userId: userId! });
        deps.log.info({ userId, scopes: granted }, 'Google connected');
        return { userId: userId!, connected: true, scopes: granted, missing_scopes: missing, returnTo };
      });
    },

    /** Google sign-in: the URL to redirect the browser to (openid, email, profile; nonce, state, PKCE). */
    signinStart: (returnTo: ReturnTo = null) => authorizationUrl('signin', null, signinRedirect, SIGNIN_SCOPES, returnTo),

    /**
     * The Google identity behind a sign-in callback, from an id_token verified against
     * Google's JWKS: signature, issuer, audience (our client id), expiry, the nonce we sent,
     * and a verified e-mail. Anything else is refused.
     */
    async signinCallback(query: { code?: string | undefined; state?: string | undefined; error?: string | undefined }, browser: { state?: string | undefined } = {}) {
      const { client, config } = ready();
      if (!query.state) throw new ProblemError('bad_request', 'The callback has no state.');
      const { verifier, nonce, returnTo } = await takeState(query.state, 'signin');
      return finishing(returnTo, async () => {
        // Login CSRF: a sign-in that ends in a browser session finishes only in the browser that started it,
        // checked before Google's code is used (as a connection's is).
        if (returnTo === 'app' && (!browser.state || browser.state !== query.state)) {
          throw new ProblemError('forbidden', 'This sign-in was not started in this browser: start again.');
        }
        if (query.error || !query.code) throw new ProblemError('bad_request', `Google did not sign you in (${query.error ?? 'no code'}).`);
        const tokens = await client.exchangeCode(query.code, verifier, signinRedirect).catch(googleError);
        if (!tokens.id_token) throw new ProblemError('bad_gateway', 'Google sent no id_token.');
        jwks ??= createRemoteJWKSet(new URL(config.jwksUrl));
        // Google issues either form of its issuer name.
        const issuers = config.issuer === 'https://accounts.google.com' ? ['https://accounts.google.com', 'accounts.google.com'] : [config.issuer];
        let claims: JWTPayload;
        try {
          ({ payload: claims } = await jwtVerify(tokens.id_token, jwks, { issuer: issuers, audience: config.clientId, algorithms: ['RS256'] }));
        } catch (error) {
          throw new ProblemError('unauthorized', `The id_token from Google was refused: ${error instanceof Error ? error.message : 'invalid'}`);
        }
        if (claims.nonce !== nonce) throw new ProblemError('unauthorized', 'The id_token from Google was refused: nonce mismatch');
        if (typeof claims.sub !== 'string' || typeof claims.email !== 'string' || claims.email_verified !== true) {
          throw new ProblemError('unauthorized', 'The Google account has no verified e-mail address.');
        }
        return { sub: claims.sub, email: claims.email.toLowerCase(), name: typeof claims.name === 'string' ? claims.name : claims.email.split('@')[0]!, returnTo };
      });
    },

    async status(userId: string) {
      const row = await repo.connection(userId);
      return row
        ? { connected: row.status === 'active', status: row.status, email: row.email, scopes: row.scopes.split(' ').filter(Boolean), connected_at: row.connected_at }
        : { connected: false, status: 'not_connected' as const, email: null, scopes: [], connected_at: null };
    },

    /** Revokes the grant at Google (best effort) and forgets it. */
    async disconnect(userId: string) {
      const row = await repo.connection(userId);
      if (!row) throw conflict('Google is not connected.');
      if (deps.client && row.status === 'active') {
        await deps.client.revoke(secrets.open(row.refresh_token, `google:${userId}`)).catch((error: unknown) =>
          deps.log.warn({ err: error instanceof Error ? error.message : error, userId }, 'Google revoke failed; the connection is forgotten anyway'));
      }
      await repo.deleteConnection(userId);
    },

    /** A valid access token for the user's connection: refreshed when expired; 409 when not connected or revoked. */
    async accessToken(userId: string): Promise<string> {
      const { client } = ready();
      const row = await repo.connection(userId);
      if (!row) throw conflict('Google is not connected: connect it first (GET /api/v1/integrations/google/connect).');
      if (row.status === 'revoked') throw conflict('The Google grant was revoked or expired: connect Google again.');
      if (row.access_token && row.access_expires_at && row.access_expires_at.getTime() - EXPIRY_MARGIN_MS > Date.now()) {
        return secrets.open(row.access_token, `google:${userId}`);
      }
      try {
        const tokens = await client.refresh(secrets.open(row.refresh_token, `google:${userId}`));
        await repo.saveAccessToken(userId, secrets.seal(tokens.access_token, `google:${userId}`), new Date(Date.now() + tokens.expires_in * 1000));
        return tokens.access_token;
      } catch (error) {
        if (error instanceof GoogleApiError && error.revoked) {
          await repo.markRevoked(userId);
          throw conflict('The Google grant was revoked or expired: connect Google again.');
        }
        throw error;
      }
    },

    async properties(userId: string) {
      const { client } = ready();
      const token = await this.accessToken(userId);
      const list = await client.sites(token).catch(googleError);
      const items = (list.siteEntry ?? []).map((s) => ({ site_url: s.siteUrl, permission_level: s.permissionLevel }))
        .sort((a, b) => a.site_url.localeCompare(b.site_url));
      return { items, total: items.length };
    },
  };
}

export type GoogleService = ReturnType<typeof createGoogleService>;
