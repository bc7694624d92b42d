import { createSecretKey, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { TEST_JWT_SECRET } from './app.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const key = createSecretKey(Buffer.from(TEST_JWT_SECRET));

const claims = (userId: string) => ({ sid: randomUUID(), sub: userId });

function sign(userId: string, { alg = 'HS256', exp = '15m', secret = key, iss = 'site-optimization-service', aud = 'site-optimization-api' } = {}) {
  return new SignJWT(claims(userId))
    .setProtectedHeader({ alg })
    .setJti(randomUUID())
    .setIssuer(iss)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(secret);
}

/** A correctly signed token of ours with its claims as given (undefined leaves one out). */
export function signClaims(claims: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  const all: Record<string, unknown> = {
    sid: randomUUID(), jti: randomUUID(), iss: 'site-optimization-service', aud: 'site-optimization-api', iat: now, exp: now + 600, ...claims,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  return new SignJWT(all).setProtectedHeader({ alg: 'HS256' }).sign(key);
}

/** Tokens that must all be refused with 401, each for a different reason. */
export async function badTokens(validToken: string, userId: string): Promise<Record<string, string>> {
  const [header, payload, signature] = validToken.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
  return {
    junk: 'not-a-jwt',
    expired: await sign(userId, { exp: Math.floor(Date.now() / 1000) - 60 } as never),
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    'alg switched to HS512': await sign(userId, { alg: 'HS512', secret: createSecretKey(Buffer.alloc(64, 1)) }),
    'signed with another secret': await sign(userId, { secret: createSecretKey(Buffer.from('another-secret-another-secret-another-secret')) }),
    'tampered payload': `${header}.${b64({ ...decoded, sub: randomUUID() })}.${signature}`,
    'tampered signature': `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
    'wrong audience': await sign(userId, { aud: 'someone-else' }),
    'wrong issuer': await sign(userId, { iss: 'someone-else' }),
    'without exp': await signClaims({ sub: userId, exp: undefined }),
    'without iat': await signClaims({ sub: userId, iat: undefined }),
    'without jti': await signClaims({ sub: userId, jti: undefined }),
    'without sub': await signClaims({ sub: undefined }),
    'iat a minute in the future': await signClaims({ sub: userId, iat: Math.floor(Date.now() / 1000) + 60 }),
    'iat older than a token lives': await signClaims({ sub: userId, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) + 600 }),
  };
}
