import assert from 'node:assert/strict';
import { personalWorkspace } from '../../../test/helpers/services.ts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { createAuditsRepo } from './audits.repo.ts';

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let site: Awaited<ReturnType<typeof startFixtureSite>>;

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
  site = await startFixtureSite({
    '/': { body: page({ head: '<meta name="generator" content="WordPress 6.6">', body: '<h1>Home</h1><a href="/about">About us</a><a href="/gone">Old</a>' }) },
    '/about': { body: page({ title: 'About', body: '<h1>About</h1><img src="/x.png">' }) },
  });
});
after(async () => {
  await site.close();
  await ctx.close();
});

async function addSite(user: SignedInUser, domain: string) {
  const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Fixture', domain } });
  return res.data.id as string;
}

async function waitForAudit(user: SignedInUser, siteId: string) {
  for (let i = 0; i < 100; i++) {
    const res = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: user.accessToken });
    if (res.data?.status === 'completed' || res.data?.status === 'failed') return res;
    await sleep(200);
  }
  throw new Error('audit did not finish');
}

describe('audits', () => {
  it('runs as a job: 202 queued, then a completed report with score, issues and the site updated', async () => {
    const siteId = await addSite(alice, site.host);
    const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId, max_pages: 50 } });
    assert.equal(started.statusCode, 202);
    assert.equal(started.data.site_id, siteId);
    assert.ok(['queued', 'running'].includes(started.data.status));
    assert.equal(started.data.max_pages, 50);

    const again = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    assert.equal(again.statusCode, 202);
    assert.equal(again.data.id, started.data.id, 'one running audit per site');

    const report = await waitForAudit(alice, siteId);
    assert.equal(report.data.status, 'completed', report.body);
    assert.equal(report.data.pages_crawled, 3);
    assert.deepEqual(report.data.pages_by_status, { '200': 2, '404': 1 });
    assert.ok(report.data.score > 0 && report.data.score < 100);
    const checks = new Map(report.data.issues.map((i: { check_id: string }) => [i.check_id, i]));
    const broken = checks.get('broken_internal_links') as { severity: string; affected_count: number; affected: Array<{ url: string; value: string }> };
    assert.equal(broken.severity, 'error');
    assert.equal(broken.affected_count, 1);
    assert.deepEqual(broken.affected[0], { url: `${site.origin}/`, value: `${site.origin}/gone` });
    assert.ok(checks.has('image_missing_alt') && checks.has('title_too_short'));
    assert.ok(report.data.score_breakdown.length > 0);
    assert.equal(report.data.new_issues, null, 'no previous audit to compare with');

    const updated = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: alice.accessToken });
    assert.equal(updated.data.health_score, report.data.score);
    assert.equal(updated.data.platform, 'wordpress');

    const issues = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/page_4xx?page_size=10`, token: alice.accessToken });
    assert.equal(issues.statusCode, 200);
    assert.deepEqual(issues.data, { items: [{ url: `${site.origin}/gone`, value: '404' }], total: 1, page: 1, page_size: 10 });

    // A second audit compares with the first: nothing changed, nothing new or fixed.
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    await sleep(100);
    const second = await waitForAudit(alice, siteId);
    assert.notEqual(second.data.id, report.data.id);
    assert.equal(second.data.new_issues, 0);
    assert.equal(second.data.fixed_issues, 0);

    const progress = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/progress`, token: alice.accessToken });
    assert.equal(progress.data.audit.id, second.data.id);
    assert.equal(progress.data.audit.status, 'completed');
    assert.equal(progress.data.audit.pages_crawled, 3);
    assert.equal(progress.data.health_score, second.data.score);
    assert.equal(progress.data.initial_health_score, report.data.score);
    assert.deepEqual(progress.data.score_history.map((h: { audit_id: string }) => h.audit_id), [report.data.id, second.data.id]);
  });

  it("answers 404 for another user's site and audit, and for a site never audited", async () => {
    const siteId = await addSite(alice, `127.0.0.2:${site.host.split(':')[1]}`);
    const start = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: bob.accessToken, payload: { site_id: siteId } });
    assert.equal(start.statusCode, 404);
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken });
    assert.equal(latest.statusCode, 404, 'never audited');
    const other = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: bob.accessToken });
    assert.equal(other.statusCode, 404);
    const issues = await call(ctx, { method: 'GET', url: `/api/v1/audits/${randomUUID()}/issues/page_4xx`, token: bob.accessToken });
    assert.equal(issues.statusCode, 404);
  });

  it('answers 422 to bad input', async () => {
    for (const payload of [{}, { site_id: 'x' }, { site_id: randomUUID(), max_pages: 0 }, { site_id: randomUUID(), max_pages: 20_001 }, { site_id: randomUUID(), depth: 3 }]) {
      const res = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
    }
    const badCheck = await call(ctx, { method: 'GET', url: `/api/v1/audits/${randomUUID()}/issues/Not-A-Check`, token: alice.accessToken });
    assert.equal(badCheck.statusCode, 422);
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'POST', url: '/api/v1/audits', payload: { site_id: randomUUID() } }, alice);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/audits/site/${randomUUID()}/latest` }, alice);
  });
});

describe('audit reports on real-world failures', () => {
  it('list every broken target of a page through the paging, and count the page once', async (t) => {
    const broken = await startFixtureSite({
      '/': { body: page({ body: '<h1>Home</h1><a href="/gone-1">One</a><a href="/gone-2">Two</a><a href="/gone-3">Three</a><a href="/docs">Docs</a>' }) },
      '/docs': { body: page({ body: '<h1>Docs</h1><a href="/gone-3">Three again</a>' }) },
    });
    t.after(() => broken.close());
    const siteId = await addSite(alice, broken.host);
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    const report = await waitForAudit(alice, siteId);
    const check = report.data.issues.find((i: { check_id: string }) => i.check_id === 'broken_internal_links');
    assert.equal(check.affected_count, 2, 'two pages have broken links');
    assert.equal(check.affected.length, 4, 'the report lists every (page, target)');
    const rows = [];
    for (let n = 1; n <= 2; n++) {
      const res = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/broken_internal_links?page=${n}&page_size=3`, token: alice.accessToken });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.total, 4);
      rows.push(...res.data.items);
    }
    assert.deepEqual(rows.map((r: { url: string; value: string }) => `${new URL(r.url).pathname} -> ${new URL(r.value).pathname}`), [
      '/ -> /gone-1', '/ -> /gone-2', '/ -> /gone-3', '/docs -> /gone-3',
    ]);

    // The export: every issue of the audit, most severe checks first, or one check's.
    const exported = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export`, token: alice.accessToken });
    assert.equal(exported.statusCode, 200, exported.body);
    assert.match(String(exported.headers['content-disposition']), /^attachment; filename="127.0.0.1-\d+-audit-\d{4}-\d{2}-\d{2}-issues.csv"$/);
    const [heading, ...lines] = exported.rawPayload.subarray(3).toString('utf8').trim().split('\n');
    assert.equal(heading, 'severity,check_id,check,category,url,value,how_to_fix');
    const severities = lines.map((l) => l.split(',')[0]!);
    const rank = (s: string) => ['critical', 'error', 'warning', 'notice'].indexOf(s);
    assert.deepEqual(severities.map(rank), [...severities.map(rank)].sort((a, b) => a - b), 'most severe first');
    const brokenLines = lines.filter((l) => l.split(',')[1] === 'broken_internal_links');
    assert.equal(brokenLines.length, 4, 'every (page, target), as the report');
    const oneCheck = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export?check_id=broken_internal_links`, token: alice.accessToken });
    assert.deepEqual(oneCheck.rawPayload.subarray(3).toString('utf8').trim().split('\n').slice(1), brokenLines);
    assert.match(String(oneCheck.headers['content-disposition']), /-broken_internal_links-issues\.csv"$/);
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export`, token: bob.accessToken })).statusCode, 404, "another user's audit");
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export?check_id=no_such_check`, token: alice.accessToken })).statusCode, 404);
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export?check_id=Bad-Id`, token: alice.accessToken })).statusCode, 422);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/export` }, alice);
  });

  it('fail the audit of a site that does not answer, with the reason, and keep no score', async () => {
    const gone = await startFixtureSite({});
    const host = gone.host;
    await gone.close();
    const siteId = await addSite(alice, host);
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    const report = await waitForAudit(alice, siteId);
    assert.equal(report.data.status, 'failed');
    assert.match(report.data.error, /could not be reached: .* did not answer: connection refused/);
    assert.equal(report.data.score, null);
    const stored = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: alice.accessToken });
    assert.equal(stored.data.health_score, null, 'an unreachable site gets no health score');
  });

  it('answer 404 for a check id that does not exist', async () => {
    const siteId = await addSite(alice, `127.0.0.3:${site.host.split(':')[1]}`);
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    const report = await waitForAudit(alice, siteId);
    const res = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/no_such_check`, token: alice.accessToken });
    assert.equal(res.statusCode, 404);
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
    const known = await call(ctx, { method: 'GET', url: `/api/v1/audits/${report.data.id}/issues/crawl_trap`, token: alice.accessToken });
    assert.equal(known.statusCode, 200, 'a known check with no findings is an empty page');
    assert.equal(known.data.total, 0);
  });
});

describe('audit jobs that lose their worker', () => {
  const tuning = { heartbeatSeconds: 10, superviseIntervalSeconds: 1 };

  it("are finished by another worker, and the dead worker's late result changes nothing", async (t) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await startFixtureSite({
      '/': { body: page({ body: '<h1>Home</h1><a href="/slow">Slow page</a>' }) },
      // The first worker's request hangs (it "dies" meanwhile) and, once let go, sees a 500.
      '/slow': async (_request, hit) => {
        if (hit > 1) return { body: page({ title: 'The slow page, second time' }) };
        await released;
        return { status: 500, body: 'late' };
      },
    });
    const a = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: tuning });
    let b: Awaited<ReturnType<typeof startTestApp>> | undefined;
    t.after(async () => {
      release();
      await b?.close();
      await a.close();
      await slow.close();
    });
    const user = await signUp(a);
    const siteRes = await call(a, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Slow', domain: slow.host } });
    const started = await call(a, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteRes.data.id } });
    assert.equal(started.statusCode, 202);
    while (slow.hitsFor('/slow').length === 0) await sleep(50);
    let live = await call(a, { method: 'GET', url: `/api/v1/sites/${siteRes.data.id}/progress`, token: user.accessToken });
    for (let i = 0; i < 20 && live.data.audit.pages_discovered < 2; i++) {
      await sleep(100); // progress is written at most once a second
      live = await call(a, { method: 'GET', url: `/api/v1/sites/${siteRes.data.id}/progress`, token: user.accessToken });
    }
    assert.equal(live.data.audit.status, 'running', 'progress shows the audit while it runs');
    assert.equal(live.data.audit.id, started.data.id);
    assert.ok(live.data.audit.pages_discovered >= 2);
    assert.deepEqual(live.data.score_history, []);

    await a.app.jobs.stop({ graceful: false }); // worker A is gone: no more heartbeats, no more work
    b = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: tuning, database: a.database });

    let report;
    for (let i = 0; i < 150; i++) {
      report = await call(b, { method: 'GET', url: `/api/v1/audits/site/${siteRes.data.id}/latest`, token: user.accessToken });
      if (report.data.status !== 'queued' && report.data.status !== 'running') break;
      await sleep(200);
    }
    assert.equal(report?.data.status, 'completed', report?.body);
    assert.equal(report?.data.id, started.data.id);
    assert.deepEqual(report?.data.pages_by_status, { '200': 2 });

    release(); // worker A wakes up with a stale attempt and a different result
    await sleep(1500);
    const after = await call(b, { method: 'GET', url: `/api/v1/audits/site/${siteRes.data.id}/latest`, token: user.accessToken });
    assert.deepEqual(after.data.pages_by_status, { '200': 2 }, 'the stale attempt wrote nothing');
    assert.equal(after.data.issues.some((i: { check_id: string }) => i.check_id === 'page_5xx'), false);
    const pages = await a.database.db.selectFrom('audit_pages').select('status').where('audit_id', '=', started.data.id).execute();
    assert.deepEqual(pages.map((p) => p.status), [200, 200], "the stale attempt's pages did not land either");
    const row = await a.database.db.selectFrom('audits').select('attempt').where('id', '=', started.data.id).executeTakeFirstOrThrow();
    assert.equal(row.attempt, 2);
  });

  it("write their pages a batch at a time, and a superseded attempt's batches land nowhere", async () => {
    const repo = createAuditsRepo(ctx.database.db);
    const siteId = await addSite(alice, `pages-${randomUUID().slice(0, 8)}.example`);
    const audit = await repo.insertQueued(siteId, 10);
    const first = await repo.startAttempt(audit!.id);
    const record = (url: string, status: number) => ({
      url, status, title: null, meta_description: null, depth: 0, inlinks: 0, content_hash: null, redirect_to: null, content: null,
    });
    assert.equal(await repo.writePages(audit!.id, first!, [record('https://a.example/', 500)], { replace: true }), true);
    // Another worker takes the audit over (its job was handed back after a missed heartbeat).
    const second = await repo.startAttempt(audit!.id);
    assert.equal(await repo.writePages(audit!.id, second!, [record('https://a.example/', 200)], { replace: true }), true);
    assert.equal(await repo.writePages(audit!.id, first!, [record('https://a.example/late', 500)], { replace: false }), false, 'the first attempt is told it was superseded');
    assert.equal(await repo.writePages(audit!.id, second!, [record('https://a.example/next', 200)], { replace: false }), true);
    const pages = await ctx.database.db.selectFrom('audit_pages').select(['url', 'status']).where('audit_id', '=', audit!.id).orderBy('url').execute();
    assert.deepEqual(pages, [{ url: 'https://a.example/', status: 200 }, { url: 'https://a.example/next', status: 200 }]);
    await repo.fail(audit!.id, 'the site stopped answering', first!);
    assert.equal((await ctx.database.db.selectFrom('audit_pages').select('url').where('audit_id', '=', audit!.id).execute()).length, 2, 'a superseded attempt fails nothing');
    await repo.fail(audit!.id, 'the site stopped answering', second!);
    const left = await ctx.database.db.selectFrom('audit_pages').select('url').where('audit_id', '=', audit!.id).execute();
    assert.deepEqual(left, [], 'a failed audit keeps none of the pages its attempt wrote');
  });

  it('end failed, with a reason, once every attempt has died', async (t) => {
    const ctx2 = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { jobTuning: tuning });
    t.after(() => ctx2.close());
    const queue = await ctx2.app.jobs.describe('audit.run');
    assert.equal(queue?.deadLetter, 'audit.run.dead');
    assert.equal(queue?.heartbeatSeconds, 10);

    const user = await signUp(ctx2);
    const siteRes = await call(ctx2, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Dead', domain: '127.0.0.1:7' } });
    const audit = await ctx2.database.db
      .insertInto('audits')
      .values({ site_id: siteRes.data.id, max_pages: 10, status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx2.app.jobs.sendDead('audit.run', { auditId: audit.id }); // what pg-boss does after the last retry
    let latest;
    for (let i = 0; i < 50; i++) {
      latest = await call(ctx2, { method: 'GET', url: `/api/v1/audits/site/${siteRes.data.id}/latest`, token: user.accessToken });
      if (latest.data.status === 'failed') break;
      await sleep(200);
    }
    assert.equal(latest?.data.status, 'failed');
    assert.match(latest?.data.error, /stopped unexpectedly/);
    assert.ok(latest?.data.finished_at);
  });
});

describe('scheduled re-audits', () => {
  it('run every 15 minutes and queue an audit for exactly the sites that are due', async () => {
    const schedules = await ctx.app.jobs.schedules('audit.schedule');
    assert.equal(schedules[0]?.cron, '*/15 * * * *');

    const owner = await signUp(ctx);
    const db = ctx.database.db;
    let closedPort = 0;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const makeSite = async (name: string, schedule: 'off' | 'daily' | 'weekly', lastAuditDaysAgo: number | null, isActive = true) => {
      const site = await db
        .insertInto('sites')
        // Closed local ports: the re-audits these queue fail fast and send nothing off this machine.
        .values({ owner_id: owner.id, workspace_id: personalWorkspace(db, owner.id), name, domain: `127.0.0.1:${++closedPort}`, audit_schedule: schedule, is_active: isActive })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (lastAuditDaysAgo !== null) {
        await db.insertInto('audits').values({ site_id: site.id, max_pages: 7, status: 'completed' }).execute();
        await db.updateTable('audits').set({ created_at: daysAgo(lastAuditDaysAgo) } as never).where('site_id', '=', site.id).execute();
      }
      return site.id;
    };
    const due = [await makeSite('weekly-due', 'weekly', 8), await makeSite('daily-due', 'daily', 2)];
    const notDue = [
      await makeSite('weekly-recent', 'weekly', 2), await makeSite('off', 'off', 30),
      await makeSite('inactive', 'weekly', 30, false), await makeSite('never-audited', 'weekly', null),
    ];
    const auditsOf = async (siteId: string) =>
      db.selectFrom('audits').select(['max_pages', 'created_at']).where('site_id', '=', siteId).orderBy('created_at', 'desc').execute();

    await ctx.app.jobs.send('audit.schedule', {});
    for (let i = 0; i < 50 && (await Promise.all(due.map(auditsOf))).some((a) => a.length < 2); i++) await sleep(200);
    for (const siteId of due) {
      const audits = await auditsOf(siteId);
      assert.equal(audits.length, 2, 'one new audit for a due site');
      assert.equal(audits[0]!.max_pages, 7, "with the last audit's page cap");
    }
    for (const siteId of notDue) assert.ok((await auditsOf(siteId)).length <= 1);
  });
});
