import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { call, signUp, startTestApp, TEST_JWT_SECRET, type TestContext } from '../../test/helpers/app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable() {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

// CI always has Redis; a developer machine without one skips with a reason.
const available = await redisReachable();
if (!available && process.env.CI) throw new Error(`Redis is required in CI at ${REDIS_URL}`);

describe('limits shared through Redis', { skip: available ? false : `no Redis at ${REDIS_URL}` }, () => {
  let a: TestContext;
  let b: TestContext;

  before(async () => {
    a = await startTestApp({ REDIS_URL, RATE_LIMIT_PER_MINUTE: '5' });
    // A second instance on the same database and the same Redis.
    const config = loadConfig({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', REDIS_URL, RATE_LIMIT_PER_MINUTE: '5' });
    const app = await buildApp({ config, database: a.database, logger: false });
    await app.ready();
    b = { app, database: a.database, config, close: () => app.close() };
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('counts one user\'s requests across instances', async () => {
    const user = await signUp(a);
    for (const ctx of [a, b, a, b, a]) {
      assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/sites', token: user.accessToken })).statusCode, 200);
    }
    const over = await call(b, { method: 'GET', url: '/api/v1/sites', token: user.accessToken });
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) > 0);
  });

  it('counts failed logins across instances and resets them on success', async () => {
    const user = await signUp(a);
    const login = (ctx: TestContext, password: string) =>
      call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password }, remoteAddress: '203.0.113.50' });
    for (let i = 0; i < 10; i++) assert.equal((await login(i % 2 ? a : b, 'wrong-password-1')).statusCode, 401);
    assert.equal((await login(a, user.password)).statusCode, 429);
    assert.equal((await login(b, user.password)).statusCode, 429);
  });

  it('names each counter in Redis by its limiter\'s key, under the service\'s namespace', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const address = '203.0.113.77';
      // This machine's Redis outlives a run: counters an earlier run left for this address go first.
      const left = await redis.keys(`*${address}`);
      if (left.length > 0) await redis.del(...left);
      await call(a, { method: 'POST', url: '/api/v1/auth/login', payload: { email: 'nobody@example.com', password: 'wrong-password-1' }, remoteAddress: address });
      // The sign-in limit's counter and the one on requests without a token, each under its own name, nothing before it.
      const keys = (await redis.keys(`sos:rate-limit:*${address}`)).sort();
      assert.deepEqual(keys, [`sos:rate-limit:anon-ip:${address}`, `sos:rate-limit:login-ip:${address}`]);
    } finally {
      redis.disconnect();
    }
  });

  it('reports Redis in /ready', async () => {
    const ready = await call(a, { method: 'GET', url: '/ready' });
    assert.equal(ready.data.checks.redis, 'up');
  });
});
