import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;

before(async () => {
  ctx = await startTestApp();
  [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
});
after(() => ctx.close());

const createSite = (user: SignedInUser, body: object) =>
  call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: body });

describe('POST /api/v1/sites', () => {
  it('creates a site with exactly the fields of the create response', async () => {
    const res = await createSite(alice, { name: 'Shop', domain: 'shop-create.com' });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(Object.keys(res.data).sort(), ['created_at', 'domain', 'id', 'is_active', 'name', 'workspace_id']);
    assert.equal(res.data.domain, 'shop-create.com');
    assert.equal(res.data.is_active, true);
    assert.match(res.data.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(res.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('normalises the domain: case, scheme, path, port, trailing dot, IDN', async () => {
    const cases: Array<[string, string]> = [
      ['HTTPS://WWW.Normal-Case.COM/some/path?q=1#x', 'www.normal-case.com'],
      ['normal-port.com:8443', 'normal-port.com'],
      ['normal-dot.com.', 'normal-dot.com'],
      ['bücher.de', 'xn--bcher-kva.de'],
    ];
    for (const [input, expected] of cases) {
      const res = await createSite(alice, { name: 'N', domain: input });
      assert.equal(res.statusCode, 201, `${input}: ${res.body}`);
      assert.equal(res.data.domain, expected, input);
    }
  });

  it('refuses the same domain twice for one user with 409, however it is written', async () => {
    assert.equal((await createSite(alice, { name: 'A', domain: 'twice.com' })).statusCode, 201);
    const again = await createSite(alice, { name: 'B', domain: 'https://TWICE.com/' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.data.code, 'conflict');
    assert.match(again.data.detail, /twice\.com/);
  });

  it('lets two users add the same domain', async () => {
    assert.equal((await createSite(alice, { name: 'A', domain: 'shared-domain.com' })).statusCode, 201);
    assert.equal((await createSite(bob, { name: 'B', domain: 'shared-domain.com' })).statusCode, 201);
  });

  it('rejects domains that are not public host names with 422', async () => {
    const bad = [
      'localhost', 'intranet', '127.0.0.1', '[::1]', '10.1.2.3', 'printer.local', 'db.internal', 'app.localhost',
      'ftp://files.com', 'user:pass@site.com', 'has space.com', '-bad-.com', 'a..b.com', 'x.123', '',
    ];
    for (const domain of bad) {
      const res = await createSite(alice, { name: 'X', domain });
      assert.equal(res.statusCode, 422, `${JSON.stringify(domain)} should be refused: ${res.body}`);
      assert.equal(res.data.errors[0].path, '/body/domain');
    }
  });

  it('rejects missing fields, wrong types, blank names and unknown properties with 422', async () => {
    const cases: Array<[object, string]> = [
      [{ name: 'No domain' }, '/body/domain'],
      [{ domain: 'no-name.com' }, '/body/name'],
      [{ name: 5, domain: 'typed.com' }, '/body/name'],
      [{ name: '   ', domain: 'blank.com' }, '/body/name'],
      [{ name: 'X', domain: 'extra.com', owner_id: randomUUID() }, '/body/owner_id'],
    ];
    for (const [payload, path] of cases) {
      const res = await createSite(alice, payload);
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.ok(res.data.errors.some((e: { path: string }) => e.path === path), `${JSON.stringify(payload)} -> ${res.body}`);
    }
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'POST', url: '/api/v1/sites', payload: { name: 'X', domain: 'x-auth.com' } }, alice);
  });
});

describe('GET /api/v1/sites', () => {
  it("lists only the caller's sites, newest first, without health_score and updated_at", async () => {
    const carol = await signUp(ctx);
    const first = await createSite(carol, { name: 'First', domain: 'carol-first.com' });
    const second = await createSite(carol, { name: 'Second', domain: 'carol-second.com' });
    await createSite(bob, { name: 'Not Carol', domain: 'bob-only.com' });

    const res = await call(ctx, { method: 'GET', url: '/api/v1/sites', token: carol.accessToken });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.data).sort(), ['items', 'total']);
    assert.equal(res.data.total, 2);
    assert.deepEqual(res.data.items.map((s: { id: string }) => s.id), [second.data.id, first.data.id]);
    assert.deepEqual(Object.keys(res.data.items[0]).sort(), ['created_at', 'domain', 'id', 'is_active', 'name', 'platform', 'workspace_id']);
    assert.equal(res.data.items[0].platform, 'unknown');
  });

  it('filters by is_active', async () => {
    const dave = await signUp(ctx);
    const active = await createSite(dave, { name: 'On', domain: 'dave-on.com' });
    const inactive = await createSite(dave, { name: 'Off', domain: 'dave-off.com' });
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${inactive.data.id}`, token: dave.accessToken, payload: { is_active: false } });

    const onlyActive = await call(ctx, { method: 'GET', url: '/api/v1/sites?is_active=true', token: dave.accessToken });
    assert.deepEqual(onlyActive.data.items.map((s: { id: string }) => s.id), [active.data.id]);
    const onlyInactive = await call(ctx, { method: 'GET', url: '/api/v1/sites?is_active=false', token: dave.accessToken });
    assert.deepEqual(onlyInactive.data.items.map((s: { id: string }) => s.id), [inactive.data.id]);
    assert.equal(onlyInactive.data.total, 1);
    const all = await call(ctx, { method: 'GET', url: '/api/v1/sites', token: dave.accessToken });
    assert.equal(all.data.total, 2);
  });

  it('rejects a non-boolean is_active and unknown query parameters with 422', async () => {
    for (const query of ['is_active=maybe', 'colour=red']) {
      const res = await call(ctx, { method: 'GET', url: `/api/v1/sites?${query}`, token: alice.accessToken });
      assert.equal(res.statusCode, 422, query);
    }
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/sites' }, alice);
  });
});

describe('GET /api/v1/sites/{site_id}', () => {
  it('returns the whole site, health_score and updated_at included', async () => {
    const created = await createSite(alice, { name: 'Full', domain: 'full-site.com' });
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${created.data.id}`, token: alice.accessToken });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.data).sort(), [
      'audit_schedule', 'created_at', 'domain', 'ga4_property', 'gsc_property', 'health_score', 'id', 'is_active', 'name', 'platform', 'rendering', 'role',
      'updated_at', 'workspace_id',
    ]);
    assert.equal(res.data.role, 'owner', 'the caller owns their personal workspace');
    assert.equal(res.data.health_score, null);
    assert.deepEqual([res.data.gsc_property, res.data.ga4_property], [null, null], 'no search property linked yet');
    assert.equal(res.data.audit_schedule, 'weekly', 're-audits are weekly by default');
    assert.equal(res.data.rendering, 'auto', 'JavaScript is rendered where the HTML needs it, by default');
    assert.equal(res.data.platform, 'unknown');
  });

  it("answers 404 for another user's site and for a site that does not exist", async () => {
    const bobs = await createSite(bob, { name: 'Bob', domain: 'bob-private.com' });
    for (const id of [bobs.data.id, randomUUID()]) {
      const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${id}`, token: alice.accessToken });
      assert.equal(res.statusCode, 404);
      assert.equal(res.data.code, 'not_found');
    }
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/sites/not-a-uuid', token: alice.accessToken });
    assert.equal(res.statusCode, 422);
    assert.equal(res.data.errors[0].path, '/path/site_id');
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/sites/${randomUUID()}` }, alice);
  });
});

describe('PUT /api/v1/sites/{site_id}', () => {
  it('changes name, platform and is_active and returns the whole site', async () => {
    const created = await createSite(alice, { name: 'Before', domain: 'put-fields.com' });
    const res = await call(ctx, {
      method: 'PUT',
      url: `/api/v1/sites/${created.data.id}`,
      token: alice.accessToken,
      payload: { name: 'After', platform: 'wordpress', is_active: false, audit_schedule: 'daily', rendering: 'always' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.audit_schedule, 'daily');
    assert.equal(res.data.rendering, 'always');
    assert.equal(res.data.name, 'After');
    assert.equal(res.data.platform, 'wordpress');
    assert.equal(res.data.is_active, false);
    assert.equal(res.data.domain, 'put-fields.com');
    assert.ok(new Date(res.data.updated_at) >= new Date(res.data.created_at));
    const reread = await call(ctx, { method: 'GET', url: `/api/v1/sites/${created.data.id}`, token: alice.accessToken });
    assert.deepEqual(reread.data, res.data);
  });

  it('normalises a new domain and resets what described the old one', async () => {
    const created = await createSite(alice, { name: 'Moving', domain: 'old-home.com' });
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${created.data.id}`, token: alice.accessToken, payload: { platform: 'shopify' } });
    const res = await call(ctx, {
      method: 'PUT',
      url: `/api/v1/sites/${created.data.id}`,
      token: alice.accessToken,
      payload: { domain: 'HTTPS://New-Home.com/' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.domain, 'new-home.com');
    assert.equal(res.data.platform, 'unknown');
    assert.equal(res.data.health_score, null);
  });

  it('answers 409 when the new domain is already one of your sites', async () => {
    await createSite(alice, { name: 'Taken', domain: 'taken-domain.com' });
    const other = await createSite(alice, { name: 'Other', domain: 'other-domain.com' });
    const res = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${other.data.id}`, token: alice.accessToken, payload: { domain: 'taken-domain.com' } });
    assert.equal(res.statusCode, 409);
    const unchanged = await call(ctx, { method: 'GET', url: `/api/v1/sites/${other.data.id}`, token: alice.accessToken });
    assert.equal(unchanged.data.domain, 'other-domain.com');
  });

  it('answers 422 for an empty body, an unknown platform, a bad domain or unknown properties', async () => {
    const created = await createSite(alice, { name: 'Strict', domain: 'strict-put.com' });
    for (const payload of [{}, { platform: 'geocities' }, { domain: 'localhost' }, { name: 'x', colour: 'red' }, { is_active: 'no' }, { audit_schedule: 'hourly' }, { rendering: 'sometimes' }]) {
      const res = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${created.data.id}`, token: alice.accessToken, payload });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
    }
  });

  it("answers 404 for another user's site and leaves it unchanged", async () => {
    const bobs = await createSite(bob, { name: 'Bob site', domain: 'bob-put.com' });
    const res = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${bobs.data.id}`, token: alice.accessToken, payload: { name: 'Hijacked' } });
    assert.equal(res.statusCode, 404);
    const mine = await call(ctx, { method: 'GET', url: `/api/v1/sites/${bobs.data.id}`, token: bob.accessToken });
    assert.equal(mine.data.name, 'Bob site');
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'PUT', url: `/api/v1/sites/${randomUUID()}`, payload: { name: 'X' } }, alice);
  });
});

describe('GET /api/v1/sites/{site_id}/progress', () => {
  it('reports the journey with honest zeros and nulls before any audit, task or sync', async () => {
    const created = await createSite(alice, { name: 'Progress', domain: 'progress-site.com' });
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${created.data.id}/progress`, token: alice.accessToken });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.site_id, created.data.id);
    assert.equal(res.data.health_score, null);
    assert.equal(res.data.initial_health_score, null);
    assert.equal(res.data.audit, null);
    assert.equal(res.data.last_analytics_sync_at, null);
    assert.deepEqual(res.data.tasks, {
      awaiting_approval: 0, queued: 0, in_progress: 0, completed: 0, failed: 0, cancelled: 0, rolled_back: 0, total: 0,
    });
  });

  it("answers 404 for another user's site", async () => {
    const bobs = await createSite(bob, { name: 'Bob', domain: 'bob-progress.com' });
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${bobs.data.id}/progress`, token: alice.accessToken });
    assert.equal(res.statusCode, 404);
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/sites/${randomUUID()}/progress` }, alice);
  });
});

describe('private targets', () => {
  it('accepts local hosts and host:port only when ALLOW_PRIVATE_TARGETS is on', async (t) => {
    const local = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
    t.after(() => local.close());
    const erin = await signUp(local);
    for (const [input, expected] of [['127.0.0.1:8081', '127.0.0.1:8081'], ['http://localhost:3000/', 'localhost:3000'], ['[::1]:9000', '[::1]:9000']]) {
      const res = await call(local, { method: 'POST', url: '/api/v1/sites', token: erin.accessToken, payload: { name: 'Local', domain: input } });
      assert.equal(res.statusCode, 201, `${input}: ${res.body}`);
      assert.equal(res.data.domain, expected);
    }
  });
});

describe('concurrent reads (batched into one query)', () => {
  it("keep each caller to their own sites within one batch", async () => {
    const bobs = await createSite(bob, { name: 'Bob batch', domain: 'bob-batch.com' });
    const alices = await createSite(alice, { name: 'Alice batch', domain: 'alice-batch.com' });
    const get = (user: SignedInUser, id: string) => call(ctx, { method: 'GET', url: `/api/v1/sites/${id}`, token: user.accessToken });
    const results = await Promise.all([
      get(alice, bobs.data.id), get(bob, bobs.data.id), get(alice, alices.data.id), get(bob, alices.data.id), get(bob, bobs.data.id),
    ]);
    assert.deepEqual(results.map((r) => r.statusCode), [404, 200, 200, 404, 200]);
    assert.equal(results[1]!.data.name, 'Bob batch');
    assert.equal(results[2]!.data.name, 'Alice batch');
  });

  it('give each caller their own list and filter', async () => {
    const [frank, grace] = await Promise.all([signUp(ctx), signUp(ctx)]);
    await createSite(frank, { name: 'F1', domain: 'frank-1.com' });
    const off = await createSite(frank, { name: 'F2', domain: 'frank-2.com' });
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${off.data.id}`, token: frank.accessToken, payload: { is_active: false } });
    await createSite(grace, { name: 'G1', domain: 'grace-1.com' });
    const list = (user: SignedInUser, query = '') => call(ctx, { method: 'GET', url: `/api/v1/sites${query}`, token: user.accessToken });
    const [all, active, inactive, graces] = await Promise.all([
      list(frank), list(frank, '?is_active=true'), list(frank, '?is_active=false'), list(grace),
    ]);
    assert.deepEqual(all.data.items.map((s: { name: string }) => s.name), ['F2', 'F1']);
    assert.deepEqual(active.data.items.map((s: { name: string }) => s.name), ['F1']);
    assert.deepEqual(inactive.data.items.map((s: { name: string }) => s.name), ['F2']);
    assert.deepEqual(graces.data.items.map((s: { name: string }) => s.name), ['G1']);
  });
});
