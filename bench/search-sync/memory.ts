// npm run bench:sync-memory: the Search Console sync's first run (90 days of query x page rows) on the PostgreSQL server
// (DATABASE_URL, a schema of its own dropped afterwards), for properties of SIZES rows (default 100,000 and 1,000,000),
// each in a fresh process, with that process's peak RSS sampled every 20 ms. Google is a stand-in that answers the
// paged request as Search Console does (25,000 rows a page, generated as asked, never all in memory). The sync stages
// a page at a time and swaps them in at the end (search_query_staging): its memory should not grow with the property.
// The baseline in the same run is the process at rest (migrated, connected, nothing synced). WRITE=1 updates BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { createDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { GoogleClient } from '../../src/modules/integrations/google/google-client.ts';
import { createSearchSync } from '../../src/modules/integrations/google/search-sync.ts';
import { DAY_MS, isoDate, pacificToday } from '../../src/modules/search-data/periods.ts';
import { createSearchDataRepo } from '../../src/modules/search-data/search-data.repo.ts';
import { createSearchDataService } from '../../src/modules/search-data/search-data.service.ts';
import { writeSection } from '../write-section.ts';
import { serviceNodeFlags } from '../service-flags.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SIZES = (process.env.SIZES ?? '100000,1000000').split(',').map(Number);
const DAYS = 90;

/** One measurement in this process: `rows` query x page rows synced (0: the process at rest), printed as JSON. */
async function measure(rows: number) {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 20);
  const schema = `bench_sync_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = await createDatabase({ databaseUrl: DATABASE_URL, schema });
  try {
    await migrate(database);
    const { db } = database;
    const user = (await sql<{ id: string }>`insert into users (email, name) values ('sync-bench@example.com', 'Sync bench') returning id`.execute(db)).rows[0]!.id;
    const siteId = (await sql<{ id: string }>`insert into sites (owner_id, workspace_id, name, domain)
      values (${user}, (select id from workspaces where personal_of = ${user}), 'Sync', 'sync-bench.example') returning id`.execute(db)).rows[0]!.id;
    const end = pacificToday() - DAY_MS;
    const perDay = Math.ceil(rows / DAYS);
    // Row i of the ordered answer, made when asked for: the stand-in holds no more than the page it returns.
    const row = (i: number) => ({
      keys: [isoDate(end - Math.floor(i / perDay) * DAY_MS), `query ${i % perDay} about garden tools`, `https://sync-bench.example/p/${i % 5000}`],
      clicks: i % 7, impressions: 10 + (i % 50), ctr: 0.05, position: 1 + (i % 40),
    });
    const google = {
      sites: async () => ({ siteEntry: [] }),
      searchAnalytics: async (_t: string, _p: string, body: { dimensions: string[]; rowLimit: number; startRow: number }) => {
        if (body.dimensions.length !== 3) return { rows: body.dimensions.length === 1 ? Array.from({ length: DAYS }, (_, d) => ({ keys: [isoDate(end - d * DAY_MS)], clicks: 1, impressions: 10, ctr: 0.1, position: 3 })) : [] };
        const count = Math.max(0, Math.min(body.rowLimit, rows - body.startRow));
        return { rows: Array.from({ length: count }, (_, k) => row(body.startRow + k)) };
      },
    } as unknown as GoogleClient;
    const sync = createSearchSync({
      google: { accessToken: async () => 'token' },
      client: google,
      searchData: createSearchDataService(createSearchDataRepo(db)),
      sites: {
        forSync: async () => ({ id: siteId, domain: 'sync-bench.example', owner_id: user, gsc_property: 'sc-domain:sync-bench.example', ga4_property: null, search_backfilled: false }),
        setSearchSync: async () => undefined, idsAddedBy: async () => [], idsWithActiveGoogle: async () => [],
      } as never,
      queue: { send: async () => null } as never,
      log: pino({ level: 'silent' }),
    });
    const started = performance.now();
    if (rows > 0) await sync.syncSite(siteId);
    const seconds = (performance.now() - started) / 1000;
    const stored = Number((await sql<{ n: number }>`select count(*) as n from search_query_daily`.execute(db)).rows[0]!.n);
    clearInterval(sampler);
    console.log(JSON.stringify({ rows, stored, seconds: Math.round(seconds * 10) / 10, peakRssMb: Math.round(peak / 1e6) }));
  } finally {
    await database.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop schema if exists ${schema}_jobs cascade`);
    await admin.end();
  }
}

if (process.argv[2] === 'measure') {
  await measure(Number(process.argv[3]));
} else {
  const results = [0, ...SIZES].map((rows) => {
    // (With the service's own flags: what the worker that syncs runs with.)
    const child = spawnSync(process.execPath, [...serviceNodeFlags(), import.meta.filename, 'measure', String(rows)], { encoding: 'utf8', env: process.env });
    if (child.status !== 0) throw new Error(`the ${rows}-row run failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { rows: number; stored: number; seconds: number; peakRssMb: number };
    console.log(result);
    return result;
  });
  const [rest, ...runs] = results;
  const table = [
    `Run ${new Date().toISOString()} with \`npm run bench:sync-memory\` (PostgreSQL server, each size in a fresh process with the service's flags; Search Console answered by a stand-in, 25,000 rows a page).`,
    '',
    '| query x page rows synced (90 days) | stored | sync (s) | peak RSS (MB) |',
    '|---:|---:|---:|---:|',
    `| none (the process at rest: baseline) | 0 | – | ${rest!.peakRssMb} |`,
    ...runs.map((r) => `| ${r.rows.toLocaleString('en')} | ${r.stored.toLocaleString('en')} | ${r.seconds} | ${r.peakRssMb} |`),
    '',
    `Peak RSS of the largest over the smallest: **${(runs.at(-1)!.peakRssMb / runs[0]!.peakRssMb).toFixed(2)}x** for ${(runs.at(-1)!.rows / runs[0]!.rows).toFixed(0)}x the rows.`,
  ].join('\n');
  console.log(`\n${table}`);
  if (process.env.WRITE === '1') writeSection('sync-memory', 'Search Console sync memory: `npm run bench:sync-memory`', table);
}
