import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';
import type { JobName, JobPayload } from '../../jobs/registry.ts';
import type { WorkspaceRole } from '../workspaces/roles.ts';
import { transactor } from '../../db/transact.ts';
import { createWebhookOutcomes, FAILURES_BEFORE_DISABLE } from './webhook-failures.ts';

let ctx: TestContext;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let owner: SignedInUser, admin: SignedInUser, goneAdmin: SignedInUser, editor: SignedInUser, viewer: SignedInUser;
let workspaceId: string;
const DISABLED = /A webhook of Failing Co\. was disabled/;

const api = (user: SignedInUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, token: user.accessToken, ...(payload === undefined ? {} : { payload: payload as object }) });
const hookUrl = (id: string) => `/workspaces/${workspaceId}/webhooks/${id}`;
const mailsTo = (user: SignedInUser) => smtp.received.filter((m) => m.to.includes(user.email) && DISABLED.test(m.subject));
const db = () => ctx.database.db;
/** Waits until pg-boss has finished every job of the queue. */
const settled = (name: string) => until(() => ctx.app.jobs.findJobs(name), (jobs) => jobs.every((j) => j.state === 'completed'), `${name} jobs to finish`);

async function join(user: SignedInUser, role: WorkspaceRole) {
  const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role });
  assert.equal((await api(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
}

/** An endpoint whose receiver answers `status` to everything, with `failures` failed deliveries in a row behind it. */
async function endpoint(status: number, failures = 0) {
  const path = `/hook/${randomUUID()}`;
  receiver.script(path, Array.from({ length: 50 }, () => status));
  const res = await api(owner, 'POST', `/workspaces/${workspaceId}/webhooks`, { url: `${receiver.origin}${path}`, description: 'CRM' });
  assert.equal(res.statusCode, 201, res.body);
  await db().updateTable('webhook_endpoints').set({ consecutive_failures: failures }).where('id', '=', res.data.id).execute();
  return { id: res.data.id as string, path, url: res.data.url as string };
}

/** A delivery already tried `attempts` times (the job's last attempt is the 6th). */
async function delivery(endpointId: string, attempts: number, status: 'pending' | 'succeeded' = 'pending') {
  const id = randomUUID();
  await db().insertInto('webhook_deliveries').values({
    id, endpoint_id: endpointId, event_id: randomUUID(), event_type: 'webhook.test', body: '{"type":"webhook.test"}', attempts, status, last_status_code: 503,
  }).execute();
  return id;
}
const deliveryRow = (id: string) => db().selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const hook = async (id: string) => (await api(owner, 'GET', hookUrl(id))).data;

/** Sends a job and waits for its queue to settle. */
async function run<N extends JobName>(name: N, data: JobPayload<N>) {
  await ctx.app.jobs.send(name, data);
  await settled(name);
}
/** What pg-boss does after a delivery job's last failed attempt, and waits for the dead-letter handler. */
async function deadLetter(deliveryId: string) {
  await ctx.app.jobs.sendDead('webhook.deliver', { deliveryId });
  await settled('webhook.deliver.dead');
}

before(async () => {
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  ctx = await startTestApp({ SMTP_URL: smtp.url, ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  [owner, admin, goneAdmin, editor, viewer] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx)]);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Failing Co.' })).data.id;
  for (const [user, role] of [[admin, 'admin'], [goneAdmin, 'admin'], [editor, 'editor'], [viewer, 'viewer']] as const) await join(user, role);
  await db().updateTable('users').set({ disabled_at: sql`now()` }).where('id', '=', goneAdmin.id).execute();
});
after(async () => {
  await ctx.close();
  await smtp.close();
  await receiver.close();
});

describe('a delivery whose last attempt fails', () => {
  it('is logged failed with its attempts and last answer, counts against the endpoint, and a success clears the count', async () => {
    const failing = await endpoint(500, 3);
    const id = await delivery(failing.id, 5);
    await run('webhook.deliver', { deliveryId: id });
    const row = await deliveryRow(id);
    assert.deepEqual([row.status, row.attempts, row.last_status_code, row.last_error, row.next_attempt_at], ['failed', 6, 500, 'the endpoint answered 500', null]);
    const after = await hook(failing.id);
    assert.deepEqual([after.enabled, after.consecutive_failures, after.disabled_reason], [true, 4, null]);

    receiver.script(failing.path, []);
    await run('webhook.deliver', { deliveryId: await delivery(failing.id, 0) });
    assert.equal((await hook(failing.id)).consecutive_failures, 0, 'a 2xx ends the run of failures');
  });

  it(`disables the endpoint at the ${FAILURES_BEFORE_DISABLE}th in a row and e-mails its workspace's active owners and admins, once; enabling it again starts from 0`, async () => {
    const failing = await endpoint(503, FAILURES_BEFORE_DISABLE - 1);
    const id = await delivery(failing.id, 5);
    await run('webhook.deliver', { deliveryId: id });
    const disabled = await hook(failing.id);
    assert.deepEqual([disabled.enabled, disabled.consecutive_failures], [false, FAILURES_BEFORE_DISABLE]);
    assert.equal(disabled.disabled_reason, `${FAILURES_BEFORE_DISABLE} deliveries in a row failed every attempt (the last: the endpoint answered 503)`);

    const [mail] = await until(async () => mailsTo(owner), (m) => m.length === 1, 'the owner\'s mail') as [ReceivedMail];
    const origin = new URL(failing.url).origin;
    assert.match(mail.text, new RegExp(`The webhook endpoint at ${origin.replace(/[.?*+]/g, '\\$&')} \\(CRM\\) of Failing Co\\. no longer receives events`));
    assert.ok(new URL(failing.url).pathname.length > 1 && !mail.text.includes(failing.url), 'the origin only: a receiver\'s path may hold its secret');
    assert.ok(mail.text.includes(disabled.disabled_reason));
    assert.ok(mail.text.includes(`${ctx.config.publicUrl}/workspaces`));
    await until(async () => mailsTo(admin), (m) => m.length === 1, 'the admin\'s mail');
    await settled('mail.webhook-disabled');
    assert.deepEqual([mailsTo(editor).length, mailsTo(viewer).length, mailsTo(goneAdmin).length], [0, 0, 0], 'owners and admins with an active account only');

    // Its job again (a retry after it sent): nothing more.
    await run('mail.webhook-disabled', { userId: owner.id, workspaceId, webhookId: failing.id, deliveryId: id });
    assert.equal(mailsTo(owner).length, 1);

    const enabled = await api(owner, 'PATCH', hookUrl(failing.id), { enabled: true });
    assert.equal(enabled.statusCode, 200, enabled.body);
    assert.deepEqual([enabled.data.enabled, enabled.data.disabled_reason, enabled.data.consecutive_failures], [true, null, 0]);
    // Enabled again before a mail went: that mail is no longer true, and is not sent.
    await run('mail.webhook-disabled', { userId: owner.id, workspaceId, webhookId: failing.id, deliveryId: randomUUID() });
    assert.equal(mailsTo(owner).length, 1);
  });

  it('does not disable or e-mail again about an endpoint someone disabled already, nor mail those it should not', async () => {
    const before = mailsTo(owner).length;
    const failing = await endpoint(503, FAILURES_BEFORE_DISABLE + 5);
    assert.equal((await api(owner, 'PATCH', hookUrl(failing.id), { enabled: false })).statusCode, 200);
    await db().updateTable('webhook_endpoints').set({ consecutive_failures: FAILURES_BEFORE_DISABLE + 5 }).where('id', '=', failing.id).execute();
    // A failure counted on it (the dead-letter handler) and a 410 settled for it as it was disabled (a race).
    await deadLetter(await delivery(failing.id, 6));
    const outcomes = createWebhookOutcomes({ transact: transactor(db()), queue: ctx.app.jobs });
    await outcomes.gone(await delivery(failing.id, 1), { id: failing.id, workspaceId }, { status: 'failed', code: 410, error: 'gone', nextAttemptAt: null });
    const after = await hook(failing.id);
    assert.deepEqual([after.enabled, after.disabled_reason, after.consecutive_failures], [false, null, FAILURES_BEFORE_DISABLE + 6], 'a person disabled it: no reason of the service\'s');
    // Mail jobs for someone who is not a member, or for an endpoint that does not exist, send nothing.
    const outsider = await signUp(ctx);
    await run('mail.webhook-disabled', { userId: outsider.id, workspaceId, webhookId: failing.id, deliveryId: randomUUID() });
    await run('mail.webhook-disabled', { userId: owner.id, workspaceId, webhookId: randomUUID(), deliveryId: randomUUID() });
    assert.equal(smtp.received.filter((m) => m.to.includes(outsider.email)).length, 0);
    assert.equal(mailsTo(owner).length, before);
  });

  it('410 Gone disables it at once and tells the owners and admins', async () => {
    const gone = await endpoint(410);
    await run('webhook.deliver', { deliveryId: await delivery(gone.id, 0) });
    assert.match((await hook(gone.id)).disabled_reason, /410 Gone/);
    await until(async () => mailsTo(admin).filter((m) => m.text.includes(new URL(gone.url).origin) && /410/.test(m.text)), (m) => m.length === 1, 'the admin told about the 410');
  });
});

describe('the dead-letter handler', () => {
  it('marks failed a delivery whose last attempt never finished, and counts it against the endpoint', async () => {
    const silent = await endpoint(200, 2);
    const id = await delivery(silent.id, 6);
    await deadLetter(id);
    const row = await deliveryRow(id);
    assert.deepEqual([row.status, row.attempts, row.last_status_code], ['failed', 6, 503]);
    assert.match(row.last_error ?? '', /the last attempt did not finish/);
    assert.equal((await hook(silent.id)).consecutive_failures, 3);
  });

  it('leaves a settled delivery as it is', async () => {
    const fine = await endpoint(200);
    const id = await delivery(fine.id, 1, 'succeeded');
    await deadLetter(id);
    assert.equal((await deliveryRow(id)).status, 'succeeded');
    assert.equal((await hook(fine.id)).consecutive_failures, 0);
  });
});
