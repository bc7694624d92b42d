import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, signUp, startTestApp } from '../../../test/helpers/app.ts';

describe('health', () => {
  it('/live and /ready answer 200 without a token while the database is up and migrated', async (t) => {
    const ctx = await startTestApp();
    t.after(() => ctx.close());
    assert.deepEqual((await call(ctx, { method: 'GET', url: '/live' })).data, { status: 'ok' });
    const ready = await call(ctx, { method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.data, { status: 'ready', checks: { database: 'up', migrations: 'current' } });
  });

  it('/ready answers 503 naming the migrations when one is pending', async (t) => {
    const ctx = await startTestApp();
    t.after(() => ctx.close());
    await ctx.database.db.deleteFrom('schema_migrations').execute();
    const ready = await call(ctx, { method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 503);
    assert.deepEqual(ready.data, { status: 'unavailable', checks: { database: 'up', migrations: 'pending' } });
  });

  it('/ready answers 503 when the database is down, /live stays 200, and API errors hide the cause', async () => {
    const ctx = await startTestApp();
    const user = await signUp(ctx);
    await ctx.database.close();
    const ready = await call(ctx, { method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.data.checks.database, 'down');
    assert.equal((await call(ctx, { method: 'GET', url: '/live' })).statusCode, 200);

    const res = await call(ctx, { method: 'GET', url: '/api/v1/sites', token: user.accessToken });
    assert.equal(res.statusCode, 500);
    assert.equal(res.data.detail, 'The server could not complete the request');
    assert.doesNotMatch(res.body, /select|pglite|kysely|closed|stack|at \w+ \(/i);
    await ctx.app.close();
  });
});
