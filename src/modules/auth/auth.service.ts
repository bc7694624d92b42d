import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ProblemError, unauthorized } from '../../lib/problem.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
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
 * Seconds after a refresh in which the same refresh token returns the same new pair (two
 * tabs, a retried request), as the OAuth 2.0 Security BCP allows; after it, reuse ends the session.
 */
export const REFRESH_GRACE_SECONDS = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

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
  /** Seals the pair kept for the refresh grace window. */
  secrets: SecretBox;
  refreshTtlSeconds: number;
  log: FastifyBaseLogger;
}

export function createAuthService(deps: Deps) {
  const { repo, accessTokens, revocations } = deps;

  async function issueTokens(userId: string, sessionId: string = randomUUID()): Promise<TokenPair> {
    const refreshToken = newRefreshToken();
    await repo.insertRefreshToken({
      userId,
      familyId: sessionId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000),
    });
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
      return issueTokens(account.id);
    },

    /** The tokens of the user behind a Google sign-in (found, linked or created), and who started it (the web app answers the browser itself). */
    async signInWithGoogle(query: GoogleCallbackQuery, browser: { state?: string | undefined } = {}): Promise<{ tokens: TokenPair; returnTo: 'app' | null }> {
      if (!deps.google) throw new ProblemError('service_unavailable', 'Google sign-in is not available on this server.');
      const { returnTo, ...identity } = await deps.google.signinCallback(query, browser);
      const user = await deps.users.findOrCreateByGoogle(identity);
      return { tokens: await issueTokens(user.id), returnTo };
    },

    /** Which ways of signing in this server offers (the web app shows the Google button only when it works). */
    signInMethods: () => ({ password: true, google: deps.google?.configured === true }),

    async refresh(refreshToken: string): Promise<TokenPair> {
      const tokenHash = hashRefreshToken(refreshToken);
      // The sealed pair is bound to the token it replaces: it opens for no other row.
      const context = `refresh-successor:${tokenHash}`;
      const rotated = await repo.rotateRefreshToken(tokenHash, async (owner) => {
        const successor = newRefreshToken();
        const { token } = await accessTokens.sign(owner.user_id, owner.family_id);
        const pair: TokenPair = { access_token: token, token_type: 'bearer', expires_in: accessTokens.ttlSeconds, refresh_token: successor };
        return {
          successor: { tokenHash: hashRefreshToken(successor), expiresAt: new Date(Date.now() + deps.refreshTtlSeconds * 1000) },
          sealed: deps.secrets.seal(JSON.stringify(pair), context),
          result: pair,
        };
      });
      if (rotated) return rotated;

      const grace = await repo.findGraceSuccessor(tokenHash, REFRESH_GRACE_SECONDS);
      if (grace?.successor_sealed) {
        try {
          return JSON.parse(deps.secrets.open(grace.successor_sealed, context)) as TokenPair;
        } catch {
          // Sealed under a SECRETS_KEY since replaced: treat it as the reuse it now is.
        }
      }

      const known = await repo.findRefreshToken(tokenHash);
      if (known?.used_at && !known.revoked_at) {
        // A rotated token came back: someone holds a copy. End the whole session.
        deps.log.warn({ userId: known.user_id, sessionId: known.family_id }, 'refresh token reuse; session revoked');
        await revokeSession(known.family_id, known.user_id);
        throw unauthorized('This refresh token was already used; the session has been signed out');
      }
      if (known?.revoked_at) throw unauthorized('This refresh token has been revoked');
      if (known) throw unauthorized('This refresh token has expired');
      throw unauthorized('Invalid refresh token');
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

    /** The per-request check: a verified token that is neither logged out nor in an ended session. */
    async authenticate(token: string): Promise<AccessClaims | undefined> {
      const claims = await accessTokens.verify(token);
      if (!claims || revocations.isRevoked(claims.jti) || revocations.isRevoked(claims.sid)) return undefined;
      return claims;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
