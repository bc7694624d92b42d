import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { brandOf } from '../search-data/intent.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';

let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let siteId: string;

const latest = Date.UTC(2026, 10, 18);
const day = (offset: number) => new Date(latest - offset * 86_400_000).toISOString().slice(0, 10);
const page = (path: string) => `https://garden-shop.example.org${path}`;

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop', domain: 'garden-shop.co.uk' } })).data.id;
  const rows = [];
  for (let o = 0; o < 14; o++) {
    // "prune roses": position 3 this week on /roses (most clicks), 6 the week before; /guide gets fewer clicks.
    rows.push({ date: day(o), query: 'prune roses', page: page('/roses'), clicks: 9, impressions: 100, position: o < 7 ? 3 : 6 });
    rows.push({ date: day(o), query: 'prune roses', page: page('/guide'), clicks: 1, impressions: 100, position: o < 7 ? 3 : 6 });
    // "buy tulips": worse this week (12) than before (8).
    rows.push({ date: day(o), query: 'buy tulips', page: page('/tulips'), clicks: 1, impressions: 50, position: o < 7 ? 12 : 8 });
    // "garden shop opening hours": the site's own name: navigational; unchanged at 1.
    rows.push({ date: day(o), query: 'garden shop opening hours', page: page('/'), clicks: 20, impressions: 30, position: 1 });
  }
  rows.push({ date: day(20), query: 'best ferns for shade', page: page('/ferns'), clicks: 0, impressions: 10, position: 30 });
  const repo = createSearchDataRepo(ctx.database.db);
  await repo.replaceQueryDays(siteId, [...new Set(rows.map((r) => r.date))], rows);
  await repo.replaceQueryDays(siteId, [...new Set(rows.map((r) => r.date))], rows); // idempotent
  await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: siteId, keyword: 'Buy  Tulips' } });
  await repo.refreshKeywords(siteId, brandOf('garden-shop.co.uk'));
});
after(() => ctx.close());

const get = (url: string, token = owner.accessToken) => call(ctx, { method: 'GET', url, token });

describe('keywords', () => {
  it('come from Search Console: positions over the last 7 days of data and the 7 before, the most clicked page, intent by rules', async () => {
    const res = await get(`/api/v1/keywords?site_id=${siteId}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual([res.data.page, res.data.page_size, res.data.total], [1, 50, 4]);
    const byKeyword = new Map(res.data.items.map((k: { keyword: string }) => [k.keyword, k]));
    assert.deepEqual(byKeyword.get('prune roses'), {
      ...byKeyword.get('prune roses') as object,
      current_position: 3, previous_position: 6, url: page('/roses'), intent: 'informational', source: 'search_console', volume_source: 'estimated',
    });
    const tulips = byKeyword.get('buy tulips') as Record<string, unknown>;
    assert.deepEqual([tulips.current_position, tulips.previous_position, tulips.intent, tulips.source], [12, 8, 'transactional', 'manual'], 'the hand-added keyword filled in, still marked manual');
    assert.equal((byKeyword.get('garden shop opening hours') as { intent: string }).intent, 'navigational');
    const ferns = byKeyword.get('best ferns for shade') as Record<string, unknown>;
    assert.deepEqual([ferns.intent, ferns.current_position], ['commercial', null], 'no data in its last 7 days: not ranking now');
    assert.equal(res.data.items[0].keyword, 'garden shop opening hours', 'most clicked first');
    const roses = byKeyword.get('prune roses') as { search_volume: number; difficulty: number };
    assert.equal(roses.search_volume, Math.round((2800 * 30) / 28));
    assert.ok(roses.difficulty > 0 && roses.difficulty <= 100);
  });

  it('sum up in stats, with position changes', async () => {
    const res = await get(`/api/v1/keywords/stats?site_id=${siteId}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual({ ...res.data, total_search_volume: undefined }, {
      total_keywords: 4, keywords_in_top_3: 2, keywords_in_top_10: 2, keywords_in_top_100: 3, average_position: 5.3,
      total_search_volume: undefined, position_changes: { improved: 1, declined: 1, unchanged: 1 },
    });
  });

  it('page with page and page_size (default 50, at most 200)', async () => {
    const second = await get(`/api/v1/keywords?site_id=${siteId}&page=2&page_size=3`);
    assert.deepEqual([second.data.items.length, second.data.total, second.data.page], [1, 4, 2]);
    assert.equal((await get(`/api/v1/keywords?site_id=${siteId}&page_size=201`)).statusCode, 422);
  });

  it('sort over the whole list before paging, missing values last, and refuse an unknown sort with 422', async () => {
    const order = async (query: string) => {
      const keywords: string[] = [];
      for (let p = 1; p <= 4; p++) keywords.push(...(await get(`/api/v1/keywords?site_id=${siteId}&${query}&page_size=1&page=${p}`)).data.items.map((k: { keyword: string }) => k.keyword));
      return keywords;
    };
    assert.deepEqual(await order('sort=position'), ['garden shop opening hours', 'prune roses', 'buy tulips', 'best ferns for shade'], 'best position first, the unranked last');
    assert.deepEqual(await order('sort=position&order=desc'), ['buy tulips', 'prune roses', 'garden shop opening hours', 'best ferns for shade'], 'still last when descending');
    assert.deepEqual(await order('sort=change'), ['prune roses', 'garden shop opening hours', 'buy tulips', 'best ferns for shade'], 'most gained first');
    assert.deepEqual(await order('sort=keyword'), ['best ferns for shade', 'buy tulips', 'garden shop opening hours', 'prune roses']);
    for (const q of ['sort=colour', 'sort=position;drop table keywords', 'order=up']) {
      assert.equal((await get(`/api/v1/keywords?site_id=${siteId}&${q}`)).statusCode, 422, q);
    }
  });

  it('can be added by hand (409 twice, 422 when blank) and removed (404 for another user\'s)', async () => {
    const added = await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: siteId, keyword: 'Lavender hedges' } });
    assert.equal(added.statusCode, 201);
    assert.deepEqual([added.data.keyword, added.data.source, added.data.current_position], ['lavender hedges', 'manual', null]);
    assert.equal((await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: siteId, keyword: 'lavender HEDGES' } })).statusCode, 409);
    assert.equal((await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: siteId, keyword: '   ' } })).statusCode, 422);
    assert.equal((await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: other.accessToken, payload: { site_id: siteId, keyword: 'x' } })).statusCode, 404);
    assert.equal((await call(ctx, { method: 'DELETE', url: `/api/v1/keywords/${added.data.id}`, token: other.accessToken })).statusCode, 404);
    assert.equal((await call(ctx, { method: 'DELETE', url: `/api/v1/keywords/${added.data.id}`, token: owner.accessToken })).statusCode, 204);
    assert.equal((await call(ctx, { method: 'DELETE', url: `/api/v1/keywords/${added.data.id}`, token: owner.accessToken })).statusCode, 404);
  });

  it('export every keyword as CSV in the list\'s order, with clicks, impressions and the places gained (404, 422, 401 as the list)', async () => {
    const res = await get(`/api/v1/keywords/export?site_id=${siteId}&sort=position`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="garden-shop.co.uk-keywords.csv"');
    const [heading, ...rows] = res.rawPayload.subarray(3).toString('utf8').trim().split('\n');
    assert.equal(heading, 'keyword,position,previous_position,positions_gained,clicks_28d,impressions_28d,url,intent,source,tags,search_volume,volume_source,difficulty,updated_at');
    assert.deepEqual(rows.map((r) => r.split(',')[0]), ['garden shop opening hours', 'prune roses', 'buy tulips', 'best ferns for shade']);
    assert.deepEqual(rows[1]!.split(',').slice(0, 9), ['prune roses', '3', '6', '3', '140', '2800', page('/roses'), 'informational', 'search_console']);
    assert.deepEqual(rows[3]!.split(',').slice(1, 4), ['', '', ''], 'not ranking now: no position, no change');
    assert.equal((await get(`/api/v1/keywords/export?site_id=${siteId}`, other.accessToken)).statusCode, 404);
    assert.equal((await get(`/api/v1/keywords/export?site_id=${siteId}&page_size=10`)).statusCode, 422);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/keywords/export?site_id=${siteId}` }, owner);
  });

  it('give a keyword\'s rank history: every day\'s position, clicks and page, the days another page took over, and when Search Console last saw it', async () => {
    const herbs = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Herbs', domain: 'herbs.example.org' } })).data.id;
    const repo = createSearchDataRepo(ctx.database.db);
    const herb = (path: string) => `https://herbs.example.org${path}`;
    const rows = [];
    // 9 to 6 days back: /oil ranks 8th; 5 days back nothing; then /guide takes over at 4th (and /oil shows less).
    for (let o = 9; o >= 6; o--) rows.push({ date: day(o), query: 'lavender oil', page: herb('/oil'), clicks: 1, impressions: 10, position: 8 });
    for (let o = 4; o >= 0; o--) {
      rows.push({ date: day(o), query: 'lavender oil', page: herb('/guide'), clicks: 3, impressions: 30, position: 4 });
      rows.push({ date: day(o), query: 'lavender oil', page: herb('/oil'), clicks: 0, impressions: 10, position: 12 });
    }
    await repo.replaceQueryDays(herbs, [...new Set(rows.map((r) => r.date))], rows);
    await repo.refreshKeywords(herbs, brandOf('herbs.example.org'));
    const added = await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: herbs, keyword: 'dried lavender' } });
    const id = (await get(`/api/v1/keywords?site_id=${herbs}`)).data.items.find((k: { keyword: string }) => k.keyword === 'lavender oil').id;

    const res = await get(`/api/v1/keywords/${id}/history?start=${day(9)}&end=${day(0)}`);
    assert.equal(res.statusCode, 200, res.body);
    const h = res.data;
    assert.deepEqual([h.keyword, h.source, h.period, h.last_seen], ['lavender oil', 'search_console', { start: day(9), end: day(0), days: 10 }, day(0)]);
    assert.equal(h.days.length, 10);
    assert.deepEqual(h.days[0], { date: day(9), position: 8, clicks: 1, impressions: 10, page: herb('/oil') });
    assert.deepEqual(h.days[4], { date: day(5), position: null, clicks: 0, impressions: 0, page: null }, 'a day without data has no position');
    assert.deepEqual(h.days[9], { date: day(0), position: 6, clicks: 3, impressions: 40, page: herb('/guide') }, '(30 x 4 + 10 x 12) / 40; the page shown most');
    assert.deepEqual(h.page_changes, [{ date: day(4), from: herb('/oil'), to: herb('/guide') }]);
    assert.deepEqual(h.totals, { clicks: 19, impressions: 240, position: 6.3, best_position: 6 });

    const manual = await get(`/api/v1/keywords/${added.data.id}/history?start=${day(9)}&end=${day(0)}`);
    assert.deepEqual([manual.data.source, manual.data.last_seen, manual.data.days.every((d: { position: null }) => d.position === null)], ['manual', null, true], 'never seen by Search Console: no position, said so');

    assert.equal((await get(`/api/v1/keywords/${id}/history`, other.accessToken)).statusCode, 404, "another user's keyword");
    assert.equal((await get(`/api/v1/keywords/${randomUUID()}/history`)).statusCode, 404);
    for (const q of ['period=1y', `start=${day(3)}`, 'colour=red']) assert.equal((await get(`/api/v1/keywords/${id}/history?${q}`)).statusCode, 422, q);
    assert.equal((await get('/api/v1/keywords/not-a-uuid/history')).statusCode, 422);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/keywords/${id}/history` }, owner);
  });

  it('filter by search, intent, position band, change and tag, in the list and the export', async () => {
    const keys = async (query: string) => (await get(`/api/v1/keywords?site_id=${siteId}&sort=keyword&${query}`)).data.items.map((k: { keyword: string }) => k.keyword);
    assert.deepEqual(await keys('search=ROS'), ['prune roses']);
    assert.deepEqual(await keys('search=_'), [], 'a LIKE wildcard is literal');
    assert.deepEqual(await keys('intent=navigational'), ['garden shop opening hours']);
    assert.deepEqual(await keys('position=1-3'), ['garden shop opening hours', 'prune roses']);
    assert.deepEqual(await keys('position=11-20'), ['buy tulips']);
    assert.deepEqual(await keys('position=unranked'), ['best ferns for shade']);
    assert.deepEqual(await keys('change=improved'), ['prune roses']);
    assert.deepEqual(await keys('change=declined'), ['buy tulips']);
    const filtered = await get(`/api/v1/keywords?site_id=${siteId}&position=1-3&page_size=1`);
    assert.equal(filtered.data.total, 2, 'the total counts the filtered list');
    for (const q of ['position=1-5', 'change=better', 'intent=curious', 'search=', 'tag=%20x']) {
      assert.equal((await get(`/api/v1/keywords?site_id=${siteId}&${q}`)).statusCode, 422, q);
    }
    const exported = await get(`/api/v1/keywords/export?site_id=${siteId}&position=1-3&sort=keyword`);
    assert.deepEqual(exported.rawPayload.subarray(3).toString('utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]), ['garden shop opening hours', 'prune roses']);
  });

  it('take tags from an editor (a viewer gets 403, a stranger 404), keep them through a sync, and filter by them', async () => {
    const workspace = (await call(ctx, { method: 'POST', url: '/api/v1/workspaces', token: owner.accessToken, payload: { name: 'Tagged' } })).data.id;
    const shared = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Tagged', domain: 'tagged.example.org', workspace_id: workspace } })).data.id;
    const viewer = await signUp(ctx);
    const invited = await call(ctx, { method: 'POST', url: `/api/v1/workspaces/${workspace}/invitations`, token: owner.accessToken, payload: { email: viewer.email, role: 'viewer' } });
    await call(ctx, { method: 'POST', url: `/api/v1/invitations/${invited.data.token}/accept`, token: viewer.accessToken });
    const repo = createSearchDataRepo(ctx.database.db);
    const rows = [{ date: day(0), query: 'mint tea', page: 'https://tagged.example.org/tea', clicks: 2, impressions: 20, position: 3 },
      { date: day(0), query: 'mint plant', page: 'https://tagged.example.org/plant', clicks: 1, impressions: 20, position: 9 }];
    await repo.replaceQueryDays(shared, [day(0)], rows);
    await repo.refreshKeywords(shared, undefined);
    const list = (await get(`/api/v1/keywords?site_id=${shared}&sort=keyword`)).data.items;
    const [plant, tea] = list.map((k: { id: string }) => k.id);
    const patch = (id: string, payload: object, token = owner.accessToken) => call(ctx, { method: 'PATCH', url: `/api/v1/keywords/${id}`, token, payload });

    const tagged = await patch(tea, { tags: ['Drinks', 'summer 2026'] });
    assert.equal(tagged.statusCode, 200, tagged.body);
    assert.deepEqual([tagged.data.keyword, tagged.data.tags], ['mint tea', ['Drinks', 'summer 2026']]);
    await patch(plant, { tags: ['summer 2026'] });
    assert.equal((await patch(tea, { tags: ['x'] }, viewer.accessToken)).statusCode, 403, 'a viewer reads, but does not tag');
    assert.equal((await patch(tea, { tags: ['x'] }, other.accessToken)).statusCode, 404);
    assert.equal((await patch(randomUUID(), { tags: ['x'] })).statusCode, 404);
    for (const tags of [['a', 'a'], [''], [' padded'], ['x'.repeat(41)], Array.from({ length: 21 }, (_, i) => `t${i}`), ['line\nbreak']]) {
      assert.equal((await patch(tea, { tags })).statusCode, 422, JSON.stringify(tags));
    }
    assert.equal((await patch(tea, { tags: ['ok'], colour: 'red' })).statusCode, 422);

    await repo.refreshKeywords(shared, undefined);
    const keys = async (query: string, token = owner.accessToken) => (await get(`/api/v1/keywords?site_id=${shared}&sort=keyword&${query}`, token)).data.items.map((k: { keyword: string }) => k.keyword);
    assert.deepEqual(await keys('tag=summer 2026', viewer.accessToken), ['mint plant', 'mint tea'], 'kept through the sync; a viewer filters too');
    assert.deepEqual(await keys('tag=Drinks'), ['mint tea']);
    assert.deepEqual(await keys('tag=drinks'), [], 'a tag is matched as written');
    const tags = await get(`/api/v1/keywords/tags?site_id=${shared}`, viewer.accessToken);
    assert.deepEqual(tags.data.items, [{ tag: 'summer 2026', keywords: 2 }, { tag: 'Drinks', keywords: 1 }]);
    assert.equal((await get(`/api/v1/keywords/tags?site_id=${shared}`, other.accessToken)).statusCode, 404);
    const csv = (await get(`/api/v1/keywords/export?site_id=${shared}&tag=Drinks`)).rawPayload.subarray(3).toString('utf8');
    assert.match(csv, /,Drinks; summer 2026,/);
    // A keyword is anyone's text: one a spreadsheet would run as a formula is written with a leading apostrophe.
    await call(ctx, { method: 'POST', url: '/api/v1/keywords', token: owner.accessToken, payload: { site_id: shared, keyword: '=HYPERLINK("http://evil.example","x")' } });
    const all = (await get(`/api/v1/keywords/export?site_id=${shared}&sort=keyword`)).rawPayload.subarray(3).toString('utf8');
    assert.ok(all.split('\n').some((line) => line.startsWith(`"'=hyperlink(""http://evil.example"",""x"")",`)), all);
    await assertRejectsBadTokens(ctx, { method: 'PATCH', url: `/api/v1/keywords/${tea}`, payload: { tags: [] } }, owner);
  });

  it('are 404 for another user\'s site, 422 without site_id, 401 without a token', async () => {
    assert.equal((await get(`/api/v1/keywords?site_id=${siteId}`, other.accessToken)).statusCode, 404);
    assert.equal((await get(`/api/v1/keywords/stats?site_id=${siteId}`, other.accessToken)).statusCode, 404);
    assert.equal((await get(`/api/v1/keywords/stats?site_id=${randomUUID()}`)).statusCode, 404);
    assert.equal((await get('/api/v1/keywords')).statusCode, 422);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/keywords/stats?site_id=${siteId}` }, owner);
  });
});
