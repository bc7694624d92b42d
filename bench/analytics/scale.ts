// npm run bench:analytics: the performance report (GET /api/v1/analytics/performance) on a
// property of 16 months (485 days) and ~10M query x page x day rows (ROWS=1000000 for a quick
// run), generated inside the database (bench/analytics/generate.ts), on the PostgreSQL server
// (DATABASE_URL, a schema of its own dropped afterwards) and on embedded PGlite (a temporary
// data dir, deleted afterwards). DBS=postgres or DBS=embedded runs one of them.
//
// Each request is timed through the service layer (createPerformanceService: the site's
// coverage, the first query day, the totals and days, and the table, as the route runs it),
// RUNS times after WARMUP runs, on the live query over search_query_daily (the code before the
// summaries: `summaries: false`) and on the path the service takes now, whose answer is checked
// to be the live one's. Then the daily sync's write (4 days replaced) is timed with the
// process's peak RSS. Each database's results go to stdout, bench/results/analytics-scale-<db>.json
// and, with WRITE=1, to its part of BENCHMARKS.md as soon as they are in.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createAnalyticsRepo } from '../../src/modules/analytics/analytics.repo.ts';
import { createPerformanceRepo } from '../../src/modules/analytics/performance.repo.ts';
import { createPerformanceService } from '../../src/modules/analytics/performance.service.ts';
import { DAY_MS, isoDate, pacificToday } from '../../src/modules/search-data/periods.ts';
import { createSearchDataRepo, type QueryPageDay } from '../../src/modules/search-data/search-data.repo.ts';
import { writeSection } from '../write-section.ts';
import { createQueries, dropQueries, insertDays, insertTotals, shapeFor } from './generate.ts';

const ROWS = Number(process.env.ROWS ?? 10_000_000);
const RUNS = Number(process.env.RUNS ?? 30);
const LIVE_RUNS = Number(process.env.LIVE_RUNS ?? RUNS);
const WARMUP = Number(process.env.WARMUP ?? 3);
const LIVE_WARMUP = Number(process.env.LIVE_WARMUP ?? WARMUP);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DBS = (process.env.DBS ?? 'postgres,embedded').split(',');
const CHUNK_DAYS = 20;

const shape = shapeFor(ROWS);
const end = isoDate(pacificToday() - DAY_MS); // Search Console's last day: the named periods end there
const back = (days: number) => isoDate(Date.parse(`${end}T00:00:00Z`) - days * DAY_MS);

type Query = Record<string, string | number>;
const CASES: Array<{ name: string; query: Query; target?: string }> = [
  { name: 'queries, 28 days vs previous, by clicks, 50 a page (default)', query: { dimension: 'query' }, target: 'PG p50 < 100 ms, p95 < 300 ms; embedded p50 < 500 ms' },
  { name: 'pages, 28 days vs previous, by clicks, 50 a page', query: { dimension: 'page' }, target: 'as above' },
  { name: 'queries, 28 days vs previous, by clicks change, page 3', query: { dimension: 'query', sort: 'clicks_change', page: 3 } },
  { name: 'queries, 28 days vs a year before', query: { dimension: 'query', compare: 'year' } },
  { name: 'queries, custom dates (30 days two months back) vs previous', query: { dimension: 'query', start: back(89), end: back(60) } },
  { name: 'queries, 28 days, filtered (query contains "rose")', query: { dimension: 'query', query_contains: 'rose' } },
  { name: 'queries, 28 days, searched (table: "tomato")', query: { dimension: 'query', search: 'tomato' } },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage.rss()); }, 20);
sampler.unref();

async function open(kind: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'postgres') {
    const schema = `bench_analytics_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = await createDatabase({ databaseUrl: DATABASE_URL, schema });
    return {
      database,
      drop: async () => {
        const cleanup = new pg.Client({ connectionString: DATABASE_URL });
        await cleanup.connect();
        await cleanup.query(`drop schema if exists ${schema} cascade`);
        await cleanup.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-analytics-'));
  const database = await createDatabase({ dataDir: dir });
  return { database, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const result = await fn();
  return [result, performance.now() - t];
}

async function runOn(kind: string) {
  console.log(`\n== ${kind}: ${shape.rows.toLocaleString('en')} rows wanted, ${shape.queries} queries, ${shape.pages} pages, ${shape.days} days to ${end}`);
  const { database, drop } = await open(kind);
  const { db } = database;
  try {
    await migrate(database);
    const user = (await sql<{ id: string }>`insert into users (email, name) values ('scale-bench@example.com', 'Scale bench') returning id`.execute(db)).rows[0]!.id;
    const siteId = (await sql<{ id: string }>`
      insert into sites (owner_id, workspace_id, name, domain) values (${user}, (select id from workspaces where personal_of = ${user}), 'Scale', 'scale-bench.example')
      returning id`.execute(db)).rows[0]!.id;

    // Loaded as a bulk load is: the table's indexes dropped and built again after (their definitions read from the
    // catalogue, so an index a migration adds is rebuilt too), its foreign key's per-row check and JIT off.
    const generated = performance.now();
    const indexes = (await sql<{ name: string; definition: string; constraint: string | null }>`
      select i.relname as name, pg_get_indexdef(i.oid) as definition,
        (select pg_get_constraintdef(c.oid) from pg_constraint c where c.conindid = i.oid and c.contype = 'p') as constraint
      from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = 'search_query_daily'::regclass`.execute(db)).rows;
    for (const index of indexes) {
      await sql.raw(index.constraint ? `alter table search_query_daily drop constraint ${index.name}` : `drop index ${index.name}`).execute(db);
    }
    await createQueries(db, shape);
    for (let from = 0; from < shape.days; from += CHUNK_DAYS) {
      const to = Math.min(shape.days - 1, from + CHUNK_DAYS - 1);
      await db.transaction().execute(async (trx) => {
        await sql`set local jit = off`.execute(trx);
        await sql`set local session_replication_role = replica`.execute(trx);
        await insertDays(trx, siteId, shape, end, from, to);
      });
      process.stdout.write(`\r  generating: day ${to + 1} of ${shape.days}, ${((performance.now() - generated) / 1000).toFixed(0)} s`);
    }
    await dropQueries(db);
    const loadSeconds = (performance.now() - generated) / 1000;
    for (const index of indexes) {
      await sql.raw(index.constraint ? `alter table search_query_daily add constraint ${index.name} ${index.constraint}` : index.definition).execute(db);
    }
    await insertTotals(db, siteId);
    const generateSeconds = (performance.now() - generated) / 1000;
    const [, analyzeMs] = await time(() => sql`analyze`.execute(db));
    const rows = Number((await sql<{ n: number }>`select count(*) as n from search_query_daily where site_id = ${siteId}`.execute(db)).rows[0]!.n);
    const size = (await sql<{ size: string }>`select pg_size_pretty(pg_total_relation_size('search_query_daily')) as size`.execute(db)).rows[0]!.size;
    console.log(`\n  ${rows.toLocaleString('en')} rows (${size} with indexes) in ${generateSeconds.toFixed(0)} s (${loadSeconds.toFixed(0)} s the rows, the rest the indexes), analyze ${(analyzeMs / 1000).toFixed(1)} s`);

    // The daily sync's write: the last 4 days' rows replaced (read back: what Google would send), then whatever the
    // repository does after it. Timed with the process's peak RSS (PGlite's memory is this process's).
    const searchData = createSearchDataRepo(db);
    const lastDays = [0, 1, 2, 3].map(back);
    const syncRows = (await sql<QueryPageDay>`select date::text as date, query, page, clicks, impressions, position from search_query_daily
      where site_id = ${siteId} and date >= ${back(3)}`.execute(db)).rows;
    const rssBefore = process.memoryUsage.rss();
    peakRss = rssBefore;
    const [, syncMs] = await time(() => searchData.replaceQueryDays(siteId, lastDays, syncRows));
    const sync = { rows: syncRows.length, seconds: syncMs / 1000, rss_before_mb: rssBefore / 2 ** 20, rss_peak_mb: peakRss / 2 ** 20 };
    console.log(`  daily sync write (4 days, ${syncRows.length.toLocaleString('en')} rows): ${sync.seconds.toFixed(1)} s, RSS ${sync.rss_before_mb.toFixed(0)} -> peak ${sync.rss_peak_mb.toFixed(0)} MB`);

    // The refresh alone (the sync above ran it after its writes): what each sync adds.
    const [, refreshMs] = await time(() => sql`select refresh_performance_summaries(${siteId}, ${end}::date)`.execute(db));
    const summaryRows = Number((await sql<{ n: number }>`select count(*) as n from performance_summaries`.execute(db)).rows[0]!.n);
    console.log(`  of which the summaries' refresh: ${(refreshMs / 1000).toFixed(1)} s (${summaryRows.toLocaleString('en')} rows in 4 sets)`);

    const site = { id: siteId, domain: 'scale-bench.example' };
    let lastSource = '';
    const serviceOf = (summaries: boolean) => {
      const repo = createPerformanceRepo(db, { summaries });
      return createPerformanceService({
        repo: { ...repo, rows: async (...args: Parameters<typeof repo.rows>) => { const r = await repo.rows(...args); lastSource = r.source; return r; } },
        analytics: createAnalyticsRepo(db), sites: { getSite: async () => site as never },
      });
    };
    const live = serviceOf(false);
    const current = serviceOf(true);
    const results = [];
    for (const c of CASES) {
      const query = { site_id: siteId, ...c.query } as never;
      const measure = async (service: typeof live, runs: number, warmup: number) => {
        for (let i = 0; i < warmup; i++) await service.report(user, query);
        const times: number[] = [];
        for (let i = 0; i < runs; i++) times.push((await time(() => service.report(user, query)))[1]);
        times.sort((x, y) => x - y);
        return { p50: percentile(times, 50), p95: percentile(times, 95), runs };
      };
      const answer = await current.report(user, query);
      const source = lastSource;
      assert.deepEqual(answer, await live.report(user, query), `${c.name}: the answer is the live query's`);
      const before = await measure(live, LIVE_RUNS, LIVE_WARMUP);
      const after = await measure(current, RUNS, WARMUP);
      results.push({ name: c.name, target: c.target, source, before, after });
      console.log(`  ${c.name} [${source}]: live p50 ${ms(before.p50)} / p95 ${ms(before.p95)} ms; now p50 ${ms(after.p50)} / p95 ${ms(after.p95)} ms (${(before.p50 / after.p50).toFixed(1)}x)`);
    }
    return { kind, rows, size, generate_seconds: generateSeconds, load_seconds: loadSeconds, sync, refresh_seconds: refreshMs / 1000, summary_rows: summaryRows, results };
  } finally {
    await database.close();
    await drop();
  }
}

const label = (kind: string) => (kind === 'postgres' ? 'PostgreSQL 15' : 'embedded (PGlite)');
const command = `${['ROWS', 'DBS', 'RUNS', 'WARMUP', 'LIVE_RUNS', 'LIVE_WARMUP'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]} `).join('')}npm run bench:analytics`;

/** One database's results, written as soon as they are in (a later database's failure loses nothing). */
function report(run: Awaited<ReturnType<typeof runOn>>, started: Date) {
  const lines = [
    `**${label(run.kind)}**, run ${started.toISOString()} with \`${command}\`: one site of ${shape.days} days to ${end}, ${shape.queries.toLocaleString('en')} queries, ${shape.pages.toLocaleString('en')} pages (bench/analytics/generate.ts); ${RUNS} timed requests through the service after ${WARMUP} warm-up ones (the live query: ${LIVE_RUNS} after ${LIVE_WARMUP}); ${os.availableParallelism()} cores, ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    '',
    `${run.rows.toLocaleString('en')} rows (search_query_daily ${run.size} with its indexes), generated in ${run.generate_seconds.toFixed(0)} s; the daily sync's write (4 days, ${run.sync.rows.toLocaleString('en')} rows) ${run.sync.seconds.toFixed(1)} s, peak RSS ${run.sync.rss_peak_mb.toFixed(0)} MB (${run.sync.rss_before_mb.toFixed(0)} MB before), of which the summaries' refresh ${run.refresh_seconds.toFixed(1)} s (${run.summary_rows.toLocaleString('en')} rows stored).`,
    '',
    '| Request | table from | live query p50 / p95 | now p50 / p95 | p50 live / now | target |',
    '|---|---|---:|---:|---:|---|',
    ...run.results.map((r) => `| ${r.name} | ${r.source === 'summary' ? 'stored set' : 'rows (live)'} | ${ms(r.before.p50)} / ${ms(r.before.p95)} ms | **${ms(r.after.p50)}** / ${ms(r.after.p95)} ms | ${(r.before.p50 / r.after.p50).toFixed(1)}x | ${r.target ?? ''} |`),
  ];
  const text = lines.join('\n');
  console.log(`\n${text}\n`);
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(`bench/results/analytics-scale-${run.kind}.json`, JSON.stringify({ started, shape, run }, null, 2));
  if (process.env.WRITE === '1') writeSection(`analytics-scale-${run.kind}`, 'Performance report at scale: `npm run bench:analytics`', text);
}

for (const kind of DBS) {
  const started = new Date();
  report(await runOn(kind), started);
}
clearInterval(sampler);
