import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';

let ctx: TestContext;
let user: SignedInUser;

before(async () => {
  ctx = await startTestApp();
  user = await signUp(ctx);
});
after(() => ctx.close());

const post = (payload: string, contentType?: string) =>
  call(ctx, {
    method: 'POST',
    url: '/api/v1/sites',
    token: user.accessToken,
    payload,
    headers: contentType ? { 'content-type': contentType } : {},
  });

function assertProblem(res: Awaited<ReturnType<typeof call>>, status: number) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  for (const field of ['type', 'title', 'status', 'detail', 'instance']) assert.ok(field in res.data, field);
  assert.equal(res.data.status, status);
  assert.equal(res.data.instance, new URL(res.raw.req.url ?? '/', 'http://x').pathname);
}

describe('problem details', () => {
  it('answers 422 to bodies that are not application/json', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await post('{"name":"x","domain":"ct.com"}', type);
      assertProblem(res, 422);
      assert.match(res.data.detail, /application\/json/);
    }
  });

  it('answers 422 to a body with no content type', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/sites',
      headers: { authorization: `Bearer ${user.accessToken}` },
      body: Buffer.from('{"name":"x","domain":"none.com"}'),
    });
    assert.equal(res.statusCode, 422);
  });

  it('answers 422 to malformed JSON and to prototype pollution attempts', async () => {
    assertProblem(await post('{"name": "x",', 'application/json'), 422);
    assertProblem(await post('{"name":"x","domain":"p.com","__proto__":{"x":1}}', 'application/json'), 422);
    assertProblem(await post('{"name":"x","domain":"p.com","constructor":{"prototype":{"x":1}}}', 'application/json'), 422);
  });

  it('accepts application/json with a charset', async () => {
    const res = await post('{"name":"x","domain":"charset.com"}', 'application/json; charset=utf-8');
    assert.equal(res.statusCode, 201);
  });

  it('answers 413 to bodies over 1 MiB', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024), domain: 'big.com' }), 'application/json');
    assertProblem(res, 413);
  });

  it('answers 404 problem+json for unknown routes', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/nothing-here?token=x', token: user.accessToken });
    assertProblem(res, 404);
    assert.equal(res.data.instance, '/api/v1/nothing-here', 'the query string is not echoed');
  });

  it('lists every validation failure with its path', async () => {
    const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 7, extra: true } });
    assertProblem(res, 422);
    const paths = res.data.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, ['/body/domain', '/body/extra', '/body/name']);
  });
});

describe('X-Request-Id', () => {
  it('is generated for every response, errors included', async () => {
    for (const res of [await call(ctx, { method: 'GET', url: '/live' }), await call(ctx, { method: 'GET', url: '/api/v1/sites' })]) {
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    }
  });

  it("echoes a client's id when it is a sane token, and replaces one that is not", async () => {
    const echoed = await call(ctx, { method: 'GET', url: '/live', headers: { 'x-request-id': 'client-abc.123' } });
    assert.equal(echoed.headers['x-request-id'], 'client-abc.123');
    const replaced = await call(ctx, { method: 'GET', url: '/live', headers: { 'x-request-id': 'bad id\twith<script>' } });
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});

describe('per-user rate limit', () => {
  it('answers 429 with Retry-After and RateLimit headers past RATE_LIMIT_PER_MINUTE, per user', async (t) => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    t.after(() => limited.close());
    const [a, b] = await Promise.all([signUp(limited), signUp(limited)]);
    for (let i = 0; i < 5; i++) {
      const res = await call(limited, { method: 'GET', url: '/api/v1/sites', token: a.accessToken });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-policy'], '"api";q=5;w=60');
      assert.match(String(res.headers.ratelimit), new RegExp(`^"api";r=${4 - i};t=\\d+$`));
    }
    const over = await call(limited, { method: 'GET', url: '/api/v1/sites', token: a.accessToken });
    assertProblem(over, 429);
    assert.ok(Number(over.headers['retry-after']) > 0 && Number(over.headers['retry-after']) <= 60);
    assert.equal((await call(limited, { method: 'GET', url: '/api/v1/sites', token: b.accessToken })).statusCode, 200, 'another user is not affected');
    assert.equal((await call(limited, { method: 'GET', url: '/api/v1/sites' })).statusCode, 401, 'authentication comes first');
  });

  it('limits requests without a valid token per address (RATE_LIMIT_ANONYMOUS_PER_MINUTE), not signed-in users', async (t) => {
    const limited = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '4' });
    t.after(() => limited.close());
    const signedIn = await signUp(limited); // one public login from 127.0.0.1 already counts
    const from = (remoteAddress: string, token?: string) => call(limited, { method: 'GET', url: '/api/v1/sites', remoteAddress, ...(token ? { token } : {}) });
    for (let i = 0; i < 2; i++) assert.equal((await from('203.0.113.9')).statusCode, 401);
    assert.equal((await from('203.0.113.9', 'not-a-token')).statusCode, 401, 'a failed authentication counts too');
    const refreshed = await call(limited, { method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: 'sor_x' }, remoteAddress: '203.0.113.9' });
    assert.equal(refreshed.statusCode, 401, 'public routes count');
    const over = await from('203.0.113.9');
    assertProblem(over, 429);
    assert.equal(over.headers['ratelimit-policy'], '"anonymous";q=4;w=60');
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal((await from('203.0.113.10')).statusCode, 401, 'another address is not affected');
    for (let i = 0; i < 6; i++) {
      assert.equal((await from('127.0.0.1', signedIn.accessToken)).statusCode, 200, 'signed-in requests are not counted');
    }
  });

  it('is off when RATE_LIMIT_PER_MINUTE is 0', async (t) => {
    const unlimited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    t.after(() => unlimited.close());
    const a = await signUp(unlimited);
    const res = await call(unlimited, { method: 'GET', url: '/api/v1/sites', token: a.accessToken });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-policy'], undefined);
  });
});
