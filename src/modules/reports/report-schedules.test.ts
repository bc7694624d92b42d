import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { which } from '../../../test/helpers/programs.ts';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';
import { latestSettledPeriod, nextPeriod, periodKey, previousPeriod, sendDayOf } from './schedule-periods.ts';

const chromiumPath = which('chromium');
const pdftotext = which('pdftotext');

describe('scheduled report periods', () => {
  const at = (instant: string) => new Date(instant);
  it('a month is sent once its last day has settled: on the 3rd, on Pacific days', () => {
    assert.deepEqual(latestSettledPeriod('monthly', at('2026-12-03T09:00:00Z')), { start: '2026-11-01', end: '2026-11-30' });
    // 05:00 UTC on the 3rd is still the 2nd in California: November's last days have not settled.
    assert.deepEqual(latestSettledPeriod('monthly', at('2026-12-03T05:00:00Z')), { start: '2026-10-01', end: '2026-10-31' });
    assert.deepEqual(latestSettledPeriod('monthly', at('2027-03-20T12:00:00Z')), { start: '2027-02-01', end: '2027-02-28' });
    assert.deepEqual(latestSettledPeriod('monthly', at('2027-01-10T12:00:00Z')), { start: '2026-12-01', end: '2026-12-31' });
  });

  it('a week is Monday to Sunday, sent on Wednesday', () => {
    // Wednesday 9 Dec 2026 (Pacific): the week of 30 Nov to 6 Dec has settled.
    assert.deepEqual(latestSettledPeriod('weekly', at('2026-12-09T20:00:00Z')), { start: '2026-11-30', end: '2026-12-06' });
    // Tuesday: not yet; the week before.
    assert.deepEqual(latestSettledPeriod('weekly', at('2026-12-08T20:00:00Z')), { start: '2026-11-23', end: '2026-11-29' });
  });

  it('the next period follows the last and goes out when it has settled', () => {
    assert.deepEqual(nextPeriod('monthly', { start: '2026-12-01', end: '2026-12-31' }), { start: '2027-01-01', end: '2027-01-31' });
    assert.deepEqual(nextPeriod('monthly', { start: '2027-01-01', end: '2027-01-31' }), { start: '2027-02-01', end: '2027-02-28' });
    assert.deepEqual(nextPeriod('weekly', { start: '2026-11-30', end: '2026-12-06' }), { start: '2026-12-07', end: '2026-12-13' });
    assert.deepEqual(previousPeriod('monthly', { start: '2027-03-01', end: '2027-03-31' }), { start: '2027-02-01', end: '2027-02-28' });
    assert.deepEqual(previousPeriod('monthly', { start: '2027-01-01', end: '2027-01-31' }), { start: '2026-12-01', end: '2026-12-31' });
    assert.deepEqual(previousPeriod('weekly', { start: '2026-12-07', end: '2026-12-13' }), { start: '2026-11-30', end: '2026-12-06' });
    assert.equal(sendDayOf({ start: '2026-11-01', end: '2026-11-30' }), '2026-12-03');
    assert.equal(periodKey({ start: '2026-11-01', end: '2026-11-30' }), '2026-11-01..2026-11-30');
  });
});

let ctx: TestContext;
let smtp: TestSmtpServer;
let owner: SignedInUser, admin: SignedInUser, editor: SignedInUser, viewer: SignedInUser, outsider: SignedInUser;
let workspaceId: string, siteId: string, otherSiteId: string;
let mailbox = 0;
const client = () => `client-${process.pid}-${++mailbox}@example.net`;
const api = (user: SignedInUser | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH', path: string, payload?: object) =>
  call(ctx, { method, url: `/api/v1${path}`, ...(user ? { token: user.accessToken } : {}), ...(payload ? { payload } : {}) });
const schedule = (site = siteId) => `/sites/${site}/report/schedule`;
const mailTo = (address: string, timeoutMs = 30_000) =>
  until(async () => smtp.received.find((m) => m.to.includes(address)), (m) => m !== undefined, `a report to ${address}`, timeoutMs) as Promise<ReceivedMail>;
const service = () => ctx.app.services.reportSchedules;

before(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ SMTP_URL: smtp.url, ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}) },
    { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  [owner, admin, editor, viewer, outsider] = await Promise.all([signUp(ctx, { name: 'Olga' }), signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx)]);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Northwind Digital' })).data.id;
  for (const [user, role] of [[admin, 'admin'], [editor, 'editor'], [viewer, 'viewer']] as const) {
    const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role });
    assert.equal((await api(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
  }
  siteId = (await api(owner, 'POST', '/sites', { name: 'Garden Centre', domain: 'garden-schedule.example.org', workspace_id: workspaceId })).data.id;
  otherSiteId = (await api(owner, 'POST', '/sites', { name: 'Shed Shop', domain: 'shed-schedule.example.org', workspace_id: workspaceId })).data.id;
  // 17 clicks every day for the last 120 days: a month's report counts 17 x its days.
  const yesterday = pacificToday() - DAY_MS;
  await createSearchDataRepo(ctx.database.db).upsertSearchDays(siteId, Array.from({ length: 120 }, (_, back) => (
    { date: isoDate(yesterday - back * DAY_MS), clicks: 17, impressions: 400, ctr: 17 / 400, position: 4.2 })));
});
after(async () => {
  await ctx.close();
  await smtp.close();
});

describe('report schedule API', () => {
  it('is 401 without a token, 404 before one is set and for a non-member', async () => {
    assert.equal((await api(null, 'GET', schedule())).statusCode, 401);
    assert.equal((await api(null, 'PUT', schedule(), { frequency: 'monthly', recipients: [client()] })).statusCode, 401);
    const none = await api(owner, 'GET', schedule());
    assert.equal(none.statusCode, 404);
    assert.match(none.data.detail, /Report schedule not found/);
    assert.equal((await api(outsider, 'PUT', schedule(), { frequency: 'monthly', recipients: [client()] })).statusCode, 404);
    assert.equal((await api(owner, 'DELETE', schedule(otherSiteId))).statusCode, 404);
    assert.equal((await api(owner, 'POST', `${schedule(otherSiteId)}/send`)).statusCode, 404);
  });

  it('is set by admins only: 403 for an editor or a viewer, whose role is named', async () => {
    const res = await api(viewer, 'PUT', schedule(), { frequency: 'monthly', recipients: [client()] });
    assert.equal(res.statusCode, 403);
    assert.match(res.data.detail, /admin role/);
    assert.equal((await api(editor, 'PUT', schedule(), { frequency: 'monthly', recipients: [client()] })).statusCode, 403);
    assert.equal((await api(viewer, 'POST', `${schedule()}/send`)).statusCode, 403);
    assert.equal((await api(viewer, 'DELETE', schedule())).statusCode, 403);
  });

  it('answers 422 for a bad address, too many or none, an unknown frequency, a repeated address', async () => {
    const put = (body: object) => api(owner, 'PUT', schedule(), body);
    assert.equal((await put({ frequency: 'monthly', recipients: ['not-an-address'] })).statusCode, 422);
    assert.equal((await put({ frequency: 'monthly', recipients: [] })).statusCode, 422);
    assert.equal((await put({ frequency: 'monthly', recipients: Array.from({ length: 11 }, client) })).statusCode, 422);
    assert.equal((await put({ frequency: 'daily', recipients: [client()] })).statusCode, 422);
    const twice = client();
    assert.equal((await put({ frequency: 'weekly', recipients: [twice, twice] })).statusCode, 422);
    assert.equal((await api(owner, 'GET', schedule())).statusCode, 404, 'nothing was saved');
  });

  it('saves a schedule whose first report is the next period to settle, readable by any member', async () => {
    const to = [client(), client()];
    const res = await api(owner, 'PUT', schedule(), { frequency: 'monthly', recipients: to.map((a) => a.toUpperCase()) });
    assert.equal(res.statusCode, 200, res.body);
    const latest = latestSettledPeriod('monthly');
    const next = nextPeriod('monthly', latest);
    assert.deepEqual(res.data.recipients, to, 'addresses kept in lower case');
    assert.equal(res.data.compare, 'previous');
    assert.deepEqual(res.data.sender, { id: owner.id, email: owner.email });
    assert.deepEqual(res.data.last_period, latest);
    assert.deepEqual(res.data.next_period, next);
    assert.equal(res.data.next_send_on, sendDayOf(next));
    assert.equal(res.data.last_error, null);
    const seen = await api(viewer, 'GET', schedule());
    assert.equal(seen.statusCode, 200);
    assert.deepEqual(seen.data.next_period, next);
    // A non-member sees nothing of it, and can neither send nor stop it.
    for (const method of ['GET', 'DELETE'] as const) assert.equal((await api(outsider, method, schedule())).statusCode, 404);
    assert.equal((await api(outsider, 'POST', `${schedule()}/send`)).statusCode, 404);
    assert.equal((await api(owner, 'GET', schedule())).statusCode, 200, 'still there');
    // Nothing is due yet: a new schedule does not send the month already past.
    assert.equal(await service().queueDue(), 0);
  });

  it('sends on request the last settled period\'s report to each address, with the report attached', async () => {
    const to = [client(), client()];
    assert.equal((await api(owner, 'PUT', schedule(), { frequency: 'monthly', recipients: to })).statusCode, 200);
    const res = await api(owner, 'POST', `${schedule()}/send`);
    assert.equal(res.statusCode, 202, res.body);
    const period = latestSettledPeriod('monthly');
    assert.deepEqual(res.data.period, period);
    const days = (Date.parse(period.end) - Date.parse(period.start)) / DAY_MS + 1;
    const clicks = (17 * days).toLocaleString('en-US');
    for (const address of to) {
      const mail = await mailTo(address);
      assert.equal(mail.to.length, 1, 'one message per address: no recipient sees the others');
      assert.match(mail.subject, /^Garden Centre: search report, /);
      assert.match(mail.text, new RegExp(`Clicks: ${clicks}`));
      assert.match(mail.text, new RegExp(`${owner.email.replace(/[.+]/g, '\\$&')} scheduled this monthly report`));
      assert.equal(mail.headers['reply-to'], owner.email);
      assert.equal(mail.attachments.length, 1);
      const [file] = mail.attachments;
      if (chromiumPath) {
        assert.equal(file!.contentType, 'application/pdf');
        assert.match(file!.filename, /^garden-schedule\.example\.org-report-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.pdf$/);
        assert.ok(pdftotext, 'pdftotext is not installed: apt-get install poppler-utils (the README\'s test prerequisites)');
        const text = spawnSync(pdftotext, ['-layout', '-', '-'], { input: file!.content, encoding: 'utf8' }).stdout;
        assert.ok(text.includes(clicks), `the PDF holds the period's ${clicks} clicks:\n${text.slice(0, 800)}`);
      } else {
        assert.ok(!process.env.CI, 'chromium is not installed: .ci/run installs it');
        assert.equal(file!.contentType.split(';')[0], 'text/html');
        assert.ok(file!.content.toString('utf8').includes(clicks));
      }
    }
  });

  it('queues each settled period once, however often the hourly run runs', async () => {
    const to = client();
    assert.equal((await api(owner, 'PUT', schedule(), { frequency: 'monthly', recipients: [to] })).statusCode, 200);
    // As if the schedule had last sent the month before the latest: that one is due.
    const latest = latestSettledPeriod('monthly');
    const before = { start: isoDate(Date.parse(`${latest.start}T00:00:00Z`) - 31 * DAY_MS).slice(0, 8) + '01', end: isoDate(Date.parse(`${latest.start}T00:00:00Z`) - DAY_MS) };
    await ctx.database.db.updateTable('report_schedules').set({ last_sent_period: periodKey(before) }).where('site_id', '=', siteId).execute();
    const [first, second] = await Promise.all([service().queueDue(), service().queueDue()]);
    assert.equal(first + second, 1, 'two runs at once queue it once');
    assert.equal(await service().queueDue(), 0);
    const mail = await mailTo(to);
    assert.match(mail.subject, /search report/);
    assert.deepEqual((await api(owner, 'GET', schedule())).data.last_period, latest);
    // A retried delivery of the same period sends nothing more.
    assert.equal(await service().deliver({ siteId, ...latest }), 0);
    assert.equal(smtp.received.filter((m) => m.to.includes(to)).length, 1);
  });

  it('sends nothing once the member who set it is no longer an admin, and says why', async () => {
    const to = client();
    assert.equal((await api(admin, 'PUT', schedule(otherSiteId), { frequency: 'weekly', recipients: [to] })).statusCode, 200);
    const demoted = await api(owner, 'PATCH', `/workspaces/${workspaceId}/members/${admin.id}`, { role: 'viewer' });
    assert.equal(demoted.statusCode, 200, demoted.body);
    assert.equal(await service().deliver({ siteId: otherSiteId, ...latestSettledPeriod('weekly') }), 0);
    assert.equal(smtp.received.filter((m) => m.to.includes(to)).length, 0);
    const shown = await api(owner, 'GET', schedule(otherSiteId));
    assert.match(shown.data.last_error, new RegExp(`${admin.email.replace(/[.+]/g, '\\$&')}, who set this schedule, can no longer manage the site`));
  });

  it('queues a period again after its delivery failed every attempt, and clears the error once it is sent', async () => {
    const to = client();
    assert.equal((await api(owner, 'PUT', schedule(), { frequency: 'monthly', recipients: [to] })).statusCode, 200);
    const latest = latestSettledPeriod('monthly');
    // What the dead-letter handler gets after the last attempt of the latest period's delivery.
    await service().abandonDelivery({ siteId, ...latest });
    const late = (await api(owner, 'GET', schedule())).data;
    assert.match(late.last_error, /failed on every attempt/);
    assert.deepEqual(late.next_period, latest, 'due again');
    assert.equal(await service().queueDue(), 1);
    await mailTo(to);
    await until(async () => (await api(owner, 'GET', schedule())).data, (d) => d.last_error === null, 'the error cleared');
    // One sent on request is not queued again by the schedule.
    await service().abandonDelivery({ siteId, ...latest, sendId: '00000000-0000-4000-8000-000000000000' });
    assert.equal((await api(owner, 'GET', schedule())).data.last_error, null);
  });

  it('limits sends on request to 5 an hour a site (429 with Retry-After)', async () => {
    const quiet = (await api(owner, 'POST', '/sites', { name: 'Quiet', domain: 'quiet-schedule.example.org', workspace_id: workspaceId })).data.id;
    assert.equal((await api(owner, 'PUT', schedule(quiet), { frequency: 'weekly', recipients: [client()] })).statusCode, 200);
    // Requests refused at the door do not count: an outsider who knows the site's id cannot use up its admins' sends.
    for (let i = 0; i < 6; i++) assert.equal((await api(outsider, 'POST', `${schedule(quiet)}/send`)).statusCode, 404);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api(owner, 'POST', `${schedule(quiet)}/send`)).statusCode);
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    const limited = await api(owner, 'POST', `${schedule(quiet)}/send`);
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });

  it('stops when deleted: 204, then 404, and a queued delivery sends nothing', async () => {
    assert.equal((await api(owner, 'DELETE', schedule())).statusCode, 204);
    assert.equal((await api(owner, 'GET', schedule())).statusCode, 404);
    assert.equal((await api(owner, 'DELETE', schedule())).statusCode, 404);
    const before = smtp.received.length;
    assert.equal(await service().deliver({ siteId, ...latestSettledPeriod('monthly') }), 0);
    assert.equal(smtp.received.length, before, 'nothing sent');
  });
});
