import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';

let ctx: TestContext;
let smtp: TestSmtpServer;
let owner: SignedInUser, viewer: SignedInUser, quiet: SignedInUser, outsider: SignedInUser;
let workspaceId: string;
const MONDAY = new Date('2026-11-30T07:00:00Z');
const TUESDAY = new Date('2026-12-01T07:00:00Z');

const api = (user: SignedInUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, ...(user ? { token: user.accessToken } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
const settingsUrl = (id = workspaceId) => `/workspaces/${id}/notifications`;
const mailsTo = (user: SignedInUser, subject: RegExp) => smtp.received.filter((m) => m.to.includes(user.email) && subject.test(m.subject));
const mailTo = (user: SignedInUser, subject: RegExp) => until(async () => mailsTo(user, subject)[0], (m) => m !== undefined, `a mail to ${user.email}`) as Promise<ReceivedMail>;
const service = () => ctx.app.services.emailNotifications;

async function join(user: SignedInUser, role: string) {
  const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role });
  assert.equal(invited.statusCode, 201, invited.body);
  assert.equal((await api(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
}

before(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ SMTP_URL: smtp.url, ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  [owner, viewer, quiet, outsider] = await Promise.all([signUp(ctx, { name: 'Olga' }), signUp(ctx), signUp(ctx), signUp(ctx)]);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Mail Co.' })).data.id;
  await join(viewer, 'viewer');
  await join(quiet, 'editor');
});
after(async () => {
  await ctx.close();
  await smtp.close();
});

describe('notification settings', () => {
  it('default to a weekly digest and alerts; any member sets their own', async () => {
    assert.deepEqual((await api(viewer, 'GET', settingsUrl())).data, { digest: 'weekly', alerts: true });
    const put = await api(viewer, 'PUT', settingsUrl(), { digest: 'daily' });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.data, { digest: 'daily', alerts: true });
    assert.deepEqual((await api(viewer, 'GET', settingsUrl())).data, { digest: 'daily', alerts: true });
    assert.deepEqual((await api(owner, 'GET', settingsUrl())).data, { digest: 'weekly', alerts: true }, "one member's settings are not another's");
  });

  it('are 404 for a non-member, 401 without a token, 422 for an unknown value', async () => {
    assert.equal((await api(outsider, 'GET', settingsUrl())).statusCode, 404);
    assert.equal((await api(outsider, 'PUT', settingsUrl(), { digest: 'off' })).statusCode, 404);
    assert.equal((await api(null, 'GET', settingsUrl())).statusCode, 401);
    assert.equal((await api(null, 'PUT', settingsUrl(), { digest: 'off' })).statusCode, 401);
    assert.equal((await api(owner, 'PUT', settingsUrl(), { digest: 'hourly' })).statusCode, 422);
  });
});

describe('the digest', () => {
  it('lists what awaits approval, to members who take one today, and none where nothing awaits', async () => {
    assert.equal((await api(quiet, 'PUT', settingsUrl(), { digest: 'off' })).statusCode, 200);
    const emptyWorkspace = (await api(owner, 'POST', '/workspaces', { name: 'Empty Co.' })).data.id;
    const siteId = (await api(owner, 'POST', '/sites', { name: 'Oak Shop', domain: 'oak-shop.example', workspace_id: workspaceId })).data.id;
    const tasks = createTasksRepo(ctx.database.db);
    for (const [i, title] of ['Describe the tables page', 'Title the chairs page'].entries()) {
      await tasks.insertProposal({
        siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title, description: 'd',
        target: `https://oak-shop.example/${i}`, configuration: { url: `https://oak-shop.example/${i}`, field: 'meta_description', before: null, after: 'x' },
        evidence: [{ check_id: 'x' }],
      });
    }
    // Tuesday: only the daily one (the viewer); Monday: the weekly one (the owner) too; never the member who turned it off.
    assert.equal(await service().queueDigests(TUESDAY), 1);
    const daily = await mailTo(viewer, /awaiting approval/);
    assert.equal(daily.subject, '2 proposals awaiting approval in Mail Co.');
    assert.match(daily.text, /Oak Shop \(oak-shop\.example\): 2/);
    assert.match(daily.text, /- Describe the tables page/);
    assert.ok(daily.text.includes(`${ctx.config.publicUrl}/approvals`));
    assert.match(daily.headers['list-unsubscribe'] ?? '', /^<http.*\/api\/v1\/notifications\/unsubscribe\?token=[\w.-]+>$/);
    assert.equal(daily.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');

    assert.equal(await service().queueDigests(MONDAY), 2);
    await mailTo(owner, /awaiting approval/);
    assert.equal(await service().sendDigest({ userId: owner.id, workspaceId: emptyWorkspace, period: '2026-11-30' }), false, 'nothing awaits there');
    assert.equal(await service().sendDigest({ userId: quiet.id, workspaceId, period: '2026-11-30' }), false, 'turned off');
    assert.equal(mailsTo(quiet, /./).length, 0);
    assert.equal(mailsTo(owner, /Empty Co/).length, 0);
  });
});

describe('alerts and unsubscribing', () => {
  it('e-mails members with alerts on about a new critical issue; the one-click link turns them off', async () => {
    const routes: Record<string, { body: string }> = { '/': { body: page({ title: 'Oak tables', body: '<h1>Oak</h1>' }) } };
    const site = await startFixtureSite(routes);
    try {
      const siteId = (await api(owner, 'POST', '/sites', { name: 'Tables', domain: site.host, workspace_id: workspaceId })).data.id;
      const audit = async () => {
        const started = await api(owner, 'POST', '/audits', { site_id: siteId, max_pages: 5 });
        assert.equal(started.statusCode, 202, started.body);
        await until(async () => (await api(owner, 'GET', `/audits/site/${siteId}/latest`)).data, (a) => a?.id === started.data.id && a.status === 'completed', 'the audit');
      };
      await api(quiet, 'PUT', settingsUrl(), { alerts: false });
      await audit();
      routes['/'] = { body: page({ title: 'Oak tables', body: '<h1>Oak</h1>', head: '<meta name="robots" content="noindex">' }) };
      await audit();
      const alert = await mailTo(owner, /new critical issue/);
      assert.equal(alert.subject, 'Tables: 1 new critical issue');
      assert.match(alert.text, /Home page is not indexable/);
      await mailTo(viewer, /new critical issue/);
      assert.equal(mailsTo(quiet, /critical/).length, 0, 'alerts off');

      const link = new URL(alert.headers['list-unsubscribe']!.slice(1, -1));
      assert.equal(link.pathname, '/api/v1/notifications/unsubscribe');
      const url = `${link.pathname}${link.search}`;
      const looked = await ctx.app.inject({ method: 'GET', url });
      assert.equal(looked.statusCode, 200, looked.body);
      assert.equal(looked.json().kind, 'alerts');
      assert.deepEqual((await api(owner, 'GET', settingsUrl())).data.alerts, true, 'a GET changes nothing');
      const posted = await ctx.app.inject({
        method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(posted.statusCode, 200, posted.body);
      assert.deepEqual((await api(owner, 'GET', settingsUrl())).data, { digest: 'weekly', alerts: false });
    } finally {
      await site.close();
    }
  });

  it('refuses a token it did not make', async () => {
    for (const token of ['nope', 'abc.def', `${Buffer.from(`${owner.id}:${workspaceId}:digest`).toString('base64url')}.AAAA`]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await ctx.app.inject({ method, url: `/api/v1/notifications/unsubscribe?token=${token}` });
        assert.equal(res.statusCode, 422, `${method} ${token}: ${res.body}`);
      }
    }
    assert.equal((await ctx.app.inject({ method: 'POST', url: '/api/v1/notifications/unsubscribe' })).statusCode, 422);
    assert.deepEqual((await api(owner, 'GET', settingsUrl())).data.digest, 'weekly');
  });
});

describe('an unreachable site', () => {
  /** Runs an audit of the site and waits for it to end as `status`; its id. */
  async function audit(siteId: string, status: 'completed' | 'failed') {
    const started = await api(owner, 'POST', '/audits', { site_id: siteId, max_pages: 5 });
    assert.equal(started.statusCode, 202, started.body);
    await until(async () => (await api(owner, 'GET', `/audits/site/${siteId}/latest`)).data, (a) => a?.id === started.data.id && a.status !== 'running' && a.status !== 'queued', 'the audit');
    const ended = (await api(owner, 'GET', `/audits/site/${siteId}/latest`)).data;
    assert.equal(ended.status, status, JSON.stringify(ended));
    return ended.id as string;
  }

  it('alerts the members who want alerts, once, with a one-click link that works; the link of a member who left is 404 and changes nothing', async () => {
    const [leaver, stayer] = [await signUp(ctx), await signUp(ctx)];
    await join(leaver, 'viewer');
    await join(stayer, 'editor');
    assert.equal((await api(leaver, 'PUT', settingsUrl(), { digest: 'daily' })).statusCode, 200);
    assert.equal((await api(quiet, 'GET', settingsUrl())).data.alerts, false, 'one member has alerts off');
    const site = await startFixtureSite({ '/': { body: page({ title: 'Oak chairs', body: '<h1>Chairs</h1>' }) } });
    const siteId = (await api(owner, 'POST', '/sites', { name: 'Chairs', domain: site.host, workspace_id: workspaceId })).data.id;
    await audit(siteId, 'completed');
    await site.close();
    const auditId = await audit(siteId, 'failed');

    const alert = await mailTo(stayer, /could not be reached/);
    assert.equal(alert.subject, 'Chairs could not be reached');
    assert.match(alert.text, /The latest audit of Chairs \(.+\) could not reach the site:\n\n {2}The site could not be reached: .*connection refused/);
    assert.ok(alert.text.includes(`${ctx.config.publicUrl}/sites/${siteId}`));
    const left = await mailTo(leaver, /could not be reached/);
    assert.equal(mailsTo(quiet, /could not be reached/).length, 0, 'alerts off');
    // The alert's job again (retried after it sent): nothing more goes.
    assert.equal(await service().sendAlert({ userId: stayer.id, workspaceId, auditId }), false);
    assert.equal(mailsTo(stayer, /could not be reached/).length, 1);

    const link = (mail: ReceivedMail) => { const u = new URL(mail.headers['list-unsubscribe']!.slice(1, -1)); return `${u.pathname}${u.search}`; };
    const oneClick = (url: string) => ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    const posted = await oneClick(link(alert));
    assert.equal(posted.statusCode, 200, posted.body);
    assert.deepEqual((await api(stayer, 'GET', settingsUrl())).data, { digest: 'weekly', alerts: false });

    // The leaver goes; their link then names no subscription, and their settings row stays as it was.
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}/members/${leaver.id}`)).statusCode, 204);
    const settingsRow = () => ctx.database.db.selectFrom('notification_settings').select(['digest', 'alerts'])
      .where('user_id', '=', leaver.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    const before = await settingsRow();
    for (const res of [await ctx.app.inject({ method: 'GET', url: link(left) }), await oneClick(link(left))]) {
      assert.equal(res.statusCode, 404, res.body);
      assert.match(String(res.headers['content-type']), /problem\+json/);
    }
    assert.deepEqual(await settingsRow(), before);
    assert.deepEqual(before, { digest: 'daily', alerts: true });
  });
});
