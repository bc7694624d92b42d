import { createSecretKey, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LruMap } from 'toad-cache';

export interface AccessClaims {
  sub: string;
  jti: string;
  /** The session: the refresh-token family this token was issued from. */
  sid: string;
  exp: number;
}

const ISSUER = 'site-optimization-service';
const AUDIENCE = 'site-optimization-api';
const ALGORITHM = 'HS256';
/** Seconds of clock difference tolerated between the signer and this verifier. */
export const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Signs and verifies access tokens. The key is imported once as a KeyObject (a raw
 * Uint8Array is re-imported on every call and costs ~40% of throughput). A verified
 * token is remembered until it expires, so the same bearer token is checked
 * cryptographically once rather than on every request; a different or tampered string
 * is a cache miss and is verified in full. Revocation is checked separately, every time.
 */
export function createAccessTokens(options: { secret: string; ttlSeconds: number; cacheSize?: number }) {
  const key = createSecretKey(Buffer.from(options.secret, 'utf8'));
  const verified = new LruMap<AccessClaims>(options.cacheSize ?? 10_000);

  return {
    ttlSeconds: options.ttlSeconds,

    async sign(userId: string, sessionId: string): Promise<{ token: string; claims: AccessClaims }> {
      const jti = randomUUID();
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setJti(jti)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key);
      const exp = Math.floor(Date.now() / 1000) + options.ttlSeconds;
      return { token, claims: { sub: userId, jti, sid: sessionId, exp } };
    },

    /** The token's claims, or undefined for anything not a valid, unexpired token of ours. */
    async verify(token: string): Promise<AccessClaims | undefined> {
      const now = Date.now() / 1000;
      const cached = verified.get(token);
      if (cached) return cached.exp > now ? cached : undefined;
      try {
        // The algorithm list is pinned: `none` and switching to another algorithm fail here.
        // exp, iat, jti and sub are required; maxTokenAge makes jose refuse an iat in the
        // future (and one older than a token can live), within a small clock tolerance.
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'iat', 'jti', 'sub'],
          maxTokenAge: options.ttlSeconds,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.sid !== 'string') {
          return undefined;
        }
        const claims: AccessClaims = { sub: payload.sub, jti: payload.jti, sid: payload.sid, exp: payload.exp ?? 0 };
        verified.set(token, claims);
        return claims;
      } catch {
        return undefined;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
