import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { call, signUp, startTestApp, type TestContext } from '../../../../test/helpers/app.ts';
import { DAY_MS, isoDate, pacificToday } from '../../search-data/periods.ts';
import { createSearchDataRepo, type QueryPageDay } from '../../search-data/search-data.repo.ts';
import { createSearchDataService } from '../../search-data/search-data.service.ts';
import { GoogleApiError, type GoogleClient } from './google-client.ts';
import { createSearchSync } from './search-sync.ts';

const PAGE = 10;
const PROPERTY = 'sc-domain:paged-sync.example.org';
const day = (back: number) => isoDate(pacificToday() - back * DAY_MS);
type Row = { keys: string[]; clicks: number; impressions: number; ctr: number; position: number };

let ctx: TestContext;
let siteId: string;

/** Search Console as a paged list: `detail` answers dimension date x query x page, a page of PAGE rows at a time. */
function client(detail: Row[], options: { failAtRow?: number } = {}): Pick<GoogleClient, 'searchAnalytics' | 'sites'> {
  const totals: Row[] = [...new Set(detail.map((r) => r.keys[0]!))].map((d) => ({ keys: [d], clicks: 1, impressions: 10, ctr: 0.1, position: 3 }));
  return {
    sites: async () => ({ siteEntry: [{ siteUrl: PROPERTY, permissionLevel: 'siteOwner' }] }),
    searchAnalytics: async (_token, _property, body) => {
      if (body.dimensions.length === 3 && options.failAtRow !== undefined && body.startRow >= options.failAtRow) {
        throw new GoogleApiError('Quota exceeded', 429, 'rateLimitExceeded');
      }
      const rows = body.dimensions.length === 3 ? detail : body.dimensions.length === 1 ? totals : [];
      return { rows: rows.slice(body.startRow, body.startRow + body.rowLimit) };
    },
  } as Pick<GoogleClient, 'searchAnalytics' | 'sites'>;
}

/** A sync over the real store, which records the largest page of query rows it was handed at once. */
function syncWith(google: Pick<GoogleClient, 'searchAnalytics' | 'sites'>) {
  const searchData = createSearchDataService(createSearchDataRepo(ctx.database.db));
  const staged: number[] = [];
  const sync = createSearchSync({
    google: { accessToken: async () => 'token' },
    client: google as GoogleClient,
    searchData: { ...searchData, stageQueryRows: async (syncId: string, site: string, rows: QueryPageDay[]) => { staged.push(rows.length); await searchData.stageQueryRows(syncId, site, rows); } },
    sites: ctx.app.services.sites,
    queue: { send: async () => null } as never,
    log: pino({ level: 'silent' }),
    pageSize: PAGE,
  });
  return { sync, staged };
}

const stored = async () => (await ctx.database.db.selectFrom('search_query_daily').select([sql<string>`date::text`.as('date'), 'query', 'clicks'])
  .where('site_id', '=', siteId).orderBy('date').orderBy('query').execute()).map((r) => `${r.date} ${r.query} ${r.clicks}`);
const staging = async () => Number((await ctx.database.db.selectFrom('search_query_staging').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  const owner = await signUp(ctx);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Paged', domain: 'paged-sync.example.org' } })).data.id;
  await ctx.app.services.sites.setSearchSync(siteId, { gsc_property: PROPERTY, search_backfilled: true });
});
after(() => ctx.close());

describe('the Search Console sync of query x page rows', () => {
  const answer = (clicks: number, queries: number) => Array.from({ length: 4 }, (_, i) => i + 1).flatMap((back) =>
    Array.from({ length: queries }, (_, q) => ({ keys: [day(back), `query ${q}`, `https://paged-sync.example.org/${q}`], clicks, impressions: 10, ctr: 0.1, position: 4 })));

  it('stages a page at a time and replaces the synced days with the whole answer', async () => {
    // An older day outside the 4 re-synced, and a row of a synced day that Google no longer reports.
    await createSearchDataRepo(ctx.database.db).replaceQueryDays(siteId, [], [
      { date: day(30), query: 'kept', page: 'https://paged-sync.example.org/', clicks: 5, impressions: 9, position: 2 },
      { date: day(2), query: 'gone', page: 'https://paged-sync.example.org/', clicks: 5, impressions: 9, position: 2 },
    ]);
    const detail = answer(3, 23); // 92 rows: 10 pages
    const { sync, staged } = syncWith(client(detail));
    await sync.syncSite(siteId);
    assert.ok(staged.length >= 10 && Math.max(...staged) <= PAGE, `a page at a time (${staged.join(', ')})`);
    const rows = await stored();
    assert.equal(rows.length, 93);
    assert.ok(rows.includes(`${day(30)} kept 5`), 'days not re-synced are kept');
    assert.ok(!rows.some((r) => r.includes(' gone ')), 'a synced day is replaced whole');
    assert.equal(await staging(), 0, 'nothing is left staged');
  });

  it('leaves the stored days as they were when a page fails, and discards what it staged', async () => {
    const before = await stored();
    const { sync, staged } = syncWith(client(answer(7, 23), { failAtRow: 40 }));
    await sync.syncSite(siteId);
    assert.equal(staged.length, 4, 'four pages staged before the failure');
    assert.deepEqual(await stored(), before, 'no mix of old and new rows');
    assert.equal(await staging(), 0);
  });
});
