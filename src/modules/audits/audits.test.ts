import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';

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
