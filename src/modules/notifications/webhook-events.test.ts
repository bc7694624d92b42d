import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/wait.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';
import { startWordPressServer, type WordPressServer } from '../demo/wordpress-stand-in.ts';

/**
 * Every event a module emits, end to end at service level: a real audit, approval, execution
 * through the WordPress stand-in, verification and rollback, each reaching a local receiver as a
 * Standard Webhooks delivery whose signature verifies with the reference algorithm.
 */
let ctx: TestContext;
let receiver: WebhookReceiver;
let wp: WordPressServer;
let owner: SignedInUser;
let workspaceId: string, siteId: string, auditId: string;
let hook: { id: string; secret: string; path: string };
const tasks = new Map<string, { id: string }>();

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, token: owner.accessToken, ...(payload === undefined ? {} : { payload: payload as object }) });
const task = async (id: string) => (await api('GET', `/tasks/${id}`)).data;

/** The receiver's deliveries of one event type, each checked against the endpoint's secret. */
async function events(type: string, count = 1) {
  const got = await until(async () => receiver.at(hook.path).filter((r) => JSON.parse(r.body).type === type), (r) => r.length >= count, `${type} delivered`);
  for (const r of got) assert.ok(verifyWebhook(hook.secret, r.headers, r.body), `${type}: the signature verifies`);
  return got.map((r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, any> });
}
const taskEvent = async (type: string, taskId: string) => (await events(type)).find((e) => e.data.task.id === taskId);

before(async () => {
  receiver = await startWebhookReceiver();
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  owner = await signUp(ctx);
  workspaceId = (await api('POST', '/workspaces', { name: 'Events Co.' })).data.id;
  const created = await api('POST', `/workspaces/${workspaceId}/webhooks`, { url: `${receiver.origin}/events` });
  assert.equal(created.statusCode, 201, created.body);
  hook = { id: created.data.id, secret: created.data.secret, path: '/events' };

  wp = await startWordPressServer({
    items: [
      { type: 'page', slug: 'about', title: 'About the Garden Shop team', content: '<p>We are a family garden shop in Kent. We grow our own roses and perennials on four acres. Visitors can walk the beds and ask the growers anything.</p>' },
      {
        type: 'post', slug: 'pruning-roses', title: 'Pruning roses in a small garden: everything you ever wanted to know',
        content: '<p>Prune in late winter. Cut above an outward bud.</p>',
        meta: { sos_meta_description: 'How and when to prune roses in a small garden: the cuts to make, the tools to use and the mistakes that cost you next summer\'s flowers.' },
      },
    ],
  });
  siteId = (await api('POST', '/sites', { name: 'Garden', domain: wp.host, workspace_id: workspaceId })).data.id;
  const connector = await api('PUT', `/sites/${siteId}/connector`, { type: 'wordpress', base_url: wp.origin, username: wp.username, application_password: wp.applicationPassword });
  assert.equal(connector.statusCode, 200, connector.body);
  auditId = (await api('POST', '/audits', { site_id: siteId })).data.id;
  await until(async () => (await api('GET', `/audits/site/${siteId}/latest`)).data, (a) => a.id === auditId && a.agent_summary !== null, 'the audit and its plan');
  for (const t of (await api('GET', `/tasks?site_id=${siteId}&page_size=100`)).data.items) tasks.set(`${t.type} ${(await task(t.id)).target}`, t);
});
after(async () => {
  await ctx.close();
  await wp.close();
  await receiver.close();
});

describe('webhook events, end to end', () => {
  it('audit.completed and proposals.created, when an audit ends and its plan proposes', async () => {
    const [completed] = await events('audit.completed');
    assert.deepEqual([completed!.data.audit_id, completed!.data.site.id], [auditId, siteId]);
    assert.equal(typeof completed!.data.score, 'number');
    const [proposed] = await events('proposals.created');
    assert.equal(proposed!.data.audit_id, auditId);
    assert.equal(proposed!.data.count, tasks.size);
    assert.equal(proposed!.data.link, `${ctx.config.publicUrl}/approvals?site_id=${siteId}`);
  });

  it('task.completed, task.verified and task.rolled_back as a task is carried out, checked live and undone', async () => {
    const t = tasks.get(`fix_missing_meta_description ${wp.origin}/about/`);
    assert.ok(t, `proposed: ${[...tasks.keys()].join(', ')}`);
    assert.equal((await api('POST', `/tasks/${t.id}/approve`)).statusCode, 200);
    const done = await taskEvent('task.completed', t.id);
    assert.equal(done?.data.task.status, 'completed');
    const verified = await taskEvent('task.verified', t.id);
    assert.equal(verified?.data.site.id, siteId);
    assert.equal((await api('POST', `/tasks/${t.id}/rollback`)).statusCode, 200);
    const rolled = await taskEvent('task.rolled_back', t.id);
    assert.equal(rolled?.data.task.status, 'rolled_back');
    assert.equal(rolled?.data.link, `${ctx.config.publicUrl}/tasks/${t.id}`);
  });

  it('task.failed when the site refuses the change', async () => {
    const t = tasks.get(`fix_title_tag ${wp.origin}/pruning-roses/`);
    assert.ok(t, `proposed: ${[...tasks.keys()].join(', ')}`);
    wp.failNext(500, 'POST', `/wp/v2/posts/${wp.item('pruning-roses')!.id}`);
    assert.equal((await api('POST', `/tasks/${t.id}/approve`)).statusCode, 200);
    const failed = await taskEvent('task.failed', t.id);
    assert.equal(failed?.data.task.status, 'failed');
    assert.equal((await task(t.id)).status, 'failed');
    // Every delivery is logged as it went.
    const log = async () => (await api('GET', `/workspaces/${workspaceId}/webhooks/${hook.id}/deliveries?page_size=100`)).data.items as Array<{ status: string; event_type: string }>;
    const logged = await until(log, (items) => items.every((d) => d.status === 'succeeded'), 'every delivery logged as succeeded');
    assert.deepEqual(new Set(logged.map((d) => d.event_type)), new Set(['audit.completed', 'proposals.created', 'task.completed', 'task.verified', 'task.rolled_back', 'task.failed']));
  });
});
