import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import type { Database } from '../../db/client.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo, type QueryPageDay } from '../search-data/search-data.repo.ts';
import { createAnalyticsRepo } from './analytics.repo.ts';
import { createPerformanceRepo, SORTS, type Dimension, type ReportFilters, type TableQuery } from './performance.repo.ts';
import { createPerformanceService } from './performance.service.ts';
import { reportRange, type Comparison } from './report-periods.ts';

/**
 * The report's table read from the stored sets (0033_performance_summaries.sql) must be the
 * live query's, row for row and bit for bit, for every request a set serves; and every other
 * request, or a set made stale by a write, must go to the live query.
 */
let database: Database;
let siteId: string;
let userId: string;

/** The last day with data: two days before Search Console's last day, so a period ends at the data, not at yesterday. */
const last = pacificToday() - 3 * DAY_MS;
const day = (back: number) => isoDate(last - back * DAY_MS);

/** A small deterministic generator (mulberry32): the same rows on both databases. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Queries and pages over the 28 days, the 28 before and the same 28 a year before (and days
 * around them that no set holds): ties on clicks, keys in one period only, rows with no click,
 * positions with many decimals (their weighted sum is not exact in doubles), keys that differ
 * only in case, and a LIKE wildcard in a key.
 */
function propertyRows(): QueryPageDay[] {
  const next = random(22);
  const queries = ['roses', 'Roses', 'rose_food', 'tulips 50%', 'ferns', 'fern care', 'lawn', 'hedge trimming', 'basil', 'mint',
    'compost', 'seed trays', 'orchid', 'tomato blight', 'pruning roses', 'ivy', 'moss', 'sage', 'peas', 'leeks'];
  const pages = ['/roses', '/tulips', '/ferns', '/lawn', '/herbs', '/compost', '/orchids', '/Roses'].map((p) => `https://summaries.example.org${p}`);
  const rows: QueryPageDay[] = [];
  const days = [...Array.from({ length: 70 }, (_, i) => i), ...Array.from({ length: 40 }, (_, i) => 350 + i)];
  for (const back of days) {
    for (const [qi, query] of queries.entries()) {
      // Some queries only in some periods: 'peas' only recently, 'leeks' only long ago, 'moss' never in the last 28 days.
      if (query === 'peas' && back >= 28) continue;
      if (query === 'leeks' && back < 56) continue;
      if (query === 'moss' && back < 28) continue;
      if (next() < 0.35) continue;
      for (const [pi, page] of pages.entries()) {
        if ((qi + pi) % 3 !== 0 && next() < 0.8) continue;
        const impressions = Math.floor(next() * 40);
        rows.push({
          date: day(back), query, page,
          clicks: Math.min(impressions, Math.floor(next() * 4)), // many ties (0-3 a row)
          impressions,
          position: Math.round((1 + next() * 30) * 1e6) / 1e6 + 1 / 3, // not exact in binary
        });
      }
    }
  }
  return rows;
}

before(async () => {
  database = await createTestDatabase();
  const { db } = database;
  userId = (await sql<{ id: string }>`insert into users (email, name) values ('summaries@example.com', 'Summaries') returning id`.execute(db)).rows[0]!.id;
  siteId = (await sql<{ id: string }>`insert into sites (owner_id, workspace_id, name, domain)
    values (${userId}, (select id from workspaces where personal_of = ${userId}), 'Summaries', 'summaries.example.org') returning id`.execute(db)).rows[0]!.id;
  const searchData = createSearchDataRepo(db);
  await searchData.upsertSearchDays(siteId, Array.from({ length: 400 }, (_, back) => ({ date: day(back), clicks: 50, impressions: 900, ctr: 0.05, position: 9 })));
  await searchData.replaceQueryDays(siteId, [], propertyRows());
});
after(() => database.close());

const stored = () => createPerformanceRepo(database.db);
const live = () => createPerformanceRepo(database.db, { summaries: false });
const rangeOf = (compare: Comparison, period: '28d' | '7d' = '28d') => reportRange({ period, compare }, day(0));
const setCount = async () => Number((await sql<{ n: number }>`select count(*) as n from performance_summary_sets where site_id = ${siteId}`.execute(database.db)).rows[0]!.n);

async function bothAgree(input: Parameters<ReturnType<typeof createPerformanceRepo>['rows']>[1], source: 'summary' | 'live', label: string) {
  const [a, b] = [await stored().rows(siteId, input), await live().rows(siteId, input)];
  assert.equal(a.source, source, `${label}: read from the ${source === 'summary' ? 'stored set' : 'query rows'}`);
  assert.equal(b.source, 'live');
  assert.deepEqual({ ...a, source: undefined }, { ...b, source: undefined }, label);
  return a;
}

describe('the performance report\'s stored sets', () => {
  it('give the live query\'s table for every sort, order, comparison, search, key filter and page of the default 28 days', async () => {
    assert.equal(await setCount(), 4, 'queries and pages, against the 28 days before and a year before');
    let compared = 0;
    for (const compare of ['previous', 'year', 'none'] as const) {
      const range = rangeOf(compare);
      for (const dimension of ['query', 'page'] as const) {
        // Each filter alone, and the search (a % in it literal) without one.
        const cases: Array<[ReportFilters, string | undefined]> = [[{}, undefined], [{}, 'ro'], [{}, '%'], ...(dimension === 'query'
          ? [{ query_contains: 'ROSE' }, { query_not_contains: 'rose' }, { query_equals: 'roses' }, { query_contains: '_' }]
          : [{ page_contains: '/ro' }, { page_not_contains: 'roses' }, { page_equals: 'https://summaries.example.org/Roses' }]
        ).map((f): [ReportFilters, undefined] => [f, undefined])];
        for (const [filters, search] of cases) {
          for (const sort of SORTS) {
            for (const order of ['asc', 'desc'] as const) {
              // A first page, a later one, and one past the end (its total counted apart), in turn.
              const [limit, offset] = ([[50, 0], [3, 3], [5, 500]] as const)[compared % 3]!;
              const label = JSON.stringify({ compare, dimension, filters, search, sort, order, limit, offset });
              await bothAgree({ dimension, range, comparison: range.comparison, filters, search, sort, order, limit, offset }, 'summary', label);
              compared += 1;
            }
          }
        }
      }
    }
    assert.equal(compared, 3 * 13 * 16);
    // The data has what the sets must get right: keys in one period only, and ties.
    const all = await stored().rows(siteId, { dimension: 'query', range: rangeOf('previous'), comparison: rangeOf('previous').comparison, filters: {}, sort: 'clicks', order: 'desc', limit: 500, offset: 0 });
    assert.ok(all.items.some((i) => i.key === 'peas' && i.previous?.impressions === 0), 'a new query');
    assert.ok(all.items.some((i) => i.key === 'moss' && i.current.impressions === 0 && i.previous!.impressions > 0), 'a lost query');
    assert.ok(!all.items.some((i) => i.key === 'leeks'), 'a query of neither period is not listed');
  });

  it('are not read for another period, custom dates or a filter on the other dimension: those aggregate the rows', async () => {
    const week = rangeOf('previous', '7d');
    const custom = reportRange({ start: day(40), end: day(10) }, day(0));
    const month = rangeOf('previous');
    const cases: Array<[string, Dimension, typeof month, ReportFilters]> = [
      ['7 days', 'query', week, {}],
      ['custom dates', 'page', custom, {}],
      ['a page filter on queries', 'query', month, { page_contains: '/roses' }],
      ['a query filter on pages', 'page', month, { query_equals: 'roses' }],
    ];
    for (const [label, dimension, range, filters] of cases) {
      await bothAgree({ dimension, range, comparison: range.comparison, filters, sort: 'clicks', order: 'desc', limit: 50, offset: 0 }, 'live', label);
    }
  });

  it('export the whole table a batch at a time, from the stored set or the rows alike, in one snapshot', async () => {
    const range = rangeOf('previous');
    const exported = async (repo: ReturnType<typeof createPerformanceRepo>, query: TableQuery, between?: () => Promise<void>) => {
      const items = [];
      for await (const batch of repo.exportBatches(siteId, query, 4)) {
        if (items.length === 4 && between) await between();
        items.push(...batch);
      }
      return items;
    };
    for (const [sort, order, search] of [['clicks', 'desc', undefined], ['position_change', 'asc', undefined], ['ctr', 'desc', 'ro']] as const) {
      const query: TableQuery = { dimension: 'query', range, comparison: range.comparison, filters: {}, search, sort, order };
      const whole = (await live().rows(siteId, { ...query, limit: 10_000, offset: 0 })).items;
      assert.ok(whole.length > 8 || search !== undefined, 'more than two batches');
      for (const repo of [stored(), live()]) assert.deepEqual(await exported(repo, query), whole, JSON.stringify(query));
    }
    // A query with the most clicks, written after the first batch: an offset would now give that batch's last row again.
    const query: TableQuery = { dimension: 'query', range, comparison: range.comparison, filters: {}, sort: 'clicks', order: 'desc' };
    const before = (await live().rows(siteId, { ...query, limit: 10_000, offset: 0 })).items;
    for (const repo of [stored(), live()]) {
      assert.equal(await setCount(), 4);
      const items = await exported(repo, query, async () => {
        await sql`insert into search_query_daily (site_id, date, query, page, clicks, impressions, position)
          values (${siteId}, ${day(0)}, 'written meanwhile', 'https://summaries.example.org/new', 10000, 10000, 1)`.execute(database.db);
      });
      assert.deepEqual(items, before, 'the rows of the snapshot, none shifted or repeated');
      await sql`delete from search_query_daily where site_id = ${siteId} and query = 'written meanwhile'`.execute(database.db);
      await createSearchDataRepo(database.db).replaceQueryDays(siteId, [], []);
    }
  });

  it('are dropped by any write to the site\'s query rows, and stored again by the sync\'s', async () => {
    const range = rangeOf('previous');
    const input = { dimension: 'query' as const, range, comparison: range.comparison, filters: {}, sort: 'clicks' as const, order: 'desc' as const, limit: 50, offset: 0 };
    await sql`update search_query_daily set clicks = clicks + 100 where site_id = ${siteId} and query = 'basil' and date = ${day(0)}`.execute(database.db);
    assert.equal(await setCount(), 0, 'a write outside the sync drops the sets');
    const changed = await bothAgree(input, 'live', 'after a write');
    assert.equal(changed.items[0]!.key, 'basil');

    const searchData = createSearchDataRepo(database.db);
    await searchData.replaceQueryDays(siteId, [day(1)], [{ date: day(1), query: 'new query', page: 'https://summaries.example.org/new', clicks: 1, impressions: 2, position: 3 }]);
    assert.equal(await setCount(), 4);
    const after = await bothAgree(input, 'summary', 'after the sync');
    assert.equal(after.items[0]!.key, 'basil', 'the set holds the write');
    assert.ok(after.items.some((i) => i.key === 'new query'));

    await sql`delete from search_query_daily where site_id = ${siteId} and date = ${day(2)}`.execute(database.db);
    assert.equal(await setCount(), 0, 'a delete drops them too');
    await searchData.replaceQueryDays(siteId, [], []);
    assert.equal(await setCount(), 4);
  });

  it('give the report through the service the live query\'s answer, and follow the period when a new day of totals arrives', async () => {
    const serviceOf = (repo: ReturnType<typeof createPerformanceRepo>) => createPerformanceService({
      repo, analytics: createAnalyticsRepo(database.db), sites: { getSite: async () => ({ id: siteId, domain: 'summaries.example.org' }) as never },
    });
    for (const query of [{}, { dimension: 'page' as const, compare: 'year' as const }, { sort: 'position_change' as const, page_size: 5, page: 2 }]) {
      assert.deepEqual(await serviceOf(stored()).report(userId, { site_id: siteId, ...query }), await serviceOf(live()).report(userId, { site_id: siteId, ...query }));
    }
    // A new day of totals moves the period: the stored one no longer matches, and the rows are aggregated until the next sync.
    await createSearchDataRepo(database.db).upsertSearchDays(siteId, [{ date: isoDate(last + DAY_MS), clicks: 1, impressions: 1, ctr: 1, position: 1 }]);
    const moved = reportRange({ period: '28d', compare: 'previous' }, isoDate(last + DAY_MS));
    await bothAgree({ dimension: 'query', range: moved, comparison: moved.comparison, filters: {}, sort: 'clicks', order: 'desc', limit: 50, offset: 0 }, 'live', 'a moved period');
    await createSearchDataRepo(database.db).replaceQueryDays(siteId, [], []);
    await bothAgree({ dimension: 'query', range: moved, comparison: moved.comparison, filters: {}, sort: 'clicks', order: 'desc', limit: 50, offset: 0 }, 'summary', 'stored again');
  });

  it('go with their site', async () => {
    await sql`delete from sites where id = ${siteId}`.execute(database.db);
    assert.equal(Number((await sql<{ n: number }>`select count(*) as n from performance_summaries`.execute(database.db)).rows[0]!.n), 0);
  });
});
