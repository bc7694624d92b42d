import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo, type QueryPageDay } from '../search-data/search-data.repo.ts';
import { reportRange } from './report-periods.ts';

let ctx: TestContext;
let owner: SignedInUser, viewer: SignedInUser, outsider: SignedInUser;
let siteId: string;
let bareSiteId: string;

/** Search Console's last day: yesterday, Pacific Time. */
const yesterday = pacificToday() - DAY_MS;
const day = (back: number) => isoDate(yesterday - back * DAY_MS);
const url = (query: string, user = owner) => call(ctx, { method: 'GET', url: `/api/v1/analytics/performance?site_id=${siteId}${query}`, token: user.accessToken });

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, viewer, outsider] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx)]);
  const api = (user: SignedInUser, method: 'POST', path: string, payload: object) => call(ctx, { method, url: `/api/v1${path}`, token: user.accessToken, payload });
  const workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Agency' })).data.id;
  siteId = (await api(owner, 'POST', '/sites', { name: 'Garden', domain: 'garden-report.example.org', workspace_id: workspaceId })).data.id;
  bareSiteId = (await api(owner, 'POST', '/sites', { name: 'Bare', domain: 'bare-report.example.org' })).data.id;
  const invited = await api(owner, 'POST', `/workspaces/${workspaceId}/invitations`, { email: viewer.email, role: 'viewer' });
  assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/invitations/${invited.data.token}/accept`, token: viewer.accessToken })).statusCode, 200);

  const repo = createSearchDataRepo(ctx.database.db);
  // The property: 10 clicks a day in the last 28 days, 5 a day in the 28 before (position 4 and 6).
  await repo.upsertSearchDays(siteId, Array.from({ length: 56 }, (_, back) => back < 28
    ? { date: day(back), clicks: 10, impressions: 100, ctr: 0.1, position: 4 }
    : { date: day(back), clicks: 5, impressions: 100, ctr: 0.05, position: 6 }));
  // Queries: "roses" grew, "tulips 50%" is new, "ferns" was lost; "rose_food" holds an underscore (a LIKE wildcard).
  const rows: QueryPageDay[] = [];
  for (let back = 0; back < 56; back++) {
    const now = back < 28;
    rows.push({ date: day(back), query: 'roses', page: 'https://garden-report.example.org/roses', clicks: now ? 3 : 1, impressions: 20, position: now ? 2 : 5 });
    if (now) rows.push({ date: day(back), query: 'tulips 50%', page: 'https://garden-report.example.org/tulips', clicks: 1, impressions: 10, position: 8 });
    else rows.push({ date: day(back), query: 'ferns', page: 'https://garden-report.example.org/ferns', clicks: 2, impressions: 10, position: 3 });
    if (back === 0) rows.push({ date: day(back), query: 'rose_food', page: 'https://garden-report.example.org/roses', clicks: 0, impressions: 4, position: 12 });
  }
  await repo.replaceQueryDays(siteId, [], rows);
});
after(() => ctx.close());

describe('the performance report', () => {
  it('gives the property\'s totals and days against the 28 days before, and its queries by clicks', async () => {
    const res = await url('');
    assert.equal(res.statusCode, 200, res.body);
    const r = res.data;
    assert.deepEqual(r.period, { start: day(27), end: day(0), days: 28 });
    assert.deepEqual(r.comparison, { mode: 'previous', start: day(55), end: day(28), has_data: true });
    assert.equal(r.filtered, false);
    assert.equal(r.rows_from, day(55), 'the first day of query rows');
    assert.deepEqual(r.totals, {
      current: { clicks: 280, impressions: 2800, ctr: 0.1, position: 4 },
      previous: { clicks: 140, impressions: 2800, ctr: 0.05, position: 6 },
      change: { clicks: 100, impressions: 0, ctr: 5, position: -2 },
    });
    assert.equal(r.days.length, 28);
    assert.deepEqual(r.days[27], { date: day(0), final: true, clicks: 10, impressions: 100, ctr: 0.1, position: 4, previous: { date: day(28), clicks: 5, impressions: 100, ctr: 0.05, position: 6 } });
    assert.ok(r.days.every((d: { final: boolean }) => d.final), 'the period ends at the last day synced');
    assert.deepEqual(r.rows.items.map((i: { key: string; clicks: number }) => [i.key, i.clicks]), [['roses', 84], ['tulips 50%', 28], ['ferns', 0], ['rose_food', 0]]);
    assert.deepEqual(r.rows.items[0], {
      key: 'roses', clicks: 84, impressions: 560, ctr: 0.15, position: 2,
      previous: { clicks: 28, impressions: 560, ctr: 0.05, position: 5 }, change: { clicks: 200, impressions: 0, ctr: 10, position: -3 },
    });
    assert.equal(r.rows.items[2].previous.clicks, 56, 'a lost query keeps its figures of before');
    assert.deepEqual([r.rows.total, r.rows.page, r.rows.page_size], [4, 1, 50]);
  });

  it('sorts by a change, position best first by default, and lists pages', async () => {
    assert.deepEqual((await url('&sort=clicks_change&order=asc')).data.rows.items.map((i: { key: string }) => i.key), ['ferns', 'rose_food', 'tulips 50%', 'roses']);
    assert.deepEqual((await url('&sort=position')).data.rows.items.map((i: { key: string }) => i.key), ['roses', 'tulips 50%', 'rose_food', 'ferns'], 'no position this period: last');
    const pages = (await url('&dimension=page')).data.rows;
    assert.equal(pages.dimension, 'page');
    assert.deepEqual(pages.items.map((i: { key: string; clicks: number }) => [i.key, i.clicks]),
      [['https://garden-report.example.org/roses', 84], ['https://garden-report.example.org/tulips', 28], ['https://garden-report.example.org/ferns', 0]]);
  });

  it('narrows totals, days and table with a filter, and the table alone with a search; a filter\'s % and _ are literal', async () => {
    const roses = (await url('&query_contains=ROSES')).data;
    assert.equal(roses.filtered, true);
    assert.deepEqual(roses.totals.current, { clicks: 84, impressions: 560, ctr: 0.15, position: 2 });
    assert.equal(roses.days[0].clicks, 3);
    assert.deepEqual(roses.rows.items.map((i: { key: string }) => i.key), ['roses']);
    assert.deepEqual((await url('&query_contains=_')).data.rows.items.map((i: { key: string }) => i.key), ['rose_food']);
    assert.deepEqual((await url('&query_contains=%25')).data.rows.items.map((i: { key: string }) => i.key), ['tulips 50%']);
    assert.deepEqual((await url('&query_not_contains=rose&page_contains=/tulips')).data.totals.current.clicks, 28);
    assert.deepEqual((await url('&page_equals=https://garden-report.example.org/roses&dimension=page')).data.rows.items.map((i: { key: string }) => i.key), ['https://garden-report.example.org/roses']);
    assert.deepEqual((await url('&query_equals=Roses')).data.totals.current.clicks, 84);
    const searched = (await url('&search=tul')).data;
    assert.deepEqual(searched.rows.items.map((i: { key: string }) => i.key), ['tulips 50%']);
    assert.equal(searched.totals.current.clicks, 280, 'a search narrows the table only');
  });

  it('compares with nothing, or with the same dates a year before (which the data does not reach)', async () => {
    const none = (await url('&compare=none')).data;
    assert.equal(none.comparison, null);
    assert.equal(none.totals.previous, null);
    assert.equal(none.totals.change, null);
    assert.equal(none.days[0].previous, null);
    assert.equal(none.rows.items[0].previous, null);
    assert.deepEqual(none.rows.items.map((i: { key: string }) => i.key), ['roses', 'tulips 50%', 'rose_food'], 'without a comparison only this period\'s rows');
    assert.deepEqual((await url('&compare=none&sort=ctr_change')).data.rows.items.map((i: { key: string }) => i.key), ['roses', 'tulips 50%', 'rose_food'],
      'a change\'s sort without a comparison is its metric\'s (CTR, highest first), not the keys\' order');
    const year = (await url('&compare=year&period=7d')).data;
    assert.equal(year.comparison.has_data, false);
    const [y, monthDay] = [Number(day(0).slice(0, 4)), day(0).slice(5)];
    assert.equal(year.comparison.end, monthDay === '02-29' ? `${y - 1}-02-28` : `${y - 1}-${monthDay}`);
    assert.equal(year.totals.previous.clicks, 0);
    assert.equal(year.totals.change.clicks, null, 'no change against nothing');
  });

  it('says where query rows begin: filtered figures before them are unknown (not final), and the comparison lacks data', async () => {
    // The totals reach back 56 days, like the query rows; 90 days go past both.
    const quarter = (await url('&period=90d&query_contains=roses')).data;
    assert.equal(quarter.rows_from, day(55));
    assert.deepEqual([quarter.days[0].date, quarter.days[0].final, quarter.days[0].clicks], [day(89), false, 0], 'before the rows: unknown');
    assert.equal(quarter.days.find((d: { date: string }) => d.date === day(55)).final, true);
    assert.equal(quarter.comparison.has_data, false);
  });

  it('takes custom dates, and pages the table (a page past the end still counts the rows)', async () => {
    const custom = (await url(`&start=${day(9)}&end=${day(0)}`)).data;
    assert.deepEqual(custom.period, { start: day(9), end: day(0), days: 10 });
    const bare = (await call(ctx, { method: 'GET', url: `/api/v1/analytics/performance?site_id=${bareSiteId}&period=7d`, token: owner.accessToken })).data;
    assert.deepEqual([bare.totals.current.clicks, bare.days.length, bare.days.some((d: { final: boolean }) => d.final)], [0, 7, false], 'no day synced: no zero is final');
    assert.equal(bare.comparison.has_data, false);
    assert.deepEqual(custom.comparison, { mode: 'previous', start: day(19), end: day(10), has_data: true });
    const second = (await url('&page_size=1&page=2')).data.rows;
    assert.deepEqual([second.items.map((i: { key: string }) => i.key), second.total], [['tulips 50%'], 4]);
    const past = (await url('&page_size=10&page=9')).data.rows;
    assert.deepEqual([past.items, past.total], [[], 4]);
  });

  it('is read by any member of the site\'s workspace (a viewer too); 404 for anyone else; 401 without a token', async () => {
    assert.equal((await url('', viewer)).statusCode, 200);
    assert.equal((await url('', outsider)).statusCode, 404);
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/analytics/performance?site_id=${randomUUID()}`, token: owner.accessToken })).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/performance?site_id=${siteId}` }, owner);
  });

  it('answers 422 naming the parameter for a bad period, dates, sort, filter or page', async () => {
    const cases: Array<[string, string]> = [
      ['&period=1y', '/period'],
      [`&period=7d&start=${day(3)}&end=${day(1)}`, '/period'],
      [`&start=${day(3)}`, '/end'],
      [`&end=${day(3)}`, '/start'],
      [`&start=${day(1)}&end=${day(3)}`, '/end'],
      ['&start=2026-02-30&end=2026-03-02', '/start'],
      [`&start=${day(600)}&end=${day(0)}`, '/start'],
      [`&start=${day(3)}&end=${isoDate(pacificToday())}`, '/end'],
      ['&sort=likes', '/sort'],
      ['&compare=week', '/compare'],
      ['&dimension=country', '/dimension'],
      ['&query_contains=', '/query_contains'],
      [`&search=${'x'.repeat(201)}`, '/search'],
      ['&page_size=501', '/page_size'],
      ['&page=0', '/page'],
      ['&colour=red', ''],
    ];
    for (const [query, path] of cases) {
      const res = await url(query);
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      if (path) assert.ok(JSON.stringify(res.data.errors ?? []).includes(path) || res.data.detail.includes(path), `${query}: ${res.body}`);
    }
  });
});

describe('the performance export', () => {
  const exported = (query: string, user = owner) => call(ctx, { method: 'GET', url: `/api/v1/analytics/performance/export?site_id=${siteId}${query}`, token: user.accessToken });
  const lines = (res: { rawPayload: Buffer }) => res.rawPayload.subarray(3).toString('utf8').trim().split('\n');

  it('gives every row of the table, as sorted and filtered, with the comparison\'s figures and the changes', async () => {
    const res = await exported('&sort=clicks_change&order=asc');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], `attachment; filename="garden-report.example.org-queries-${day(27)}-to-${day(0)}-vs-${day(55)}-to-${day(28)}.csv"`);
    const [heading, ...rows] = lines(res);
    assert.equal(heading, 'query,clicks,impressions,ctr,position,previous_clicks,previous_impressions,previous_ctr,previous_position,clicks_change_percent,impressions_change_percent,ctr_change_points,position_change');
    assert.deepEqual(rows.map((r) => r.split(',')[0]), ['ferns', 'rose_food', 'tulips 50%', 'roses'], 'the report\'s order, every row (no page size)');
    assert.equal(rows[3], 'roses,84,560,0.15,2,28,560,0.05,5,200,0,10,-3');
  });

  it('exports pages, filtered, without a comparison', async () => {
    const [heading, ...rows] = lines(await exported('&dimension=page&compare=none&query_contains=roses'));
    assert.equal(heading, 'page,clicks,impressions,ctr,position');
    assert.deepEqual(rows, ['https://garden-report.example.org/roses,84,560,0.15,2']);
  });

  it('is read by a viewer; 404 for anyone else; 401 without a token; 422 for a bad parameter or a page size', async () => {
    assert.equal((await exported('', viewer)).statusCode, 200);
    assert.equal((await exported('', outsider)).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/performance/export?site_id=${siteId}` }, owner);
    for (const query of ['&period=1y', '&sort=likes', '&page_size=10', '&page=2']) {
      const res = await exported(query);
      assert.equal(res.statusCode, 422, query);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
    }
  });
});

describe('report periods', () => {
  const now = new Date('2026-11-27T12:00:00Z'); // Pacific: 27 November; yesterday the 26th
  it('ends a named period at the last day with data, and counts months as Search Console does', () => {
    assert.deepEqual(reportRange({ period: '28d' }, '2026-11-24', now), { start: '2026-10-28', end: '2026-11-24', days: 28, comparison: { mode: 'previous', start: '2026-09-30', end: '2026-10-27' } });
    assert.deepEqual(reportRange({ period: '3m', compare: 'none' }, undefined, now), { start: '2026-08-27', end: '2026-11-26', days: 92, comparison: null });
    assert.equal(reportRange({ period: '16m' }, undefined, now).start, '2025-07-27');
    assert.deepEqual(reportRange({ period: '7d', compare: 'year' }, undefined, now).comparison, { mode: 'year', start: '2025-11-20', end: '2025-11-26' });
  });
  it('compares a year back with as many days as the period, across 29 February either way', () => {
    const later = new Date('2029-06-01T12:00:00Z');
    assert.deepEqual(reportRange({ start: '2028-02-29', end: '2028-03-01', compare: 'year' }, undefined, later).comparison, { mode: 'year', start: '2027-02-28', end: '2027-03-01' });
    // A week ending 2 March 2029 against the same dates of 2028, which hold 29 February: still 7 days.
    assert.deepEqual(reportRange({ start: '2029-02-24', end: '2029-03-02', compare: 'year' }, undefined, later).comparison, { mode: 'year', start: '2028-02-24', end: '2028-03-01' });
    assert.equal(reportRange({ period: '3m' }, '2026-05-31', later).start, '2026-03-01', 'three months back from 31 May: from 1 March');
  });
});
