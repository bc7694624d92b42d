import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';

let ctx: TestContext;
let owner: SignedInUser, outsider: SignedInUser;
let siteId: string;

const yesterday = pacificToday() - DAY_MS;
const day = (back: number) => isoDate(yesterday - back * DAY_MS);
const get = (query: string, user = owner) => call(ctx, { method: 'GET', url: `/api/v1/analytics/performance/segments?site_id=${siteId}${query}`, token: user.accessToken });

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, outsider] = await Promise.all([signUp(ctx), signUp(ctx)]);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'S', domain: 'segments.example.org' } })).data.id;
  const repo = createSearchDataRepo(ctx.database.db);
  const dates = Array.from({ length: 56 }, (_, back) => day(back));
  // Portugal grew (2 -> 6 clicks a day), the USA held (5), Brazil appeared this period; mobile grew, desktop fell.
  await repo.replaceSegmentDays(siteId, 'country', dates, dates.flatMap((date, back) => back < 28
    ? [{ date, key: 'prt', clicks: 6, impressions: 60, position: 3 }, { date, key: 'usa', clicks: 5, impressions: 100, position: 8 }, { date, key: 'bra', clicks: 1, impressions: 10, position: 12 }]
    : [{ date, key: 'prt', clicks: 2, impressions: 40, position: 5 }, { date, key: 'usa', clicks: 5, impressions: 100, position: 8 }]));
  await repo.replaceSegmentDays(siteId, 'device', dates, dates.flatMap((date, back) => back < 28
    ? [{ date, key: 'mobile', clicks: 9, impressions: 120, position: 5 }, { date, key: 'desktop', clicks: 3, impressions: 50, position: 6 }]
    : [{ date, key: 'mobile', clicks: 3, impressions: 60, position: 7 }, { date, key: 'desktop', clicks: 4, impressions: 80, position: 6 }]));
});
after(() => ctx.close());

describe("the performance report's countries and devices", () => {
  it('lists countries by clicks against the period before, a new one without figures of before', async () => {
    const res = await get('&dimension=country');
    assert.equal(res.statusCode, 200, res.body);
    const r = res.data;
    assert.deepEqual([r.dimension, r.period, r.rows_from, r.comparison.has_data, r.key, r.totals, r.days], ['country', { start: day(27), end: day(0), days: 28 }, day(55), true, null, null, null]);
    assert.deepEqual(r.rows.items.map((i: { key: string; clicks: number }) => [i.key, i.clicks]), [['prt', 168], ['usa', 140], ['bra', 28]]);
    assert.deepEqual(r.rows.items[0], {
      key: 'prt', clicks: 168, impressions: 1680, ctr: 0.1, position: 3,
      previous: { clicks: 56, impressions: 1120, ctr: 0.05, position: 5 }, change: { clicks: 200, impressions: 50, ctr: 5, position: -2 },
    });
    assert.equal(r.rows.items[2].change.clicks, null, 'nothing to change from');
    assert.deepEqual([r.rows.total, r.rows.page, r.rows.page_size], [3, 1, 50]);
  });

  it('sorts devices by a change, pages, and gives one device\'s totals and days for the charts', async () => {
    assert.deepEqual((await get('&dimension=device&sort=clicks_change&order=asc')).data.rows.items.map((i: { key: string }) => i.key), ['desktop', 'mobile']);
    const second = (await get('&dimension=country&page_size=2&page=2')).data.rows;
    assert.deepEqual([second.items.map((i: { key: string }) => i.key), second.total], [['bra'], 3]);
    assert.deepEqual([(await get('&dimension=country&page_size=2&page=5')).data.rows.total], [3], 'a page past the end still counts');
    const mobile = (await get('&dimension=device&key=mobile&period=7d')).data;
    assert.deepEqual(mobile.totals.current, { clicks: 63, impressions: 840, ctr: 0.075, position: 5 });
    assert.deepEqual(mobile.days[6], { date: day(0), final: false, clicks: 9, impressions: 120, ctr: 0.075, position: 5, previous: { date: day(7), clicks: 9, impressions: 120, ctr: 0.075, position: 5 } },
      'no property totals synced in this test: the last day is not known final');
  });

  it('answers 422 for a bad dimension, key or period, 404 for a stranger, 401 without a token', async () => {
    for (const q of ['', '&dimension=query', '&dimension=country&key=PRT', '&dimension=country&period=1y', '&dimension=country&page_size=501', '&dimension=country&colour=red']) {
      const res = await get(q);
      assert.equal(res.statusCode, 422, q);
    }
    assert.equal((await get('&dimension=country', outsider)).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/analytics/performance/segments?site_id=${siteId}&dimension=country` }, owner);
  });
});
