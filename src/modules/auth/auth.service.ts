import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { ProblemError, unauthorized } from '../../lib/problem.ts';
import type { UsersService } from '../users/users.service.ts';
import { normalizeEmail } from '../users/users.service.ts';
import type { AccessClaims, AccessTokens } from './access-tokens.ts';
import type { AuthRepo } from './auth.repo.ts';
import type { FailureCounter } from './login-throttle.ts';
import { decoyPasswordHash, verifyPassword } from '../users/passwords.ts';
import { hashRefreshToken, newRefreshToken } from './refresh-tokens.ts';
import type { RevocationList } from './revocations.ts';

type GoogleCallbackQuery = { code?: string | undefined; state?: string | undefined; error?: string | undefined };

export const MAX_CONSECUTIVE_FAILURES = 10;

/**
 * The loser of two refreshes that raced with one token: 401, and the session goes on with
 * the winner's pair (a second tab presents the cookie the winner set). Nothing is revoked,
 * so the browser session must not drop its cookie for this one.
 */
export class RefreshRaceLost extends ProblemError {
  constructor() {
    super('refresh_in_progress', 'This refresh token is being used by another request at this moment; use the token that request receives');
  }
}
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

const accountDisabled = () => new ProblemError('account_disabled', 'This account has been disabled by an administrator');

export interface TokenPair {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

/** A Google identity verified from its id_token (the Google integration checks it). */
export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string;
}

interface Deps {
  users: UsersService;
  /** Verifies a Google sign-in callback (state, PKCE, id_token) into an identity. */
  google?: { configured: boolean; signinCallback(query: GoogleCallbackQuery, browser: { state?: string | undefined }): Promise<GoogleIdentity & { returnTo: 'app' | null }> };
  repo: AuthRepo;
  accessTokens: AccessTokens;
  revocations: RevocationList;
  failures: FailureCounter;
  refreshTtlSeconds: number;
  log: FastifyBaseLogger;
}

export function createAuthService(deps: Deps) {
  const { repo, accessTokens, revocations } = deps;
  /** Hashes of the refresh tokens this process is rotating right now. */
  const rotating = new Set<string>();

  async function issueTokens(userId: string, sessionId: string = randomUUID()): Promise<TokenPair> {
    const refreshToken = newRefreshToken();
    const started = await repo.insertRefreshToken({
      userId,
      familyId: sessionId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000),
    });
    if (!started) throw accountDisabled(); // an admin disabled it (or it is gone): no session starts
    const { token } = await accessTokens.sign(userId, sessionId);
    return { access_token: token, token_type: 'bearer', expires_in: accessTokens.ttlSeconds, refresh_token: refreshToken };
  }

  /** Ends a session: its refresh tokens, and every access token issued from it. */
  async function revokeSession(sessionId: string, userId: string) {
    await repo.revokeFamily(sessionId, userId);
    // An access token of this session lives at most one TTL from now.
    const expiresAt = new Date(Date.now() + accessTokens.ttlSeconds * 1000);
    await repo.insertRevocation({ tokenId: sessionId, userId, expiresAt });
    revocations.remember(sessionId, expiresAt);
  }

  /**
   * Ends every session of a user but `keep` (its refresh tokens and access tokens), in `trx`
   * when given; the ids of the sessions ended. Pass them to applyRevocations() once that has
   * committed, so this instance refuses their access tokens at once (others within a poll).
   */
  const endSessions = (userId: string, options: { keep?: string | undefined } = {}, trx?: Kysely<DB>) =>
    repo.revokeUserSessions(userId, {
      keep: options.keep, accessTtlSeconds: accessTokens.ttlSeconds, revokeUntil: new Date(Date.now() + accessTokens.ttlSeconds * 1000),
    }, trx);
  /** Remembered here rather than read back: the poll may have passed their rows' seq already. */
  const applyRevocations = (sessionIds: string[]) => {
    const until = new Date(Date.now() + accessTokens.ttlSeconds * 1000);
    for (const id of sessionIds) revocations.remember(id, until);
  };

  return {
    issueTokens,

    async login(input: { email: string; password: string; ip: string }): Promise<TokenPair> {
      const throttleKey = `${normalizeEmail(input.email)}|${input.ip}`;
      const { failures, retryAfterSeconds } = await deps.failures.read(throttleKey);
      if (failures >= MAX_CONSECUTIVE_FAILURES) {
        throw new ProblemError(
          'rate_limited',
          `Too many failed sign-in attempts for this account from your address; try again in ${retryAfterSeconds} seconds`,
          { headers: { 'retry-after': String(retryAfterSeconds) } },
        );
      }
      const account = await deps.users.findCredentials(input.email);
      let ok = false;
      if (account?.passwordHash) ok = await verifyPassword(account.passwordHash, input.password);
      else await verifyPassword(await decoyPasswordHash(), input.password); // same cost as a real check
      if (!account || !ok) {
        await deps.failures.recordFailure(throttleKey);
        throw unauthorized('Invalid e-mail or password');
      }
      await deps.failures.reset(throttleKey);
      // A disabled account is refused there (403), so only whoever knows the password learns it
      // is disabled: to anyone else it answers as any other.
      return issueTokens(account.id);
    },

    /** A forgotten password was reset from this address: its failed sign-ins there no longer count. */
    clearLoginFailures: (email: string, ip: string) => deps.failures.reset(`${normalizeEmail(email)}|${ip}`),

    /** The tokens of the user behind a Google sign-in (found, linked or created), and who started it (the web app answers the browser itself). */
    async signInWithGoogle(query: GoogleCallbackQuery, browser: { state?: string | undefined } = {}): Promise<{ tokens: TokenPair; returnTo: 'app' | null }> {
      if (!deps.google) throw new ProblemError('service_unavailable', 'Google sign-in is not available on this server.');
      const { returnTo, ...identity } = await deps.google.signinCallback(query, browser);
      const user = await deps.users.findOrCreateByGoogle(identity);
      // An account whose address was never proven, now claimed by the Google identity that proves it: whoever chose its password
      // before (an inviter holds the invitation's link too) is signed out everywhere.
      if (user.claimed) applyRevocations(await endSessions(user.id));
      try {
        return { tokens: await issueTokens(user.id), returnTo };
      } catch (error) {
        // The web app started it: its sign-in page says why (google.routes.ts reads returnTo).
        if (returnTo && error instanceof ProblemError) throw Object.assign(error, { returnTo });
        throw error;
      }
    },

    /** Which ways of signing in this server offers (the web app shows the Google button only when it works). */
    signInMethods: () => ({ password: true, google: deps.google?.configured === true }),

    async refresh(refreshToken: string): Promise<TokenPair> {
      const tokenHash = hashRefreshToken(refreshToken);
      // The embedded database has one connection, so a second request cannot see the first's
      // row lock: it would wait for the commit and then find the token used. This process
      // owns that database, so its own set of rotations in progress is that lock table.
      if (rotating.has(tokenHash)) throw new RefreshRaceLost();
      rotating.add(tokenHash);
      let rotation;
      try {
        rotation = await repo.rotateRefreshToken(tokenHash, async (owner) => {
          const successor = newRefreshToken();
          const { token } = await accessTokens.sign(owner.user_id, owner.family_id);
          return {
            successor: { tokenHash: hashRefreshToken(successor), expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000) },
            result: { access_token: token, token_type: 'bearer', expires_in: accessTokens.ttlSeconds, refresh_token: successor } satisfies TokenPair,
          };
        });
      } finally {
        rotating.delete(tokenHash);
      }
      switch (rotation.outcome) {
        case 'rotated':
          return rotation.result;
        case 'busy':
          throw new RefreshRaceLost();
        case 'reused': {
          // Its rotation had committed: someone else holds a copy of it. End the whole session.
          const { user_id: userId, family_id: sessionId } = rotation.owner;
          deps.log.warn({ userId, sessionId }, 'refresh token reuse; session revoked');
          await revokeSession(sessionId, userId);
          throw unauthorized('This refresh token was already used; the session has been signed out');
        }
        case 'revoked':
          throw unauthorized('This refresh token has been revoked');
        case 'expired':
          throw unauthorized('This refresh token has expired');
        case 'unknown':
          throw unauthorized('Invalid refresh token');
      }
    },

    async logout(actor: AccessClaims, refreshToken: string | undefined): Promise<void> {
      await repo.insertRevocation({ tokenId: actor.jti, userId: actor.sub, expiresAt: new Date(actor.exp * 1000) });
      revocations.remember(actor.jti, new Date(actor.exp * 1000));
      await revokeSession(actor.sid, actor.sub);
      if (refreshToken) {
        const presented = await repo.findRefreshToken(hashRefreshToken(refreshToken));
        // Another user's token is ignored, never reported: logout must not reveal it exists.
        if (presented && presented.user_id === actor.sub && presented.family_id !== actor.sid) {
          await revokeSession(presented.family_id, actor.sub);
        }
      }
    },

    endSessions,
    applyRevocations,

    /** The per-request check: a verified token that is neither logged out nor in an ended session. */
    async authenticate(token: string): Promise<AccessClaims | undefined> {
      const claims = await accessTokens.verify(token);
      if (!claims || revocations.isRevoked(claims.jti) || revocations.isRevoked(claims.sid)) return undefined;
      return claims;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
