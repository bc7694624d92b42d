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
    .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
    .setExpirationTime(exp)
    .sign(secret);
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
  };
}
