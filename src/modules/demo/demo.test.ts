import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestContext } from '../../../test/helpers/app.ts';
import { runDemo } from './demo.ts';
import { demoSiteContent } from './demo-site.ts';
import { startWordPressServer, type WordPressServer } from './wordpress-stand-in.ts';
import { until } from '../../../test/helpers/wait.ts';
import { which } from '../../../test/helpers/programs.ts';
import { startSpaSite } from './spa-site.ts';

let ctx: TestContext;
let website: WordPressServer;
let spa: Awaited<ReturnType<typeof startSpaSite>>;
const chromiumPath = process.env.CHROMIUM_PATH ?? which('chromium');
before(async () => {
  website = await startWordPressServer(demoSiteContent());
  spa = await startSpaSite();
  // As server.ts runs it: only the demo's own websites are reachable private targets.
  ctx = await startTestApp(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}, { config: { allowPrivateTargets: { hosts: [website.host, spa.host] } } });
});
after(async () => {
  await ctx.close();
  await website.close();
  await spa.close();
});

const demoDeps = () => ({ app: ctx.app, users: ctx.app.services.users, sites: ctx.app.services.sites, searchData: ctx.app.services.searchData, website, spa });
const get = async (url: string, token: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return res.json();
};
const login = (email: string, password: string) => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });

describe('npm run demo', () => {
  it('walks the whole journey: an audited site with findings, proposals awaiting approval, some executed and verified, search data', async () => {
    const first = await runDemo(demoDeps());
    assert.equal(first.audit.status, 'completed');
    // The client-rendered shop: its four pages found by rendering (CI has Chromium; without it, its shell alone).
    if (chromiumPath) assert.deepEqual({ ...first.spa, siteId: undefined }, { siteId: undefined, status: 'completed', pages: 4, rendered: 4, unavailable: null });
    else assert.ok(!process.env.CI && first.spa?.unavailable, 'chromium is not installed: .ci/run installs it');
    assert.equal(first.audit.agent, 'finished');
    assert.ok(first.audit.pages >= 28, `${first.audit.pages} pages crawled`);
    assert.ok(first.audit.score !== null && first.audit.score < 100, `score ${first.audit.score}: the site has flaws`);
    assert.ok(first.awaitingApproval >= 10, `${first.awaitingApproval} proposals await approval`);
    assert.equal(first.executed.length, 3);
    for (const task of first.executed) assert.deepEqual([task.status, task.verification], ['completed', 'verified'], task.title);
    const described = demoSiteContent().items!.filter((item) => website.item(item.slug)?.meta.sos_meta_description && !item.meta);
    assert.ok(described.length >= 20, `the description task wrote ${described.length} pages' descriptions into the site`);
    assert.equal(website.item('guides/roses')!.title.length <= 60, true, 'the long title was shortened through the connector');
    const token = (await login(first.email, first.password)).json().access_token;
    // One problem on 26 pages is one task with per-page values, verified page by page; most pages
    // have search traffic, yet the task is as urgent as its typical page (at most 30% are high).
    const tasks = await get(`/api/v1/tasks?site_id=${first.siteId}&page_size=100`, token);
    const descriptionTasks = tasks.items.filter((t: { type: string }) => t.type === 'fix_missing_meta_description');
    assert.equal(descriptionTasks.length, 1, 'the missing descriptions are one task');
    const grouped = await get(`/api/v1/tasks/${descriptionTasks[0].id}`, token);
    assert.ok(grouped.configuration.pages.length >= 20, `${grouped.configuration.pages.length} pages, each with its own description`);
    assert.equal(new Set(grouped.configuration.pages.map((p: { after: string }) => p.after)).size, grouped.configuration.pages.length, 'each page its own text');
    assert.equal(grouped.priority, 'medium');
    assert.equal(grouped.verification.checks.length, grouped.configuration.pages.length, 'verified page by page');
    assert.ok(grouped.verification.checks.every((c: { url?: string; passed: boolean }) => c.url && c.passed));
    const report = await get(`/api/v1/audits/site/${first.siteId}/latest`, token);
    const checks = report.issues.map((i: { check_id: string }) => i.check_id);
    for (const expected of ['meta_description_missing', 'broken_internal_links', 'image_missing_alt', 'title_too_long', 'thin_content']) {
      assert.ok(checks.includes(expected), `${expected} found (found: ${checks.join(', ')})`);
    }
    const dashboard = await get(`/api/v1/analytics/dashboard?site_id=${first.siteId}&period=12m`, token);
    assert.ok(dashboard.organic_traffic.current > 10_000, JSON.stringify(dashboard.organic_traffic));
    assert.ok(dashboard.keyword_rankings.total_tracked > 100);
    assert.equal(dashboard.health_score, first.audit.score);
    assert.equal(dashboard.organic_traffic.change_percent, null, '12m: the previous year is only partly covered by 16 months of data');
    // The demo's data lags like Search Console's: periods end at its last day, so no day counts as zero.
    const week = await get(`/api/v1/analytics/dashboard?site_id=${first.siteId}&period=7d`, token);
    assert.ok(Math.abs(week.organic_traffic.change_percent) < 25, `7d change ${week.organic_traffic.change_percent}% is not an artefact of missing days`);
    const views = await get(`/api/v1/analytics/trends?site_id=${first.siteId}&metric=page_views&period=30d`, token);
    assert.ok(views.data_points.length === 30 && views.data_points.every((p: { value: number }) => p.value > 0), 'GA4 figures too');
    const progress = await get(`/api/v1/sites/${first.siteId}/progress`, token);
    assert.ok(progress.last_analytics_sync_at, 'the demo data counts as synced');
    const stats = await get(`/api/v1/keywords/stats?site_id=${first.siteId}`, token);

    const second = await runDemo(demoDeps());
    assert.notEqual(second.password, first.password, 'a fresh password each run');
    assert.equal((await login(first.email, first.password)).statusCode, 401, 'the previous password stops working');
    const again = (await login(second.email, second.password)).json().access_token;
    const sites = await get('/api/v1/sites', again);
    assert.deepEqual(sites.items.map((s: { id: string }) => s.id).sort(), [second.siteId, second.spa!.siteId].sort(), 'the previous demo account and its sites are gone');
    const statsAgain = await get(`/api/v1/keywords/stats?site_id=${second.siteId}`, again);
    assert.equal(statsAgain.total_keywords, stats.total_keywords, 'nothing doubled');
  });

  it('approving every proposal: each one is carried out (changed on the site, or a brief handed over), none fails', async () => {
    const demo = await runDemo(demoDeps());
    const token = (await login(demo.email, demo.password)).json().access_token;
    const queue = await get(`/api/v1/tasks/awaiting-approval?site_id=${demo.siteId}&page_size=100`, token);
    assert.ok(queue.total >= 10 && queue.total <= 100, `${queue.total} proposals`);
    const types = new Set(queue.items.map((t: { type: string }) => t.type));
    for (const type of ['prioritize_quick_wins', 'create_content_for_keyword']) assert.ok(types.has(type), `${type} is among them`);
    // Every proposal says what it is worth, and the queue can be read by it.
    assert.deepEqual(queue.items.filter((t: { expected_clicks: unknown }) => t.expected_clicks === null).map((t: { type: string }) => t.type), []);
    const byWorth = await get(`/api/v1/tasks/awaiting-approval?site_id=${demo.siteId}&page_size=100&order=expected_clicks`, token);
    // (Critical tasks come first whatever their clicks: none is worth less for being out of search.)
    const worth = byWorth.items.filter((t: { priority: string }) => t.priority !== 'critical').map((t: { expected_clicks: { clicks: number } }) => t.expected_clicks.clicks);
    assert.deepEqual(worth, [...worth].sort((a: number, b: number) => b - a));
    // No two open tasks change one field of one page.
    const claims = (await ctx.database.db.selectFrom('tasks').select('claims').where('site_id', '=', demo.siteId).execute()).flatMap((t) => t.claims);
    assert.ok(claims.length > 0);
    assert.equal(new Set(claims).size, claims.length, claims.join('\n'));
    for (const task of queue.items) {
      const res = await ctx.app.inject({ method: 'POST', url: `/api/v1/tasks/${task.id}/approve`, headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 200, res.body);
    }
    const all = await until(
      async () => (await get(`/api/v1/tasks?site_id=${demo.siteId}&page_size=100`, token)).items as Array<{ id: string; type: string; status: string }>,
      (items) => items.every((t) => t.status !== 'queued' && t.status !== 'in_progress'), 'every approved task to end', 120_000,
    );
    const failed = all.filter((t) => t.status === 'failed');
    const reasons = await Promise.all(failed.map(async (t) => `${t.type}: ${(await get(`/api/v1/tasks/${t.id}`, token)).error?.message}`));
    assert.deepEqual(reasons, [], 'no approved task failed');
  });
});
