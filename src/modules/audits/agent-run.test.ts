import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { call, signUp, startTestApp, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { until } from '../../../test/helpers/wait.ts';

/** The strategy agent runs as a job of its own after the audit is stored: these are its failure modes. */
const tuning = { heartbeatSeconds: 10, superviseIntervalSeconds: 1 };
const DRAFT_FROM = `<h1>Oak tables</h1><p>${'Our oak tables are made by hand in the Devon workshop and oiled twice before they ship. '.repeat(12)}</p>`;

async function addSite(ctx: TestContext, token: string, host: string) {
  return (await call(ctx, { method: 'POST', url: '/api/v1/sites', token, payload: { name: 'Shop', domain: host } })).data.id as string;
}
const latest = async (ctx: TestContext, token: string, siteId: string) =>
  (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token })).data;
const tasksOf = (ctx: TestContext, siteId: string) =>
  ctx.database.db.selectFrom('tasks').select(['type', 'target']).where('site_id', '=', siteId).execute();

describe('the strategy agent as a durable job', () => {
  it('still makes its proposals, once, when the process dies while the agent runs', async (t) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const site = await startFixtureSite({
      '/': { body: page({ body: '<h1>Home</h1><a href="/no-desc">Oak tables</a>' }) },
      '/no-desc': { body: page({ title: 'Oak tables made by hand | Shop', description: '', body: DRAFT_FROM }) },
    });
    // The agent drafts from what the crawl kept, so its one outbound call is the optional LLM
    // writer: the first completion hangs, and the process "dies" there. Every answer is a 400,
    // so the extractive draft stands.
    let completions = 0;
    const llm = http.createServer(async (_request, response) => {
      completions += 1;
      if (completions === 1) await released;
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    const env = { ALLOW_PRIVATE_TARGETS: 'true', LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, LLM_MODEL: 'test' };
    const a = await startTestApp(env, { jobTuning: tuning });
    let b: TestContext | undefined;
    t.after(async () => {
      release();
      await b?.close();
      await a.close();
      await site.close();
      llm.closeAllConnections();
      await new Promise((resolve) => llm.close(resolve));
    });
    const user = await signUp(a);
    const siteId = await addSite(a, user.accessToken, site.host);
    const started = await call(a, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId } });
    assert.equal(started.data.agent, 'pending');
    await until(async () => completions, (n) => n >= 1, 'the agent asking the writer');

    const during = await latest(a, user.accessToken, siteId);
    assert.equal(during.status, 'completed', 'the audit itself is stored');
    assert.equal(during.agent, 'running', 'and says its agent is still at work');
    assert.equal(during.agent_summary, null);
    assert.deepEqual(await tasksOf(a, siteId), []);

    await a.app.jobs.stop({ graceful: false }); // the process is gone: no heartbeats, no more work
    b = await startTestApp(env, { jobTuning: tuning, database: a.database });
    const done = await until(() => latest(b!, user.accessToken, siteId), (r) => r.agent !== 'running', 'the agent run taken over', 60_000);
    assert.equal(done.agent, 'finished', JSON.stringify(done));
    const made = await tasksOf(b, siteId);
    assert.ok(made.some((m) => m.type === 'fix_missing_meta_description' && m.target === `${site.origin}/no-desc`), JSON.stringify(made));
    assert.equal(new Set(made.map((m) => `${m.type} ${m.target}`)).size, made.length, 'no proposal twice');
    assert.equal(done.agent_summary.proposed, made.length);
    const refused = await b.database.db.selectFrom('task_rejections').select('reason').where('audit_id', '=', done.id).execute();
    assert.equal(refused.length, done.agent_summary.rejected, "the dead run's refusals are not counted twice");

    release(); // the dead run wakes up: it may not add tasks or overwrite the summary
    await sleep(1500);
    assert.equal((await tasksOf(b, siteId)).length, made.length);
    assert.deepEqual((await latest(b, user.accessToken, siteId)).agent_summary, done.agent_summary);

    // A run that died after storing its proposals: the retried job counts them as its own, refuses nothing twice.
    await b.database.db.updateTable('audits').set({ agent: 'running', agent_summary: null }).where('id', '=', done.id).execute();
    await b.app.jobs.send('agent.plan-from-audit', { auditId: done.id });
    const rerun = await until(() => latest(b!, user.accessToken, siteId), (r) => r.agent === 'finished', 'the re-run');
    assert.equal(rerun.agent_summary.proposed, made.length);
    assert.equal(rerun.agent_summary.rejected, done.agent_summary.rejected);
    const reasons = await b.database.db.selectFrom('task_rejections').select('reason').where('audit_id', '=', done.id).execute();
    assert.equal(reasons.length, done.agent_summary.rejected);
    assert.ok(!reasons.some((r) => /already covers/.test(r.reason)), JSON.stringify(reasons));
  });

  it('is never lost when enqueueing fails after the insert: the audit is not left queued without a job', async (t) => {
    const site = await startFixtureSite({ '/': { body: page() } });
    const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
    t.after(async () => {
      await ctx.close();
      await site.close();
    });
    const user = await signUp(ctx);
    const siteId = await addSite(ctx, user.accessToken, site.host);
    const send = ctx.app.jobs.send;
    ctx.app.jobs.send = (async () => {
      throw new Error('the process died between the insert and the enqueue');
    }) as typeof send;
    const failed = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId } });
    ctx.app.jobs.send = send;
    assert.equal(failed.statusCode, 500);
    const rows = await ctx.database.db.selectFrom('audits').select('status').where('site_id', '=', siteId).execute();
    assert.deepEqual(rows, [], 'the insert rolled back with the enqueue');

    const again = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId } });
    assert.equal(again.statusCode, 202);
    const done = await until(() => latest(ctx, user.accessToken, siteId), (r) => r.agent === 'finished', 'the audit and its agent run', 30_000);
    assert.equal(done.id, again.data.id);
    assert.equal(done.status, 'completed');
  });

  it('can be retried on the stored audit, without a new crawl, once every attempt has failed', async (t) => {
    const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
    t.after(() => ctx.close());
    const [user, other] = [await signUp(ctx), await signUp(ctx)];
    const siteId = await addSite(ctx, user.accessToken, '127.0.0.1:9');
    const audit = await ctx.database.db.insertInto('audits')
      .values({ site_id: siteId, max_pages: 10, status: 'completed', agent: 'running' }).returning('id').executeTakeFirstOrThrow();
    const retry = (token: string, auditId = audit.id) => call(ctx, { method: 'POST', url: `/api/v1/audits/${auditId}/agent`, token });

    assert.equal((await retry(user.accessToken)).statusCode, 409, 'a run in progress is not retried');
    await ctx.app.jobs.sendDead('agent.plan-from-audit', { auditId: audit.id }); // what pg-boss does after the last attempt
    const failed = await until(() => latest(ctx, user.accessToken, siteId), (r) => r.agent === 'failed', 'the failed run reported');
    assert.match(failed.agent_error, /failed on every attempt/);

    assert.equal((await retry(other.accessToken)).statusCode, 404, "another user's audit");
    assert.equal((await retry(user.accessToken, randomUUID())).statusCode, 404);
    const retried = await retry(user.accessToken);
    assert.equal(retried.statusCode, 202, retried.body);
    assert.equal(retried.data.agent, 'pending');
    const done = await until(() => latest(ctx, user.accessToken, siteId), (r) => r.agent === 'finished', 'the retried run');
    assert.equal(done.agent_error, null);
    assert.deepEqual(done.agent_summary && { proposed: done.agent_summary.proposed }, { proposed: 0 });
    const audits = await ctx.database.db.selectFrom('audits').select('id').where('site_id', '=', siteId).execute();
    assert.equal(audits.length, 1, 'no new crawl');
    assert.equal((await retry(user.accessToken)).statusCode, 409, 'a finished run is not retried');
  });
});
