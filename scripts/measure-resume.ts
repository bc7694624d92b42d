// How long an audit waits after `kill -9` of the only worker on PostgreSQL, measured with real
// processes: the API (JOBS_IN_PROCESS=false) and `npm run worker`, on a database of its own.
//   node scripts/measure-resume.ts [runs]      (ADMIN_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { page, startFixtureSite } from '../test/helpers/fixture-site.ts';

const adminUrl = process.env.ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const runs = Number(process.argv[2] ?? 3);
const dbName = `sos_resume_${process.pid}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).href;
const port = 20_000 + (process.pid % 10_000);
const env = {
  ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), JOBS_IN_PROCESS: 'false', ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn',
  ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'resume-measure-pw', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'sos-resume-')),
  JWT_SECRET: 'resume-measurement-secret-of-at-least-32-bytes', SECRETS_KEY: 'resume-measurement-key-of-at-least-32-bytes!',
};
const start = (file: string) => spawn(process.execPath, [file], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const kill9 = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()).kill('SIGKILL'));
const api = async (method: string, url: string, token?: string, body?: unknown) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
    method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.json() as Promise<any>;
};

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const server = start('src/server.ts');
let worker = start('src/worker.ts');
try {
  for (let i = 0; i < 600 && !(await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false)); i++) await sleep(200);
  const { access_token: token } = await api('POST', '/auth/login', undefined, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  const waits: number[] = [];
  for (let run = 0; run < runs; run++) {
    // The first request for /slow never answers: the worker is killed while it waits.
    const site = await startFixtureSite({
      '/': { body: page({ body: '<a href="/slow">slow</a>' }) },
      '/slow': (_request, hit) => (hit === 1 ? new Promise(() => {}) : { body: page() }),
    });
    const siteId = (await api('POST', '/sites', token, { name: `Resume ${run}`, domain: site.host })).id;
    await api('POST', '/audits', token, { site_id: siteId });
    while (site.hitsFor('/slow').length === 0) await sleep(50);
    await kill9(worker);
    const killedAt = Date.now();
    worker = start('src/worker.ts');
    let report;
    do {
      await sleep(250);
      report = await api('GET', `/audits/site/${siteId}/latest`, token);
    } while (report.status !== 'completed' && report.status !== 'failed');
    waits.push((Date.now() - killedAt) / 1000);
    console.log(`run ${run + 1}: audit ${report.status} ${waits.at(-1)!.toFixed(1)} s after kill -9`);
    await site.close();
  }
  console.log(`kill -9 -> audit finished by the new worker: min ${Math.min(...waits).toFixed(1)} s, max ${Math.max(...waits).toFixed(1)} s`);
} finally {
  await kill9(worker);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
