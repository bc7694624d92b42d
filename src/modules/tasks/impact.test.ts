import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';
import { createTasksRepo } from './tasks.repo.ts';

let ctx: TestContext;
let owner: SignedInUser;
let siteId: string;
const page = 'https://shop.example.org/roses';
const completed = Date.UTC(2026, 9, 1);
const day = (offset: number) => new Date(completed + offset * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  owner = await signUp(ctx);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop', domain: 'shop.example.org' } })).data.id;
});
after(() => ctx.close());

async function completedTask(target: string) {
  const repo = createTasksRepo(ctx.database.db);
  const id = (await repo.insertProposal({
    siteId, type: 'fix_title_tag', category: 'seo', priority: 'medium', title: 't', description: 'd', target,
    configuration: { url: target, after: 'Roses for small gardens | Shop' }, evidence: [{ check_id: 'title_too_long' }],
  }))!;
  for (const action of ['approve', 'start', 'complete'] as const) await repo.transition(null, id, action, 'test');
  await ctx.database.db.updateTable('task_events').set({ at: new Date(completed) }).where('task_id', '=', id).where('to_status', '=', 'completed').execute();
  return id;
}
const status = async (id: string) => (await call(ctx, { method: 'GET', url: `/api/v1/verification/tasks/${id}/verification-status`, token: owner.accessToken })).data;

describe('the measured impact of a task', () => {
  it('is null until search data covers days after the task', async () => {
    const id = await completedTask(page);
    assert.equal((await status(id)).impact, null);
  });

  it('compares the page\'s clicks, impressions and position in equal windows before and after', async () => {
    const rows = [];
    for (let d = 1; d <= 40; d++) {
      rows.push({ date: day(-d), query: 'roses', page, clicks: 2, impressions: 100, position: 9 });
      if (d <= 10) rows.push({ date: day(d), query: 'roses', page, clicks: 5, impressions: 120, position: 6 });
    }
    rows.push({ date: day(5), query: 'roses', page: 'https://shop.example.org/other', clicks: 50, impressions: 500, position: 2 });
    await createSearchDataRepo(ctx.database.db).replaceQueryDays(siteId, [], rows);
    const id = await completedTask(`${page}?v=2`);
    await ctx.database.db.updateTable('tasks').set({ configuration: JSON.stringify({ url: page }) }).where('id', '=', id).execute();
    assert.deepEqual((await status(id)).impact, {
      url: page, query: null, window_days: 10,
      before: { clicks: 20, impressions: 1000, position: 9 },
      after: { clicks: 50, impressions: 1200, position: 6 },
      realised_clicks_28d: 84, expected_clicks: null,
    });
  });

  it("of a search-data task is its query's on its page, beside the clicks it was expected to bring", async () => {
    const rows = [];
    for (let d = 1; d <= 28; d++) {
      rows.push({ date: day(-d), query: 'rose pruning', page, clicks: 1, impressions: 50, position: 12 });
      rows.push({ date: day(d), query: 'rose pruning', page, clicks: 3, impressions: 400, position: 7 });
      rows.push({ date: day(d), query: 'roses', page, clicks: 40, impressions: 400, position: 2 }); // another query of the page
    }
    await createSearchDataRepo(ctx.database.db).replaceQueryDays(siteId, [], rows);
    const id = await completedTask(`${page}?quick`);
    const expected = { clicks: 60, low: 20, high: 120, basis: 'site_curve', method: 'm' };
    await ctx.database.db.updateTable('tasks').set({
      type: 'prioritize_quick_wins', configuration: JSON.stringify({ url: page, keyword: 'rose pruning', after: 'Rose pruning: Roses – Shop' }), expected_clicks: JSON.stringify(expected),
    }).where('id', '=', id).execute();
    const impact = (await status(id)).impact;
    assert.deepEqual([impact.query, impact.window_days, impact.before.clicks, impact.after.clicks, impact.after.position], ['rose pruning', 28, 28, 84, 7]);
    assert.deepEqual([impact.realised_clicks_28d, impact.expected_clicks], [56, expected]);
  });
});
