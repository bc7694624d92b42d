import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { periodRange } from '../search-data/periods.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';

let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let siteId: string;
let bareSiteId: string;

const week = periodRange('7d');
const day = (offset: number) => new Date(Date.parse(`${week.end}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Data', domain: 'garden-data.example.org' } })).data.id;
  bareSiteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Bare', domain: 'bare.example.org' } })).data.id;
  const db = ctx.database.db;
  await db.updateTable('sites').set({ gsc_property: 'sc-domain:garden-data.example.org', ga4_property: 'properties/1', health_score: 81 }).where('id', '=', siteId).execute();
  const repo = createSearchDataRepo(db);
  // This week: 10 clicks a day except two empty days (Search Console omits them); the week before: 5 a day.
  const rows = [0, 1, 2, 4, 6].map((o) => ({ date: day(o), clicks: 10, impressions: 200, ctr: 0.05, position: 8 + o / 10 }));
  for (let o = 7; o < 14; o++) rows.push({ date: day(o), clicks: 5, impressions: 100, ctr: 0.05, position: 12 });
  await repo.upsertSearchDays(siteId, rows);
  await repo.upsertSearchDays(siteId, rows); // a re-sync never doubles anything
  await repo.upsertAnalyticsDays(siteId, [{ date: day(0), sessions: 30, page_views: 70, bounce_rate: 0.412345, conversions: 2 }]);
  await db.insertInto('keywords').values([
    { site_id: siteId, keyword: 'roses', source: 'search_console', intent: 'informational', current_position: 2, previous_position: 5, url: null },
    { site_id: siteId, keyword: 'tulips', source: 'search_console', intent: 'informational', current_position: 9, previous_position: 9, url: null },
    { site_id: siteId, keyword: 'ferns', source: 'search_console', intent: 'informational', current_position: 40, previous_position: 30, url: null },
  ]).execute();
});
after(() => ctx.close());

const get = (url: string, token = owner.accessToken) => call(ctx, { method: 'GET', url, token });

describe('the analytics dashboard', () => {
  it('compares clicks with the previous period of equal length, and counts rankings, tasks and health', async () => {
    const res = await get(`/api/v1/analytics/dashboard?site_id=${siteId}&period=7d`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data, {
      organic_traffic: { current: 50, previous: 35, change_percent: 42.9, start: day(6), end: day(0), previous_start: day(13), previous_end: day(7) },
      keyword_rankings: { top_3: 1, top_10: 2, total_tracked: 3 },
      tasks_completed: { current_period: 0, total: 0 },
      health_score: 81,
      period: '7d',
    });
  });

  it('defaults to 30d and gives a null change when the previous period had nothing', async () => {
    const res = await get(`/api/v1/analytics/dashboard?site_id=${siteId}`);
    assert.equal(res.data.period, '30d');
    assert.deepEqual(res.data.organic_traffic, { current: 85, previous: 0, change_percent: null, start: day(29), end: day(0), previous_start: day(59), previous_end: day(30) });
  });

  it('counts a task completed today in this period (work done counts at once)', async () => {
    const done = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Done', domain: 'done.example.org' } })).data.id;
    const taskId = await createTasksRepo(ctx.database.db).insertProposal({
      siteId: done, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'Describe it', description: 'd',
      target: 'https://done.example.org/', configuration: { url: 'https://done.example.org/', field: 'meta_description', before: null, after: 'x' }, evidence: [],
    });
    await ctx.database.db.insertInto('task_events').values({ task_id: taskId!, from_status: 'in_progress', to_status: 'completed', actor: 'worker:test' }).execute();
    assert.deepEqual((await get(`/api/v1/analytics/dashboard?site_id=${done}&period=7d`)).data.tasks_completed, { current_period: 1, total: 1 });
  });

  it('ends the period at the last day with data (Search Console lags), not at yesterday', async () => {
    const lagging = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Lag', domain: 'lag.example.org' } })).data.id;
    await ctx.database.db.updateTable('sites').set({ gsc_property: 'sc-domain:lag.example.org' }).where('id', '=', lagging).execute();
    // 40 days of 10 clicks ending three days before yesterday: the last three days are not in yet.
    const rows = Array.from({ length: 40 }, (_, i) => ({ date: day(i + 3), clicks: 10, impressions: 100, ctr: 0.1, position: 5 }));
    await createSearchDataRepo(ctx.database.db).upsertSearchDays(lagging, rows);
    const res = await get(`/api/v1/analytics/dashboard?site_id=${lagging}&period=7d`);
    assert.deepEqual(res.data.organic_traffic, { current: 70, previous: 70, change_percent: 0, start: day(9), end: day(3), previous_start: day(16), previous_end: day(10) });
    const trend = (await get(`/api/v1/analytics/trends?site_id=${lagging}&metric=organic_traffic&period=7d`)).data;
    assert.deepEqual([trend.start, trend.end], [day(9), day(3)]);
    assert.ok(trend.data_points.every((p: { value: number }) => p.value === 10), 'no day counts as zero for lack of data');

    // 30 days: the previous period is only partly covered by data, so there is no change to report.
    const month = (await get(`/api/v1/analytics/dashboard?site_id=${lagging}&period=30d`)).data.organic_traffic;
    assert.deepEqual([month.current, month.previous, month.change_percent], [300, 100, null], 'not +200% from missing days');
  });

  it('answers 404 for another user\'s site, 422 for a bad query and 401 without a token', async () => {
    assert.equal((await get(`/api/v1/analytics/dashboard?site_id=${siteId}`, other.accessToken)).statusCode, 404);
    assert.equal((await get(`/api/v1/analytics/dashboard?site_id=${randomUUID()}`)).statusCode, 404);
    assert.equal((await get(`/api/v1/analytics/dashboard?site_id=${siteId}&period=1y`)).statusCode, 422);
    assert.equal((await get('/api/v1/analytics/dashboard')).statusCode, 422);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/dashboard?site_id=${siteId}` }, owner);
  });
});

describe('trends', () => {
  it('give a point for every day of the period, 0 clicks on days Search Console omitted', async () => {
    const res = await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=organic_traffic&period=7d`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data.data_points.map((p: { date: string }) => p.date), week.dates());
    assert.deepEqual(res.data.data_points.map((p: { value: number }) => p.value), [10, 0, 10, 0, 10, 10, 10]);
  });

  it('leave out days without a position or a bounce rate rather than invent one', async () => {
    const positions = (await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=keyword_positions&period=7d`)).data.data_points;
    assert.deepEqual(positions.map((p: { date: string }) => p.date), [day(6), day(4), day(2), day(1), day(0)]);
    assert.equal(positions.at(-1).value, 8);
    const bounce = (await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=bounce_rate&period=7d`)).data.data_points;
    assert.deepEqual(bounce, [{ date: day(0), value: 0.41 }]);
    const views = (await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=page_views&period=7d`)).data.data_points;
    assert.equal(views.length, 7);
    assert.equal(views.at(-1).value, 70);
  });

  it('are empty, not an error, for a metric whose source is not connected; 12m spans 365 days', async () => {
    for (const metric of ['organic_traffic', 'keyword_positions', 'conversions', 'page_views', 'bounce_rate']) {
      const res = await get(`/api/v1/analytics/trends?site_id=${bareSiteId}&metric=${metric}&period=12m`);
      assert.deepEqual({ ...res.data, start: undefined, end: undefined }, { metric, period: '12m', start: undefined, end: undefined, data_points: [] });
    }
    assert.equal((await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=conversions&period=12m`)).data.data_points.length, 365);
  });

  it('answer 422 for an unknown metric, 404 for another user\'s site', async () => {
    assert.equal((await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=likes`)).statusCode, 422);
    assert.equal((await get(`/api/v1/analytics/trends?site_id=${siteId}`)).statusCode, 422);
    assert.equal((await get(`/api/v1/analytics/trends?site_id=${siteId}&metric=page_views`, other.accessToken)).statusCode, 404);
  });
});
