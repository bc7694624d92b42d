import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';

let ctx: TestContext;
let owner: SignedInUser, outsider: SignedInUser;
let siteId: string, bareSiteId: string, taskId: string;

const yesterday = pacificToday() - DAY_MS;
const day = (back: number) => isoDate(yesterday - back * DAY_MS);
const get = (path: string, user = owner) => call(ctx, { method: 'GET', url: `/api/v1/analytics/${path}`, token: user.accessToken });

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, outsider] = await Promise.all([signUp(ctx), signUp(ctx)]);
  const site = (domain: string) => call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'S', domain } });
  siteId = (await site('engaged.example.org')).data.id;
  bareSiteId = (await site('bare-engaged.example.org')).data.id;
  // GA4: 28 days of 100 sessions (60% engaged) and 2 key events; the 28 before, 50 sessions (40% engaged) and 1.
  await createSearchDataRepo(ctx.database.db).upsertAnalyticsDays(siteId, Array.from({ length: 56 }, (_, back) => back < 28
    ? { date: day(back), sessions: 100, page_views: 250, bounce_rate: 0.4, conversions: 2 }
    : { date: day(back), sessions: 50, page_views: 100, bounce_rate: 0.6, conversions: 1 }));
  const tasks = createTasksRepo(ctx.database.db);
  taskId = (await tasks.insertProposal({
    siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'Add a meta description', description: 'd',
    target: 'https://engaged.example.org/roses', configuration: {}, evidence: [],
  }))!;
  // Completed at noon UTC three days back (a Pacific morning), verified the next day, rolled back 40 days ago (outside 28 days).
  const at = (back: number) => new Date(Date.parse(`${day(back)}T19:00:00Z`));
  await ctx.database.db.insertInto('task_events').values([
    { task_id: taskId, from_status: 'in_progress', to_status: 'completed', actor: 'agent:executor', at: at(3) },
    { task_id: taskId, from_status: 'completed', to_status: 'rolled_back', actor: 'agent:executor', at: at(40) },
  ]).execute();
  await ctx.database.db.insertInto('task_verifications').values({ task_id: taskId, status: 'verified', checks: '[]', checked_at: at(2) }).execute();
});
after(() => ctx.close());

describe('GA4 engagement', () => {
  it('gives sessions, page views, engagement rate and key events against the period before, by day', async () => {
    const res = await get(`engagement?site_id=${siteId}`);
    assert.equal(res.statusCode, 200, res.body);
    const r = res.data;
    assert.equal(r.connected, true);
    assert.deepEqual(r.period, { start: day(27), end: day(0), days: 28 });
    assert.deepEqual(r.totals, {
      current: { sessions: 2800, page_views: 7000, engagement_rate: 0.6, key_events: 56 },
      previous: { sessions: 1400, page_views: 2800, engagement_rate: 0.4, key_events: 28 },
      change: { sessions: 100, page_views: 150, engagement_rate: 20, key_events: 100 },
    });
    assert.deepEqual(r.days[27], { date: day(0), final: true, sessions: 100, page_views: 250, engagement_rate: 0.6, key_events: 2, previous: { date: day(28), sessions: 50, page_views: 100, engagement_rate: 0.4, key_events: 1 } });
    const none = (await get(`engagement?site_id=${siteId}&period=7d&compare=none`)).data;
    assert.deepEqual([none.comparison, none.totals.previous, none.days.length], [null, null, 7]);
  });

  it('says when GA4 is not connected: no data, no day final', async () => {
    const r = (await get(`engagement?site_id=${bareSiteId}&period=7d`)).data;
    assert.deepEqual([r.connected, r.totals.current.sessions, r.totals.current.engagement_rate, r.days.some((d: { final: boolean }) => d.final)], [false, 0, null, false]);
  });

  it('is 404 for a stranger, 422 for a bad period, 401 without a token', async () => {
    assert.equal((await get(`engagement?site_id=${siteId}`, outsider)).statusCode, 404);
    for (const q of ['&period=1y', '&compare=week', `&start=${day(3)}`, '&page=1']) assert.equal((await get(`engagement?site_id=${siteId}${q}`)).statusCode, 422, q);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/engagement?site_id=${siteId}` }, owner);
  });
});

describe('the timeline of changes', () => {
  it("lists the site's tasks completed, verified and rolled back in the period, each on its Pacific day", async () => {
    const r = (await get(`changes?site_id=${siteId}`)).data;
    assert.deepEqual(r.items.map((i: { event: string; date: string; task_id: string; title: string }) => [i.event, i.date, i.task_id, i.title]), [
      ['completed', day(3), taskId, 'Add a meta description'],
      ['verified', day(2), taskId, 'Add a meta description'],
    ], 'the roll-back 40 days ago is outside 28 days');
    const quarter = (await get(`changes?site_id=${siteId}&period=90d`)).data;
    assert.deepEqual(quarter.items.map((i: { event: string }) => i.event), ['rolled_back', 'completed', 'verified']);
    assert.equal(quarter.items[0].target, 'https://engaged.example.org/roses');
    assert.deepEqual((await get(`changes?site_id=${bareSiteId}`)).data.items, []);
  });

  it('is 404 for a stranger, 422 for a bad period, 401 without a token', async () => {
    assert.equal((await get(`changes?site_id=${siteId}`, outsider)).statusCode, 404);
    for (const q of ['&period=1y', '&compare=none', `&end=${day(3)}`]) assert.equal((await get(`changes?site_id=${siteId}${q}`)).statusCode, 422, q);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/changes?site_id=${siteId}` }, owner);
  });
});
