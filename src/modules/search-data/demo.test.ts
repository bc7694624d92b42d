import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestContext } from '../../../test/helpers/app.ts';
import { seedDemo } from './demo.ts';
import { createSearchDataRepo } from './search-data.repo.ts';

let ctx: TestContext;
before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
});
after(() => ctx.close());

describe('npm run demo', () => {
  it('creates a demo user and site whose dashboards, trends and keywords have data, and can run again', async () => {
    const deps = { db: ctx.database.db, searchData: createSearchDataRepo(ctx.database.db) };
    const first = await seedDemo(deps);
    const login = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: first.email, password: first.password } });
    assert.equal(login.statusCode, 200);
    const auth = { authorization: `Bearer ${login.json().access_token}` };
    const dashboard = (await ctx.app.inject({ method: 'GET', url: `/api/v1/analytics/dashboard?site_id=${first.siteId}&period=12m`, headers: auth })).json();
    assert.ok(dashboard.organic_traffic.current > 10_000 && dashboard.organic_traffic.previous > 0, JSON.stringify(dashboard.organic_traffic));
    assert.ok(dashboard.keyword_rankings.total_tracked > 100);
    assert.equal(dashboard.health_score, null, 'no audit has run, so no health score');
    const site = (await ctx.app.inject({ method: 'GET', url: `/api/v1/sites/${first.siteId}`, headers: auth })).json();
    assert.equal(site.health_score, null);
    const progress = (await ctx.app.inject({ method: 'GET', url: `/api/v1/sites/${first.siteId}/progress`, headers: auth })).json();
    assert.ok(progress.last_analytics_sync_at, 'the demo data counts as synced');
    // The demo's data lags like Search Console's: periods end at its last day, so no day counts as zero.
    const week = (await ctx.app.inject({ method: 'GET', url: `/api/v1/analytics/dashboard?site_id=${first.siteId}&period=7d`, headers: auth })).json();
    assert.ok(Math.abs(week.organic_traffic.change_percent) < 25, `7d change ${week.organic_traffic.change_percent}% is not an artefact of missing days`);
    assert.equal(dashboard.organic_traffic.change_percent, null, '12m: the previous year is only partly covered by 16 months of data');
    const trend = (await ctx.app.inject({ method: 'GET', url: `/api/v1/analytics/trends?site_id=${first.siteId}&metric=conversions&period=90d`, headers: auth })).json();
    assert.equal(trend.data_points.length, 90);
    assert.ok(first.days >= 480, '16 months of site totals');

    const stats = (await ctx.app.inject({ method: 'GET', url: `/api/v1/keywords/stats?site_id=${first.siteId}`, headers: auth })).json();
    const second = await seedDemo(deps);
    assert.equal(second.siteId, first.siteId);
    assert.notEqual(second.password, first.password, 'a fresh password each run');
    const again = (await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: second.email, password: second.password } })).json();
    const statsAgain = (await ctx.app.inject({ method: 'GET', url: `/api/v1/keywords/stats?site_id=${first.siteId}`, headers: { authorization: `Bearer ${again.access_token}` } })).json();
    assert.equal(statsAgain.total_keywords, stats.total_keywords, 'nothing doubled');
  });
});
