import assert from 'node:assert/strict';
import { sitesServiceOn } from '../../../test/helpers/services.ts';
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
import { transactor } from '../../db/transact.ts';
import type { AuditsService } from '../audits/audits.service.ts';

let ctx: TestContext;
let owner: SignedInUser;
let siteId: string;
const latest = Date.UTC(2026, 10, 18);
const day = (back: number) => new Date(latest - back * 86_400_000).toISOString().slice(0, 10);
const url = (path: string) => `https://shop.example.org${path}`;

/** The site's latest audit as the planner reads it: each page's title, headline and text. */
const PAGES: Record<string, { title: string; text: string }> = {
  '/roses': { title: 'Roses – Shop', text: 'Our roses are grown in the Weald. Pruning in February keeps them flowering.' },
  '/tulips': { title: 'Tulips for spring – Shop', text: 'Plant tulip bulbs in November, three times as deep as they are tall.' },
  '/hedges': { title: 'Hedges – Shop', text: 'Trimming a hedge in late summer keeps it dense.' },
  // One page, many queries: one title can serve some of them, not all.
  '/ferns': { title: 'Ferns – Shop', text: 'Fern care is simple: keep the soil moist. Ferns for shade and ferns in pots. Hart\'s-tongue fern varieties.' },
  // Its title already says the query: what is missing is elsewhere.
  '/herbs': { title: 'Herb garden ideas – Shop', text: 'A herb garden by the kitchen door. Our herb garden ideas start with thyme and sage.' },
  '/herb-pots': { title: 'Herbs in pots – Shop', text: 'Growing herbs in pots on a sunny sill: a herb garden for small spaces.' },
  '/': { title: 'Garden shop – Shop', text: 'The garden shop in the Weald.' },
  '/lawn-a': { title: 'Lawn care – Shop', text: 'Lawn care through the year.' },
  '/lawn-b': { title: 'Mowing – Shop', text: 'Lawn care starts with mowing.' },
};
const audits: Pick<AuditsService, 'latestCompleted' | 'pages' | 'pageContents'> = {
  latestCompleted: async () => ({ id: 'audit-1' }) as never,
  pages: async () => Object.entries(PAGES).map(([path, p]) => ({ url: url(path), status: 200, title: p.title, inlinks: 3 })) as never,
  pageContents: async (_audit, urls) => urls.map((u) => {
    const page = PAGES[new URL(u).pathname]!;
    return { url: u, content: { headings: [{ level: 1, text: page.title.replace(' – Shop', '') }], blocks: [page.text] } };
  }) as never,
};

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
    // A quick win on page one.
    rows.push({ date: day(back), query: 'tulip bulbs', page: url('/tulips'), clicks: 0, impressions: 12, position: 8 });
    // Four quick wins on one page: the largest gets its title, one the same title says rides along, the others are refused.
    rows.push({ date: day(back), query: 'fern care', page: url('/ferns'), clicks: 0, impressions: 30, position: 6 });
    rows.push({ date: day(back), query: 'fern care ferns', page: url('/ferns'), clicks: 0, impressions: 6, position: 9 });
    rows.push({ date: day(back), query: 'ferns for shade', page: url('/ferns'), clicks: 0, impressions: 20, position: 7 });
    rows.push({ date: day(back), query: 'fern delivery', page: url('/ferns'), clicks: 0, impressions: 10, position: 8 });
    // The title already says it.
    rows.push({ date: day(back), query: 'herb garden ideas', page: url('/herbs'), clicks: 0, impressions: 15, position: 6 });
    // Seen, but far down: no page answers it.
    rows.push({ date: day(back), query: 'fern varieties', page: url('/'), clicks: 0, impressions: 3, position: 35 });
    // A related query no page serves on page one (too few impressions for a page of its own).
    rows.push({ date: day(back), query: 'fern varieties for shade', page: url('/'), clicks: 0, impressions: 1, position: 40 });
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

function plannerFor() {
  const db = ctx.database.db;
  const tasks = createTasksService({ repo: createTasksRepo(db), sites: { getSite: async () => ({}) as never, requireAccess: async () => 'owner' as const }, queue: { send: async () => null }, transact: transactor(db), events: { emit: async () => 0 }, search: createSearchDataService(createSearchDataRepo(db)), latestRollback: async () => undefined });
  const sites = sitesServiceOn(db);
  return createSearchPlanner({
    search: createSearchDataService(createSearchDataRepo(db)), keywords: createKeywordsService({ repo: createKeywordsRepo(db), sites }), sites,
    audits, tasks, repo: createAgentsRepo(db), log: pino({ level: 'silent' }),
  });
}
const rejections = () => ctx.database.db.selectFrom('task_rejections').select(['type', 'target', 'reason']).where('site_id', '=', siteId).execute();

describe('the search-data planner', () => {
  it('proposes concrete titles, briefs and estimates from the search data, one title per page', async () => {
    const db = ctx.database.db;
    const result = await plannerFor().proposeFromSearch(siteId);
    const stored = await db.selectFrom('tasks').select(['type', 'target', 'category', 'priority', 'configuration', 'evidence', 'expected_clicks', 'claims']).where('site_id', '=', siteId).execute();
    const byType = (type: string) => stored.filter((t) => t.type === type);
    const config = (t: (typeof stored)[number]) => t.configuration as Record<string, unknown>;
    assert.equal(result.proposed, stored.length);

    // Pages searchers skip: their titles rewritten around their top query, the site's suffix kept.
    const titles = new Map(byType('optimize_title_tag').map((t) => [t.target, t]));
    assert.deepEqual([...titles.keys()].sort(), [url('/ferns'), url('/roses')]);
    const roses = titles.get(url('/roses'))!;
    assert.deepEqual([config(roses).top_query, config(roses).before, config(roses).after], ['rose pruning', 'Roses – Shop', 'Rose pruning: Roses – Shop']);
    assert.deepEqual(roses.claims, [`${url('/roses')}#title`]);
    // On /ferns, four queries: the largest gain wins the title (a title too short alone keeps the page's own), "fern care ferns" rides along, the others are refused with the reason.
    const ferns = config(titles.get(url('/ferns'))!);
    assert.deepEqual([ferns.top_query, ferns.after, ferns.also_serves], ['fern care', 'Fern care: Ferns – Shop', ['fern care ferns']]);

    // Quick wins: concrete titles.
    const wins = new Map(byType('prioritize_quick_wins').map((t) => [config(t).keyword, config(t)]));
    assert.equal(wins.get('tulip bulbs')!.after, 'Tulip bulbs: Tulips for spring – Shop');
    const tulips = byType('prioritize_quick_wins').find((t) => config(t).keyword === 'tulip bulbs')!;
    assert.match((await db.selectFrom('tasks').select('description').where('site_id', '=', siteId).where('target', '=', tulips.target).where('type', '=', 'prioritize_quick_wins').executeTakeFirstOrThrow()).description,
      /the new title leads with it and keeps "Tulips for spring" from the current title\./);
    assert.ok(!wins.has('ferns for shade') && !wins.has('fern delivery') && !wins.has('fern care ferns') && !wins.has('fern care'));
    const refused = await rejections();
    const why = (target: string) => refused.filter((r) => r.target === target).map((r) => r.reason).join(' | ');
    assert.match(why('keyword:ferns for shade'), /the title of .*\/ferns is proposed for "fern care" \(about \+\d+ clicks \/ 28 days\), which gains more/);
    assert.match(why('keyword:fern delivery'), /never says "delivery"/);
    // No two open tasks change one field of one page.
    const claims = stored.flatMap((t) => t.claims);
    assert.equal(new Set(claims).size, claims.length, claims.join(', '));

    // The title already says the query: a brief for links from related pages, never the title again.
    const strengthen = byType('strengthen_page_for_query');
    assert.deepEqual(strengthen.map((t) => config(t).keyword), ['herb garden ideas']);
    assert.deepEqual((config(strengthen[0]!).link_from as Array<{ url: string }>).map((p) => p.url), [url('/herb-pots'), url('/')]);
    assert.deepEqual(strengthen[0]!.claims, []);

    assert.deepEqual(byType('refresh_declining_content').map((t) => [t.target, config(t).previous_clicks]), [[url('/hedges'), 112]]);
    const page = byType('create_content_for_keyword');
    assert.deepEqual(page.map((t) => t.target), ['keyword:fern varieties']);
    // Related: only what no page serves on page one ("fern care" at 6 stays with /ferns).
    assert.deepEqual((config(page[0]!).related_queries as Array<{ query: string }>).map((r) => r.query), ['fern varieties for shade']);
    assert.equal((config(page[0]!).outline as string[])[0], 'Fern varieties');
    assert.deepEqual((config(page[0]!).link_from as Array<{ url: string }>).map((p) => p.url), [url('/ferns')]);
    const merge = byType('consolidate_cannibalized_pages');
    assert.deepEqual(merge.map((t) => [t.target, config(t).keep]), [['query:lawn care', url('/lawn-a')]]);
    assert.deepEqual((config(merge[0]!).others as Array<{ url: string; action: string }>).map((o) => [o.url, o.action]), [[url('/lawn-b'), 'redirect']]);

    for (const t of stored) {
      const [evidence] = t.evidence as Array<{ source: string; synced_at: string; window_days: number }>;
      assert.deepEqual([evidence!.source, evidence!.window_days, typeof evidence!.synced_at], ['search_console', 28, 'string'], t.type);
      const e = t.expected_clicks!;
      assert.ok(e && e.low <= e.clicks && e.clicks <= e.high && e.method.length > 0, `${t.type} has its expected clicks`);
    }
    // Priority follows the expected clicks.
    for (const t of stored) assert.equal(t.priority, t.expected_clicks!.clicks >= 100 ? 'high' : t.expected_clicks!.clicks >= 20 ? 'medium' : 'low');

    // The next sync finds the same: no duplicates of open tasks.
    const again = await plannerFor().proposeFromSearch(siteId);
    assert.equal(again.proposed, 0);
  });

  it('never proposes a title for a page whose title an open task already changes, and says which', async () => {
    const db = ctx.database.db;
    const other = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop 2', domain: 'shop2.example.org' } })).data.id as string;
    const rows: QueryPageDay[] = [];
    for (let back = 0; back < 28; back++) rows.push({ date: day(back), query: 'tulip bulbs', page: url('/tulips'), clicks: 0, impressions: 12, position: 8 });
    const repo = createSearchDataRepo(db);
    await repo.replaceQueryDays(other, [], rows);
    await repo.refreshKeywords(other, undefined);
    await db.updateTable('sites').set({ search_synced_at: new Date() }).where('id', '=', other).execute();
    // The audit's title fix for the same page, still awaiting approval.
    await createTasksRepo(db).insertProposal({
      siteId: other, type: 'fix_title_tag', category: 'seo', priority: 'medium', title: 'Fix the title', description: 'd', target: url('/tulips'),
      configuration: { url: url('/tulips'), before: 'Tulips', after: 'Tulips for spring – Shop' }, evidence: [{ check_id: 'title_too_short' }], claims: [`${url('/tulips')}#title`],
    });
    await plannerFor().proposeFromSearch(other);
    const quickWins = await db.selectFrom('tasks').select('id').where('site_id', '=', other).where('type', '=', 'prioritize_quick_wins').execute();
    assert.equal(quickWins.length, 0);
    const refused = await db.selectFrom('task_rejections').select('reason').where('site_id', '=', other).where('target', '=', url('/tulips')).where('type', '=', 'prioritize_quick_wins').executeTakeFirstOrThrow();
    assert.match(refused.reason, /the open task "Fix the title" already changes the title of https:\/\/shop.example.org\/tulips/);
  });
});
