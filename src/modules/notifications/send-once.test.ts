import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { createNotificationSendsRepo } from './notification-sends.repo.ts';

let ctx: TestContext;
let smtp: TestSmtpServer;
let owner: SignedInUser;
let workspaceId: string;
const DIGEST = /awaiting approval/;

const api = (user: SignedInUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, token: user.accessToken, ...(payload === undefined ? {} : { payload: payload as object }) });
const digestsTo = (user: SignedInUser) => smtp.received.filter((m) => m.to.includes(user.email) && DIGEST.test(m.subject));
const service = () => ctx.app.services.emailNotifications;

/** A member of the workspace who takes a daily digest. */
async function dailyMember() {
  const user = await signUp(ctx);
  const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role: 'viewer' });
  assert.equal((await api(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
  assert.equal((await api(user, 'PUT', `/workspaces/${workspaceId}/notifications`, { digest: 'daily' })).statusCode, 200);
  return user;
}

/** Waits until pg-boss has finished every mail.digest job (retries included). */
const settled = () => until(() => ctx.app.jobs.findJobs('mail.digest'), (jobs) => jobs.every((j) => j.state === 'completed'), 'the digest jobs to complete');

/** Runs mail.digest jobs through the queue; their rows once every digest job is done. */
async function runDigestJobs(payloads: Array<{ userId: string; workspaceId: string; period: string }>) {
  const ids = await Promise.all(payloads.map((p) => ctx.app.jobs.send('mail.digest', p)));
  return (await settled()).filter((j) => ids.includes(j.id));
}

before(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ SMTP_URL: smtp.url, ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: { heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxRetryDelaySeconds: 1 } });
  owner = await signUp(ctx);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Once Co.' })).data.id;
  const siteId = (await api(owner, 'POST', '/sites', { name: 'Oak Shop', domain: 'oak-once.example', workspace_id: workspaceId })).data.id;
  await createTasksRepo(ctx.database.db).insertProposal({
    siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'Describe the tables page', description: 'd',
    target: 'https://oak-once.example/t', configuration: { url: 'https://oak-once.example/t', field: 'meta_description', before: null, after: 'x' },
    evidence: [{ check_id: 'x' }],
  });
});
after(async () => {
  await ctx.close();
  await smtp.close();
});

describe('an e-mail notification is sent once', () => {
  it('the same digest job run twice, and the daily run queued twice, send one message', async () => {
    const member = await dailyMember();
    const job = { userId: member.id, workspaceId, period: '2026-12-01' };
    const jobs = await runDigestJobs([job, job]);
    assert.equal(jobs.length, 2, 'both jobs ran');
    assert.equal(digestsTo(member).length, 1);

    // The daily run twice on one day (a retried cron job): one more digest, for that day only.
    const tuesday = new Date('2026-12-08T07:00:00Z');
    assert.equal(await service().queueDigests(tuesday), 1);
    assert.equal(await service().queueDigests(tuesday), 1);
    await until(async () => digestsTo(member), (m) => m.length === 2, 'the digest of the 8th');
    await settled();
    assert.equal(digestsTo(member).length, 2);
    const claim = await createNotificationSendsRepo(ctx.database.db).find({ kind: 'digest', userId: member.id, workspaceId, subjectKey: '2026-12-08' });
    assert.ok(claim?.sent_at, 'the claim is confirmed once the server took it');
  });

  it('a send the SMTP server refuses is sent when pg-boss retries the job', async () => {
    const member = await dailyMember();
    smtp.refuse(member.email, 1);
    const [job] = await runDigestJobs([{ userId: member.id, workspaceId, period: '2026-12-02' }]);
    assert.equal(job!.retryCount, 1, 'the first attempt failed');
    assert.equal(digestsTo(member).length, 1);
  });

  it('a claim left unconfirmed by a worker that died is taken again once stale (3 minutes), not before: the job retries until then', async () => {
    const member = await dailyMember();
    const key = { kind: 'digest' as const, userId: member.id, workspaceId, subjectKey: '2026-12-03' };
    const claimedAgo = (interval: string) => ctx.database.db.insertInto('notification_sends')
      .values({ kind: key.kind, user_id: key.userId, workspace_id: key.workspaceId, subject_key: key.subjectKey, claimed_at: sql<Date>`now() - ${interval}::interval` })
      .onConflict((oc) => oc.columns(['kind', 'user_id', 'workspace_id', 'subject_key']).doUpdateSet({ claimed_at: sql<Date>`now() - ${interval}::interval` })).execute();
    await claimedAgo('2 minutes');
    await assert.rejects(service().sendDigest({ ...key, period: key.subjectKey }), { name: 'SendInProgress' }, 'another worker may still be sending it: not done, retried');
    assert.equal(digestsTo(member).length, 0);
    await claimedAgo('4 minutes');
    assert.equal(await service().sendDigest({ ...key, period: key.subjectKey }), true);
    await until(async () => digestsTo(member), (m) => m.length === 1, 'the digest');
    assert.equal(await service().sendDigest({ ...key, period: key.subjectKey }), false, 'sent: nothing more');
  });

  it('a job that finds a live claim is retried by the queue and sends once the claim goes stale', async () => {
    const member = await dailyMember();
    const key = { kind: 'digest' as const, userId: member.id, workspaceId, subjectKey: '2026-12-04' };
    // Claimed by a worker that died 2 min 55 s ago: stale 5 s from now, within the job's retries (1 s apart here, doubling).
    await ctx.database.db.insertInto('notification_sends')
      .values({ kind: key.kind, user_id: key.userId, workspace_id: key.workspaceId, subject_key: key.subjectKey, claimed_at: sql<Date>`now() - interval '2 minutes 55 seconds'` }).execute();
    const [job] = await runDigestJobs([{ userId: member.id, workspaceId, period: key.subjectKey }]);
    assert.ok(job && job.retryCount > 0, 'the first attempt found the claim live and failed');
    await until(async () => digestsTo(member), (m) => m.length === 1, 'the digest, sent on a retry');
  });
});
