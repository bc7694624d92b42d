import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';

let ctx: TestContext;
let user: SignedInUser;

before(async () => {
  ctx = await startTestApp();
  user = await signUp(ctx);
});
after(() => ctx.close());

// Every endpoint the specification names, as its path template.
const SPEC_ENDPOINTS = [
  'post /api/v1/auth/login', 'get /api/v1/auth/me', 'post /api/v1/auth/refresh',
  'get /api/v1/sites', 'get /api/v1/sites/{site_id}', 'post /api/v1/sites', 'put /api/v1/sites/{site_id}',
  'get /api/v1/sites/{site_id}/progress',
  'get /api/v1/tasks', 'get /api/v1/tasks/{task_id}', 'post /api/v1/tasks/{task_id}/approve',
  'post /api/v1/tasks/{task_id}/cancel', 'get /api/v1/tasks/awaiting-approval', 'post /api/v1/tasks/{task_id}/rollback',
  'get /api/v1/analytics/dashboard', 'get /api/v1/analytics/trends', 'get /api/v1/keywords', 'get /api/v1/keywords/stats',
  'post /api/v1/audits', 'get /api/v1/audits/site/{site_id}/latest',
  'get /api/v1/verification/tasks/{task_id}/verification-status', 'get /api/v1/cms/rollback/history',
  'get /api/v1/integrations/google/search-console/properties',
  'get /live', 'get /ready',
];

describe('OpenAPI', () => {
  it('is served as OpenAPI 3.1 without a token and documents every endpoint of the specification', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.openapi, '3.1.0');
    const documented = new Set(
      Object.entries(res.data.paths as Record<string, object>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    const missing = SPEC_ENDPOINTS.filter((e) => !documented.has(e));
    assert.deepEqual(missing, []);
  });

  it('documents bearer auth, request bodies and problem responses', async () => {
    const { data } = await call(ctx, { method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(data.components.securitySchemes.bearerAuth.scheme, 'bearer');
    const create = data.paths['/api/v1/sites'].post;
    assert.deepEqual(create.security, [{ bearerAuth: [] }]);
    assert.deepEqual(create.requestBody.content['application/json'].schema.required.sort(), ['domain', 'name']);
    assert.ok(create.responses['409'] && create.responses['422'], 'error responses documented');
    assert.ok(data.components.schemas.Problem);
    assert.deepEqual(data.paths['/api/v1/auth/login'].post.security, [], 'login is public');
  });

  it('serves interactive docs at /docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /swagger/i);
  });
});

describe('endpoint input', () => {
  it('is validated exactly: 422 for out-of-range paging, unknown filters and periods', async () => {
    const invalid = [
      '/api/v1/tasks?page=0', '/api/v1/tasks?page_size=101', '/api/v1/tasks?status=pending', '/api/v1/tasks?category=fun',
      '/api/v1/tasks/not-a-uuid', `/api/v1/keywords?site_id=${randomUUID()}&page_size=201`, '/api/v1/keywords',
      `/api/v1/analytics/dashboard?site_id=${randomUUID()}&period=1y`, `/api/v1/analytics/trends?site_id=${randomUUID()}&metric=likes`,
    ];
    for (const url of invalid) {
      const res = await call(ctx, { method: 'GET', url, token: user.accessToken });
      assert.equal(res.statusCode, 422, url);
    }
  });
});
