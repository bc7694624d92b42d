import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { until } from '../../../test/helpers/wait.ts';
import { startWebhookReceiver, verifyWebhook as verify, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';
import { transactor } from '../../db/transact.ts';
import { createSecretBox } from '../../lib/secret-box.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import type { WorkspaceRole } from '../workspaces/roles.ts';
import { createWebhookDeliverer } from './webhook-delivery.ts';
import { createWebhookOutcomes } from './webhook-failures.ts';
import { createWebhooksRepo } from './webhooks.repo.ts';
import { secretContext } from './webhooks.service.ts';

let ctx: TestContext;
let owner: SignedInUser, admin: SignedInUser, editor: SignedInUser, viewer: SignedInUser, outsider: SignedInUser;
let workspaceId: string;

let receiver: WebhookReceiver;
let origin: string;

const api = (user: SignedInUser | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, ...(user ? { token: user.accessToken } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

async function join(user: SignedInUser, role: WorkspaceRole) {
  const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role });
  assert.equal(invited.statusCode, 201, invited.body);
  assert.equal((await api(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
}

/** An endpoint on the receiver at a path of its own (so each test reads only its deliveries). */
async function endpoint(body: Record<string, unknown> = {}, statuses: number[] = []) {
  const path = `/hook/${randomUUID()}`;
  receiver.script(path, statuses);
  const res = await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks`, { url: `${origin}${path}`, ...body });
  assert.equal(res.statusCode, 201, res.body);
  return { ...res.data, path } as { id: string; secret: string; path: string; url: string };
}
const at = (path: string) => receiver.at(path);
const deliveries = async (id: string) => (await api(owner, 'GET', `/workspaces/${workspaceId}/webhooks/${id}/deliveries`)).data.items;

before(async () => {
  receiver = await startWebhookReceiver();
  origin = receiver.origin;
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  [owner, admin, editor, viewer, outsider] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx)]);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Hooks Co.' })).data.id;
  for (const [user, role] of [[admin, 'admin'], [editor, 'editor'], [viewer, 'viewer']] as const) await join(user, role);
});
after(async () => {
  await ctx.close();
  await receiver.close();
});

describe('webhook routes, for each role', () => {
  it('owners and admins manage endpoints; editors and viewers get 403 naming the role; others 404; no token 401', async () => {
    const hook = await endpoint();
    const w = `/workspaces/${workspaceId}/webhooks`;
    const routes: Array<[string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['list', 'GET', w], ['create', 'POST', w, { url: `${origin}/hook/x` }], ['get', 'GET', `${w}/${hook.id}`],
      ['update', 'PATCH', `${w}/${hook.id}`, { description: 'CRM' }], ['test', 'POST', `${w}/${hook.id}/test`],
      ['deliveries', 'GET', `${w}/${hook.id}/deliveries`], ['rotate', 'POST', `${w}/${hook.id}/rotate-secret`],
    ];
    for (const [name, method, url, body] of routes) {
      for (const user of [owner, admin]) {
        const res = await api(user, method, url, body);
        assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${name}: ${res.body}`);
      }
      for (const user of [editor, viewer]) {
        const res = await api(user, method, url, body);
        assert.equal(res.statusCode, 403, `${name}: ${res.body}`);
        assert.match(res.data.detail, /needs the admin role/);
      }
      assert.equal((await api(outsider, method, url, body)).statusCode, 404, name);
      assert.equal((await api(null, method, url, body)).statusCode, 401, name);
    }
    for (const user of [editor, viewer]) assert.equal((await api(user, 'DELETE', `${w}/${hook.id}`)).statusCode, 403);
    assert.equal((await api(outsider, 'DELETE', `${w}/${hook.id}`)).statusCode, 404);
    assert.equal((await api(admin, 'DELETE', `${w}/${hook.id}`)).statusCode, 204);
    assert.equal((await api(owner, 'GET', `${w}/${hook.id}`)).statusCode, 404, 'gone with its log');
  });

  it('refuses bad ids and bodies with 422, and another workspace\'s endpoint reads as 404', async () => {
    const w = `/workspaces/${workspaceId}/webhooks`;
    const hook = await endpoint();
    for (const [method, url, body] of [
      ['GET', `/workspaces/nope/webhooks`], ['GET', `${w}/nope`], ['POST', w, {}], ['POST', w, { url: 'ftp://x.example.com/' }],
      ['POST', w, { url: 'not a url' }], ['POST', w, { url: `${origin}/h`, events: ['task.exploded'] }], ['POST', w, { url: `${origin}/h`, extra: 1 }],
      ['POST', w, { url: `https://user:pw@hooks.example.com/` }], ['PATCH', `${w}/${hook.id}`, {}], ['PATCH', `${w}/${hook.id}`, { enabled: 'yes' }],
      ['GET', `${w}/${hook.id}/deliveries?page_size=0`],
    ] as Array<['GET' | 'POST' | 'PATCH', string, unknown?]>) {
      const res = await api(owner, method, url, body);
      assert.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /problem\+json/);
    }
    const mine = (await api(outsider, 'GET', '/workspaces')).data.items[0].id;
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/workspaces/${mine}/webhooks/${hook.id}`, token: outsider.accessToken })).statusCode, 404);
  });
});

describe('the signing secret', () => {
  it('is whsec_ and 24 random bytes, shown at creation and rotation only, stored sealed', async () => {
    const hook = await endpoint({ events: ['task.completed'], description: 'CRM' });
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(Buffer.from(hook.secret.slice(6), 'base64').length, 24);
    const got = await api(owner, 'GET', `/workspaces/${workspaceId}/webhooks/${hook.id}`);
    assert.equal(got.data.secret, undefined);
    assert.ok(!got.body.includes(hook.secret.slice(6)));
    assert.ok(!(await api(owner, 'GET', `/workspaces/${workspaceId}/webhooks`)).body.includes(hook.secret.slice(6)));
    const row = await ctx.database.db.selectFrom('webhook_endpoints').select('secret_sealed').where('id', '=', hook.id).executeTakeFirstOrThrow();
    assert.ok(!row.secret_sealed.includes(hook.secret.slice(6)), 'sealed at rest');
    const rotated = await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks/${hook.id}/rotate-secret`);
    assert.notEqual(rotated.data.secret, hook.secret);
  });
});

describe('delivering', () => {
  it('sends a test event, signed per Standard Webhooks, and logs the delivery', async () => {
    const hook = await endpoint({ events: ['audit.completed'] });
    const sent = await api(admin, 'POST', `/workspaces/${workspaceId}/webhooks/${hook.id}/test`);
    assert.equal(sent.statusCode, 202, sent.body);
    const [got] = await until(async () => at(hook.path), (r) => r.length === 1, 'the test delivery');
    assert.equal(got!.headers['content-type'], 'application/json');
    assert.match(String(got!.headers['webhook-timestamp']), /^\d{10}$/);
    assert.ok(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.ok(verify(hook.secret, got!.headers, got!.body), 'the signature verifies with the secret shown at creation');
    assert.ok(!verify(`whsec_${Buffer.alloc(24).toString('base64')}`, got!.headers, got!.body), 'and not with another');
    const body = JSON.parse(got!.body);
    assert.equal(body.type, 'webhook.test');
    assert.equal(body.data.webhook_id, hook.id);
    const [log] = await until(() => deliveries(hook.id), (d) => d[0]?.status === 'succeeded', 'the log');
    assert.deepEqual([log.event_type, log.attempts, log.last_status_code, log.last_error, log.event_id], ['webhook.test', 1, 200, null, got!.headers['webhook-id']]);
    const listed = (await api(owner, 'GET', `/workspaces/${workspaceId}/webhooks`)).data.items.find((e: { id: string }) => e.id === hook.id);
    assert.equal(listed.last_delivery.status, 'succeeded');
  });

  it('retries after a 500 with backoff, counting attempts, the same webhook-id each time', async () => {
    const hook = await endpoint({}, [500]);
    await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks/${hook.id}/test`);
    const [log] = await until(() => deliveries(hook.id), (d) => d[0]?.status === 'succeeded', 'the second attempt');
    assert.equal(log.attempts, 2);
    assert.equal(log.last_status_code, 200);
    const got = at(hook.path);
    assert.equal(got.length, 2);
    assert.equal(new Set(got.map((g) => g.headers['webhook-id'])).size, 1);
    assert.ok(got.every((g) => verify(hook.secret, g.headers, g.body)));
  });

  it('disables an endpoint that answers 410 Gone, and does not retry', async () => {
    const hook = await endpoint({}, [410]);
    await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks/${hook.id}/test`);
    const [log] = await until(() => deliveries(hook.id), (d) => d[0]?.status === 'failed', 'the failed delivery');
    assert.deepEqual([log.attempts, log.last_status_code], [1, 410]);
    const got = (await api(owner, 'GET', `/workspaces/${workspaceId}/webhooks/${hook.id}`)).data;
    assert.equal(got.enabled, false);
    assert.match(got.disabled_reason, /410/);
    assert.equal((await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks/${hook.id}/test`)).statusCode, 409);
    const enabled = (await api(owner, 'PATCH', `/workspaces/${workspaceId}/webhooks/${hook.id}`, { enabled: true })).data;
    assert.deepEqual([enabled.enabled, enabled.disabled_reason], [true, null]);
    assert.equal(at(hook.path).length, 1);
  });

  it('sends task.completed when an approved task completes, to the endpoints that take it', async () => {
    const site = await startFixtureSite({ '/tables': () => ({ body: page({ head: '', body: '<h1>Tables</h1>' }) }) });
    try {
      const all = await endpoint();
      const other = await endpoint({ events: ['audit.completed'] });
      const off = await endpoint({ enabled: false });
      const siteId = (await api(owner, 'POST', '/sites', { name: 'Shop', domain: site.host, workspace_id: workspaceId })).data.id;
      const taskId = (await createTasksRepo(ctx.database.db).insertProposal({
        siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'Describe the tables page', description: 'd',
        target: `${site.origin}/tables`, configuration: { url: `${site.origin}/tables`, field: 'meta_description', before: null, after: 'Oak tables made by hand in Devon, oiled and ready in six weeks.' },
        evidence: [{ check_id: 'x' }],
      }))!;
      assert.equal((await api(editor, 'POST', `/tasks/${taskId}/approve`)).statusCode, 200);
      const [got] = await until(async () => at(all.path).filter((r) => JSON.parse(r.body).type === 'task.completed'), (r) => r.length === 1, 'task.completed');
      const body = JSON.parse(got!.body);
      assert.deepEqual(body.data.task, { id: taskId, type: 'fix_missing_meta_description', title: 'Describe the tables page', status: 'completed' });
      assert.equal(body.data.site.id, siteId);
      assert.equal(body.data.link, `${ctx.config.publicUrl}/tasks/${taskId}`);
      assert.match(body.timestamp, /Z$/);
      assert.ok(verify(all.secret, got!.headers, got!.body));
      assert.deepEqual([at(other.path).length, at(off.path).length], [0, 0], 'only enabled endpoints that take the type');
    } finally {
      await site.close();
    }
  });
});

describe('private targets', () => {
  let strict: TestContext;
  before(async () => {
    strict = await startTestApp({}, { database: ctx.database, workJobs: false });
  });
  after(() => strict.close());

  it('refuses at creation an endpoint on a private address, a local name or plain http', async () => {
    for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://10.1.2.3/hook', 'https://localhost/hook', 'https://hooks.internal/x', 'http://hooks.example.com/x']) {
      const res = await call(strict, { method: 'POST', url: `/api/v1/workspaces/${workspaceId}/webhooks`, token: owner.accessToken, payload: { url } });
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.equal(res.data.errors[0].path, '/url');
    }
  });

  it('refuses at delivery a host that resolves to a private address (the connection is guarded, not only the URL)', async () => {
    const hook = await endpoint();
    const { port } = receiver;
    // As if its name had come to resolve to a private address after it was checked.
    await ctx.database.db.updateTable('webhook_endpoints').set({ url: `http://localhost:${port}${hook.path}` }).where('id', '=', hook.id).execute();
    const deliveryId = randomUUID();
    await ctx.database.db.insertInto('webhook_deliveries').values({ id: deliveryId, endpoint_id: hook.id, event_id: randomUUID(), event_type: 'webhook.test', body: '{}' }).execute();
    const repo = createWebhooksRepo(ctx.database.db);
    const secrets = createSecretBox('unused-key-for-this-test-0123456789abcdef');
    await ctx.database.db.updateTable('webhook_endpoints').set({ secret_sealed: secrets.seal('whsec_AAAA', secretContext(hook.id)) }).where('id', '=', hook.id).execute();
    const outcomes = createWebhookOutcomes({ transact: transactor(ctx.database.db), queue: ctx.app.jobs });
    const deliverer = createWebhookDeliverer({ repo, outcomes, secrets, allowPrivateTargets: false, maxAttempts: 6, retryDelaySeconds: 60, log: pino({ level: 'silent' }) });
    try {
      await assert.rejects(deliverer.deliver(deliveryId));
      const [log] = await deliveries(hook.id);
      assert.equal(log.status, 'pending');
      assert.match(log.last_error, /refused: localhost resolves to a private or reserved address/);
      assert.equal(at(hook.path).length, 0, 'nothing reached it');
      // An IP literal never reaches a lookup: the URL check refuses it.
      await ctx.database.db.updateTable('webhook_endpoints').set({ url: `http://127.0.0.1:${port}${hook.path}` }).where('id', '=', hook.id).execute();
      await assert.rejects(deliverer.deliver(deliveryId));
      assert.match((await deliveries(hook.id))[0].last_error, /refused: 127.0.0.1 is a private or reserved address/);
      assert.equal(at(hook.path).length, 0);
    } finally {
      await deliverer.close();
    }
  });
});
