// npm run bench: authenticated GET /api/v1/sites/{id} and GET /api/v1/sites on PostgreSQL,
// against two baselines in the same run (a bare node:http ceiling and Express 5 + jose +
// pg). Servers are pinned to core 0 and the load generator to core 1 where taskset exists.
// Results go to stdout and to the API section of BENCHMARKS.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { writeSection } from '../write-section.ts';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createUsersRepo } from '../../src/modules/users/users.repo.ts';
import { createUsersService } from '../../src/modules/users/users.service.ts';
import { serviceNodeFlags } from '../service-flags.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const SCHEMA = `bench_${Date.now()}`;
const USERS = 50;
const SITES_PER_USER = 5;
const PASSWORD = 'bench-password-1';
const NODE = process.execPath;
const pinned = (core: number, args: string[]) =>
  hasTaskset() && os.availableParallelism() >= 2 ? ['taskset', ['-c', String(core), ...args]] as const : [args[0]!, args.slice(1)] as const;

function hasTaskset() {
  return spawnSync('taskset', ['--version']).status === 0;
}

async function seed() {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
  const database = await createDatabase({ databaseUrl: DATABASE_URL, schema: SCHEMA });
  await migrate(database);
  const users = createUsersService({ repo: createUsersRepo(database.db) });
  // 50 signed-in users with 5 sites each, among 20,000 sites of 2,000 other accounts.
  const benchUsers = [];
  for (let i = 0; i < USERS; i++) {
    benchUsers.push(await users.createUser({ email: `bench${i}@example.com`, password: PASSWORD, name: `Bench ${i}` }));
  }
  await sql`insert into users (email, name, password_hash) select 'other' || g || '@example.com', 'Other', 'x' from generate_series(1, 2000) g`.execute(database.db);
  await sql`insert into sites (owner_id, workspace_id, name, domain) select u.id, (select id from workspaces where personal_of = u.id), 'Site ' || g, 'site' || g || '-' || substr(u.id::text, 1, 8) || '.com' from users u cross join generate_series(1, 10) g where u.email like 'other%'`.execute(database.db);
  await sql`insert into sites (owner_id, workspace_id, name, domain, platform, health_score) select u.id, (select id from workspaces where personal_of = u.id), 'My site ' || g, 'my-site-' || g || '-' || substr(u.id::text, 1, 8) || '.com', 'wordpress', 70 + g from users u cross join generate_series(1, ${SITES_PER_USER}) g where u.email like 'bench%'`.execute(database.db);
  await sql`analyze`.execute(database.db);
  const sites = await database.db.selectFrom('sites').select(['id', 'owner_id']).where('owner_id', 'in', benchUsers.map((u) => u.id)).execute();
  await database.close();
  return { benchUsers, sites };
}

function start(name: string, entry: string, port: number, env: Record<string, string>, flags: string[] = []): Promise<ChildProcess> {
  const [command, args] = pinned(0, [NODE, ...flags, entry]);
  const child = spawn(command, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        await fetch(`http://127.0.0.1:${port}/live`);
        resolve(child);
      } catch {
        if (Date.now() > deadline || child.exitCode !== null) reject(new Error(`${name} did not start`));
        else setTimeout(poll, 200);
      }
    };
    void poll();
  });
}

interface Measurement { requests_per_second: number; p50_us: number; p99_us: number; non2xx: number; errors: number }

function load(baseUrl: string, workloadFile: string): Measurement {
  const [command, args] = pinned(1, [NODE, 'bench/api/load.ts', baseUrl, workloadFile, String(SECONDS), String(CONNECTIONS)]);
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`load generator failed: ${result.stderr}`);
  const measurement = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Measurement;
  if (measurement.non2xx > 0 || measurement.errors > 0) throw new Error(`${baseUrl}: ${measurement.non2xx} non-2xx, ${measurement.errors} errors`);
  return measurement;
}

const { benchUsers, sites } = await seed();
const schemaUrl = `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`;
const children: ChildProcess[] = [];
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sos-bench-'));
try {
  const servers = { service: 18081, 'service, metrics on': 18084, express: 18082, bare: 18083 };
  const serviceEnv = { DATABASE_URL: schemaUrl, JWT_SECRET, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', HOST: '127.0.0.1', DATA_DIR: workDir };
  children.push(await start('service', 'src/server.ts', servers.service, serviceEnv, serviceNodeFlags()));
  // The same service with its Prometheus metrics on (METRICS_PORT): the overhead of recording every request.
  children.push(await start('service, metrics on', 'src/server.ts', servers['service, metrics on'], { ...serviceEnv, DATA_DIR: path.join(workDir, 'metrics-on'), METRICS_PORT: '0' }, serviceNodeFlags()));
  const tokens = new Map<string, string>();
  for (const user of benchUsers) {
    const login = await fetch(`http://127.0.0.1:${servers.service}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    tokens.set(user.id, ((await login.json()) as { access_token: string }).access_token);
  }
  // Interleave users so that consecutive requests come from different accounts.
  const workloads = {
    one: sites.map((_, i) => sites[(i * 7) % sites.length]!).map((s) => ({ token: tokens.get(s.owner_id!)!, path: `/api/v1/sites/${s.id}` })),
    list: benchUsers.map((u) => ({ token: tokens.get(u.id)!, path: '/api/v1/sites' })),
  };
  const sample = workloads.one[0]!;
  const headers = { authorization: `Bearer ${sample.token}` };
  const site = await (await fetch(`http://127.0.0.1:${servers.service}${sample.path}`, { headers })).json();
  const list = await (await fetch(`http://127.0.0.1:${servers.service}/api/v1/sites`, { headers })).json();
  children.push(await start('express', 'bench/baselines/express.ts', servers.express, { DATABASE_URL: schemaUrl, JWT_SECRET }));
  children.push(
    await start('bare', 'bench/baselines/bare.ts', servers.bare, { BENCH_SITE_JSON: JSON.stringify(site), BENCH_LIST_JSON: JSON.stringify(list) }),
  );

  const endpoints = [
    { name: 'GET /api/v1/sites/{id}', workload: 'one' as const },
    { name: `GET /api/v1/sites (${SITES_PER_USER} items)`, workload: 'list' as const },
  ];
  const rows: string[] = [];
  const summary: Record<string, unknown> = {};
  for (const endpoint of endpoints) {
    const workloadFile = path.join(workDir, `${endpoint.workload}.json`);
    fs.writeFileSync(workloadFile, JSON.stringify(workloads[endpoint.workload]));
    const results = Object.fromEntries(
      Object.entries(servers).map(([name, port]) => [name, load(`http://127.0.0.1:${port}`, workloadFile)]),
    ) as Record<keyof typeof servers, Measurement>;
    const vsExpress = results.service.requests_per_second / results.express.requests_per_second;
    const ofCeiling = results.service.requests_per_second / results.bare.requests_per_second;
    const metricsOn = results['service, metrics on'].requests_per_second / results.service.requests_per_second;
    summary[endpoint.name] = { ...results, vsExpress, ofCeiling, metricsOn };
    for (const [name, r] of Object.entries(results)) {
      rows.push(`| ${endpoint.name} | ${name} | ${Math.round(r.requests_per_second)} | ${r.p50_us} | ${r.p99_us} |`);
    }
    rows.push(`| ${endpoint.name} | **service / Express** | **${vsExpress.toFixed(2)}x** | | |`);
    rows.push(`| ${endpoint.name} | **service / ceiling** | **${(ofCeiling * 100).toFixed(1)}%** | | |`);
    rows.push(`| ${endpoint.name} | **metrics on / off** | **${(metricsOn * 100).toFixed(1)}%** | | |`);
  }
  const table = [
    `Run ${new Date().toISOString()} with \`npm run bench\` (${USERS} users with their own tokens and sites, requests rotating over them; ${SECONDS} s per measurement after 2 s warm-up, ${CONNECTIONS} connections, ` +
      `${hasTaskset() ? 'servers on core 0 and autocannon on core 1' : 'no taskset: unpinned'}, PostgreSQL ${await serverVersion()} on the same machine, ${os.cpus()[0]?.model ?? 'unknown CPU'}).`,
    '',
    '| Endpoint | Server | req/s | p50 (µs) | p99 (µs) |',
    '|---|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(`\n${table}\n`);
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(path.join('bench/results', 'api-latest.json'), JSON.stringify(summary, null, 2));
  writeSection('api', 'API: `npm run bench`', table);
} finally {
  for (const child of children) child.kill('SIGTERM');
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`drop schema ${SCHEMA} cascade`);
  await admin.end();
  fs.rmSync(workDir, { recursive: true, force: true });
}

async function serverVersion() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const { rows } = await client.query('show server_version');
  await client.end();
  return String(rows[0]?.server_version ?? '?').split(' ')[0];
}

