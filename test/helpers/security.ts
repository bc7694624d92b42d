import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { call, type SignedInUser, type TestContext } from './app.ts';
import { badTokens } from './tokens.ts';

/** Every authenticated route answers 401 problem+json to a missing or bad token. */
export async function assertRejectsBadTokens(ctx: TestContext, request: InjectOptions, user: SignedInUser) {
  const missing = await call(ctx, request);
  assert.equal(missing.statusCode, 401, `${request.method} ${request.url} without a token`);
  assert.match(String(missing.headers['content-type']), /application\/problem\+json/);
  assert.equal(missing.headers['www-authenticate'], 'Bearer');

  for (const [reason, token] of Object.entries(await badTokens(user.accessToken, user.id))) {
    const res = await call(ctx, { ...request, token });
    assert.equal(res.statusCode, 401, `${request.method} ${request.url} with a token that is ${reason}`);
    assert.equal(res.data.status, 401);
  }
}
