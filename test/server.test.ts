import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'undici';
import { ensurePGliteSnapshot } from './helpers/database.ts';

/** A DATA_DIR holding the migrated snapshot, so the server opens it instead of initialising one. */
async function preparedDataDir() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sos-server-'));
  const snapshot = await fs.readFile(await ensurePGliteSnapshot());
  const pglite = await PGlite.create(path.join(dataDir, 'pgdata'), { loadDataDir: new Blob([snapshot]) });
  await pglite.close();
  return dataDir;
}

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      for (const w of waiters.filter((w) => w.match(entry))) w.resolve(entry);
    } catch {
      // not a log line
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitForLog = (match: (l: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = logs.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });
  return { child, exited, waitForLog, logs, stderr: () => stderr };
}

describe('server process', () => {
  it('refuses to start on bad configuration, naming the problem', async () => {
    const server = startServer({ PORT: 'eighty', JWT_SECRET: 'short' });
    assert.equal(await server.exited, 1);
    assert.match(server.stderr(), /PORT must be a whole number/);
    assert.match(server.stderr(), /JWT_SECRET must be at least 32 bytes/);
  });

  it('npm run demo refuses to leave its jobs to another process (only this one can reach the demo\'s website)', async () => {
    const demo = spawn(process.execPath, ['src/server.ts', '--demo'], { env: { ...process.env, PORT: '0', JOBS_IN_PROCESS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    demo.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => demo.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /npm run demo works its jobs in this process/);
  });

  it('npm run worker refuses to start on the embedded database, saying why', async () => {
    const worker = spawn(process.execPath, ['src/worker.ts'], { env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    worker.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => worker.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /npm run worker needs DATABASE_URL/);
  });

  it('waits (bounded) for a DATABASE_URL that does not answer, /ready 503 meanwhile, then exits naming why', async (t) => {
    const started = Date.now();
    const server = startServer({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATABASE_WAIT: '3s' });
    t.after(() => server.child.kill('SIGKILL'));
    const waiting = await server.waitForLog((l) => String(l.msg).startsWith('waiting for the database'));
    const base = String(waiting.address);
    assert.equal((await fetch(`${base}/live`)).status, 200);
    const ready = await fetch(`${base}/ready`);
    assert.equal(ready.status, 503);
    const api = await fetch(`${base}/api/v1/sites`);
    assert.equal(api.status, 503);
    assert.match(String(api.headers.get('content-type')), /^application\/problem\+json/);
    await server.waitForLog((l) => /database not reachable yet \(ECONNREFUSED\); attempt 2/.test(String(l.msg)));
    assert.equal(await server.exited, 1);
    assert.ok(Date.now() - started >= 3000, 'it waited DATABASE_WAIT before giving up');
    assert.match(server.stderr(), /The database is not reachable \(ECONNREFUSED\)/);
    assert.ok(!server.stderr().includes('nobody@'), 'the connection string is not printed');
  });

  it('npm run worker waits (bounded) for a DATABASE_URL that does not answer, then exits naming why', async (t) => {
    const started = Date.now();
    const worker = spawn(process.execPath, ['src/worker.ts'], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATABASE_WAIT: '3s', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => worker.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    worker.stdout.on('data', (chunk) => (stdout += chunk));
    worker.stderr.on('data', (chunk) => (stderr += chunk));
    assert.equal(await new Promise<number | null>((resolve) => worker.on('exit', resolve)), 1);
    assert.ok(Date.now() - started >= 3000, 'it waited DATABASE_WAIT before giving up');
    assert.match(stdout, /database not reachable yet \(ECONNREFUSED\); attempt 2/);
    assert.match(stderr, /The database is not reachable \(ECONNREFUSED\)/);
    assert.ok(!`${stdout}${stderr}`.includes('nobody@'), 'the connection string is not printed');
  });

  it('refuses a second process on the same DATA_DIR, naming the pid that holds it; a stale lock is taken over', async (t) => {
    const dataDir = await preparedDataDir();
    t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
    // A lock left by a process that is gone (kill -9) does not stop the first server.
    await fs.writeFile(path.join(dataDir, 'lock'), '2147483646\n');
    const first = startServer({ DATA_DIR: dataDir });
    t.after(() => first.child.kill('SIGKILL'));
    await first.waitForLog((l) => l.msg === 'ready');
    assert.equal((await fs.readFile(path.join(dataDir, 'lock'), 'utf8')).trim(), String(first.child.pid));

    const second = startServer({ DATA_DIR: dataDir });
    t.after(() => second.child.kill('SIGKILL'));
    assert.equal(await second.exited, 1);
    assert.match(second.stderr(), new RegExp(`in use by process ${first.child.pid}`));
    const cli = spawn(process.execPath, ['src/cli.ts', 'users', 'create', '--email', 'x@example.com', '--password', 'long-enough-pw', '--name', 'X'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let cliErr = '';
    cli.stderr.on('data', (chunk) => (cliErr += chunk));
    assert.notEqual(await new Promise((resolve) => cli.on('exit', resolve)), 0, 'the CLI refuses too');
    assert.match(cliErr, new RegExp(`in use by process ${first.child.pid}`));

    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    await assert.rejects(fs.access(path.join(dataDir, 'lock')), 'a clean exit releases the lock');
  });

  it('creates the bootstrap admin, serves, and on SIGTERM finishes in-flight requests before exiting 0', async (t) => {
    const dataDir = await preparedDataDir();
    t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
    const server = startServer({ DATA_DIR: dataDir, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'root-password-1' });
    t.after(() => server.child.kill('SIGKILL'));
    const ready = await server.waitForLog((l) => l.msg === 'ready');
    const base = String(ready.address);
    assert.equal((await fetch(`${base}/ready`)).status, 200);
    assert.ok(server.logs.some((l) => l.msg === 'created the bootstrap admin account'));

    // A sign-in (an argon2 verification) is in flight when the signal arrives.
    const inFlight = fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'root@example.com', password: 'root-password-1' }),
    });
    await server.waitForLog((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/v1/auth/login');
    server.child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { token_type: string }).token_type, 'bearer');
    assert.equal(await server.exited, 0);
    assert.ok(server.logs.some((l) => l.msg === 'shutting down'));
    assert.ok(!server.logs.some((l) => JSON.stringify(l).includes('root-password-1')), 'no password in the logs');
  });

  it('on SIGTERM, 20 keep-alive clients sending back to back see no socket error: each is answered and told to close', async (t) => {
    const dataDir = await preparedDataDir();
    t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
    const server = startServer({ DATA_DIR: dataDir });
    t.after(() => server.child.kill('SIGKILL'));
    const ready = await server.waitForLog((l) => l.msg === 'ready');
    const base = String(ready.address);
    const clients = Array.from({ length: 20 }, () => new Client(base, { pipelining: 1, keepAliveTimeout: 30_000 }));
    t.after(() => Promise.all(clients.map((c) => c.destroy())));
    let signalled = false;
    const errors: string[] = [];
    // Each client, like a browser or a proxy, sends its next request as soon as the last is
    // answered, on the same connection, until an answer says `Connection: close`.
    const loops = clients.map(async (client) => {
      let answered = 0;
      for (;;) {
        try {
          const res = await client.request({ path: '/live', method: 'GET' });
          await res.body.dump();
          answered += 1;
          if (res.headers.connection === 'close') return { answered, told: true };
        } catch (error) {
          errors.push((error as Error).message);
          return { answered, told: false };
        }
        if (signalled && answered > 10_000) return { answered, told: false };
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    signalled = true;
    server.child.kill('SIGTERM');
    const results = await Promise.all(loops);
    assert.deepEqual(errors, [], 'no request met a closing socket');
    assert.ok(results.every((r) => r.told && r.answered > 1), 'every client was answered, then told to close');
    assert.equal(await server.exited, 0);
  });
});
