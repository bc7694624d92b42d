import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { brandOf } from '../search-data/intent.ts';
import { createSearchDataRepo, type QueryPageDay } from '../search-data/search-data.repo.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { createTasksService } from '../tasks/tasks.service.ts';
import { createAgentsRepo } from './agents.repo.ts';
import { createSearchPlanner } from './search-planner.ts';
import { createKeywordsRepo } from '../keywords/keywords.repo.ts';
import { createKeywordsService } from '../keywords/keywords.service.ts';
import { createSearchDataService } from '../search-data/search-data.service.ts';
import { createSitesRepo } from '../sites/sites.repo.ts';
import { createSitesService } from '../sites/sites.service.ts';
import { transactor } from '../../db/transact.ts';

let ctx: TestContext;
let owner: SignedInUser;
let siteId: string;
const latest = Date.UTC(2026, 10, 18);
const day = (back: number) => new Date(latest - back * 86_400_000).toISOString().slice(0, 10);
const url = (path: string) => `https://shop.example.org${path}`;

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  owner = await signUp(ctx);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop', domain: 'shop.example.org' } })).data.id;
  const rows: QueryPageDay[] = [];
  for (let back = 0; back < 56; back++) {
    const recent = back < 28;
    // Ranks 3rd but hardly anyone clicks: a title problem.
    rows.push({ date: day(back), query: 'rose pruning', page: url('/roses'), clicks: recent ? 0 : 0, impressions: 40, position: 3 });
    // Lost most of its clicks.
    rows.push({ date: day(back), query: 'hedge trimming', page: url('/hedges'), clicks: recent ? 1 : 4, impressions: 30, position: 6 });
    // Page two with real impressions: a quick win.
    rows.push({ date: day(back), query: 'tulip bulbs', page: url('/tulips'), clicks: 0, impressions: 12, position: 8 });
    // Seen, but far down: no page answers it.
    rows.push({ date: day(back), query: 'fern varieties', page: url('/'), clicks: 0, impressions: 3, position: 35 });
    // Two pages split the impressions of one query.
    rows.push({ date: day(back), query: 'lawn care', page: url('/lawn-a'), clicks: 0, impressions: 6, position: 9 });
    rows.push({ date: day(back), query: 'lawn care', page: url('/lawn-b'), clicks: 0, impressions: 5, position: 12 });
  }
  const repo = createSearchDataRepo(ctx.database.db);
  await repo.replaceQueryDays(siteId, [], rows);
  await repo.refreshKeywords(siteId, brandOf('shop.example.org'));
  await ctx.database.db.updateTable('sites').set({ search_synced_at: new Date() }).where('id', '=', siteId).execute();
});
after(() => ctx.close());

describe('the search-data planner', () => {
  it('proposes each search-data task type from its metrics, with the evidence and priority from traffic', async () => {
    const db = ctx.database.db;
    const tasks = createTasksService({ repo: createTasksRepo(db), sites: { getSite: async () => ({}) as never }, queue: { send: async () => null }, transact: transactor(db), search: createSearchDataService(createSearchDataRepo(db)), latestRollback: async () => undefined });
    const sites = createSitesService({ repo: createSitesRepo(db), allowPrivateTargets: false, queue: { send: async () => null } });
    const planner = createSearchPlanner({
      search: createSearchDataService(createSearchDataRepo(db)), keywords: createKeywordsService({ repo: createKeywordsRepo(db), sites }), sites,
      tasks, repo: createAgentsRepo(db), log: pino({ level: 'silent' }),
    });
    const result = await planner.proposeFromSearch(siteId);
    const stored = await db.selectFrom('tasks').select(['type', 'target', 'category', 'priority', 'configuration', 'evidence']).where('site_id', '=', siteId).execute();
    const byType = (type: string) => stored.filter((t) => t.type === type);
    assert.equal(result.proposed, stored.length);

    const title = byType('optimize_title_tag');
    assert.deepEqual(title.map((t) => t.target), [url('/roses')]);
    assert.equal((title[0]!.configuration as { top_query: string }).top_query, 'rose pruning');
    assert.equal(title[0]!.priority, 'medium', '1,120 impressions in 28 days');

    assert.deepEqual(byType('refresh_declining_content').map((t) => [t.target, (t.configuration as { previous_clicks: number }).previous_clicks]), [[url('/hedges'), 112]]);
    assert.ok(byType('prioritize_quick_wins').some((t) => t.target === 'keyword:tulip bulbs'));
    assert.deepEqual(byType('create_content_for_keyword').map((t) => t.target), ['keyword:fern varieties']);
    assert.equal(byType('create_content_for_keyword')[0]!.category, 'research');
    const merge = byType('consolidate_cannibalized_pages');
    assert.deepEqual(merge.map((t) => t.target), ['query:lawn care']);
    assert.deepEqual((merge[0]!.configuration as { pages: Array<{ page: string }> }).pages.map((p) => p.page), [url('/lawn-a'), url('/lawn-b')]);
    for (const t of stored) {
      const [evidence] = t.evidence as Array<{ source: string; synced_at: string; window_days: number }>;
      assert.deepEqual([evidence!.source, evidence!.window_days, typeof evidence!.synced_at], ['search_console', 28, 'string'], t.type);
    }

    // The next sync finds the same: no duplicates of open tasks.
    const again = await planner.proposeFromSearch(siteId);
    assert.deepEqual([again.proposed, again.rejected], [0, stored.length]);
  });
});
