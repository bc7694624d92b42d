import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, startTestApp, type TestContext } from '../../test/helpers/app.ts';

let ctx: TestContext;
let document: any;

before(async () => {
  ctx = await startTestApp({ PUBLIC_URL: 'https://seo.acme.test' });
  document = (await call(ctx, { method: 'GET', url: '/api/v1/openapi.json' })).data;
});
after(() => ctx.close());

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })));

describe('the OpenAPI document, as a client generator reads it', () => {
  it('passes redocly lint with the recommended rules (reviewed exceptions in .redocly.lint-ignore.yaml)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sos-openapi-'));
    try {
      await fs.writeFile(path.join(dir, 'openapi.json'), JSON.stringify(document));
      await fs.copyFile('.redocly.lint-ignore.yaml', path.join(dir, '.redocly.lint-ignore.yaml'));
      const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
      const result = spawnSync(process.execPath, [cli, 'lint', 'openapi.json', '--format=summary', '--max-problems=200'], {
        cwd: dir, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const output = `${result.stdout}\n${result.stderr}`;
      assert.equal(result.status, 0, output);
      assert.doesNotMatch(output, /warning|error /i, output);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('names every operation, and declares its errors as problem documents with X-Request-Id (Retry-After on 429 and 503)', () => {
    const ids = new Set<string>();
    for (const { key, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, key);
      assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
      ids.add(op.operationId);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        assert.ok(!/X{2}/.test(status), `${key}: ${status} is a real status`);
        assert.ok(response.headers?.['X-Request-Id'], `${key} ${status}: X-Request-Id`);
        if (Number(status) >= 400 && !(key === 'GET /ready' && status === '503')) {
          assert.deepEqual(Object.keys(response.content ?? {}), ['application/problem+json'], `${key} ${status}`);
        }
        if (['429', '503'].includes(status) && key !== 'GET /ready') assert.ok(response.headers['Retry-After'], `${key} ${status}: Retry-After`);
      }
    }
  });

  it('lists the statuses each operation really answers', () => {
    const responses = (key: string) => Object.keys(operations().find((o) => o.key === key)!.op.responses);
    // The optional body (a reason) makes 413 possible too.
    assert.deepEqual(responses('POST /api/v1/tasks/{task_id}/cancel'), ['200', '400', '401', '404', '409', '413', '414', '422', '429', '500', '503']);
    assert.deepEqual(responses('DELETE /api/v1/keywords/{keyword_id}'), ['204', '400', '401', '404', '414', '422', '429', '500', '503']);
    assert.deepEqual(responses('DELETE /api/v1/integrations/google'), ['204', '401', '409', '422', '429', '500', '503']);
    assert.ok(responses('GET /api/v1/auth/google/start').includes('302'));
    assert.ok(responses('POST /api/v1/auth/login').includes('401') && responses('POST /api/v1/auth/login').includes('429'));
  });

  it('has servers, explicit empty security on public operations, and an optional logout body', () => {
    assert.deepEqual(document.servers, [{ url: 'https://seo.acme.test', description: 'This server (PUBLIC_URL)' }]);
    const byKey = new Map(operations().map((o) => [o.key, o.op]));
    for (const key of ['POST /api/v1/auth/login', 'POST /api/v1/auth/refresh', 'GET /live', 'GET /ready', 'GET /api/v1/auth/google/start']) {
      assert.deepEqual(byKey.get(key).security, [], key);
    }
    assert.deepEqual(byKey.get('GET /api/v1/sites').security, [{ bearerAuth: [] }]);
    assert.equal(byKey.get('POST /api/v1/auth/logout').requestBody.required, false);
    assert.equal(byKey.get('POST /api/v1/tasks/{task_id}/cancel').requestBody.required, false, 'approving and rejecting need no body');
  });

  it('gives approve, cancel and rollback the one status each leads to, and enums for period and metric', () => {
    const byKey = new Map(operations().map((o) => [o.key, o.op]));
    const status = (key: string) => byKey.get(key).responses['200'].content['application/json'].schema.properties.status.enum;
    assert.deepEqual(status('POST /api/v1/tasks/{task_id}/approve'), ['queued']);
    assert.deepEqual(status('POST /api/v1/tasks/{task_id}/cancel'), ['cancelled']);
    assert.deepEqual(status('POST /api/v1/tasks/{task_id}/rollback'), ['rolled_back']);
    const query = (key: string, name: string) => byKey.get(key).parameters.find((p: { name: string }) => p.name === name).schema.enum;
    assert.deepEqual(query('GET /api/v1/analytics/dashboard', 'period'), ['7d', '30d', '90d', '12m']);
    assert.deepEqual(query('GET /api/v1/analytics/trends', 'metric'), ['organic_traffic', 'keyword_positions', 'conversions', 'page_views', 'bounce_rate']);
    const trend = byKey.get('GET /api/v1/analytics/trends').responses['200'].content['application/json'].schema;
    assert.deepEqual(trend.properties.period.enum, ['7d', '30d', '90d', '12m']);
  });

  it('marks admin operations internal, outside the public contract', () => {
    const admin = operations().filter((o) => o.key.includes('/api/v1/admin/'));
    assert.ok(admin.length >= 2);
    for (const { key, op } of admin) assert.deepEqual([op.tags, op['x-internal']], [['internal'], true], key);
    assert.ok(operations().filter((o) => !o.key.includes('/admin/')).every((o) => !o.op.tags.includes('internal')));
  });
});
