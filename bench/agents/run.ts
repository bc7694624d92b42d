// npm run bench:agents: a 2,000-page WordPress-compatible site (its own process) is audited;
// then (1) the strategy agent's time to produce every proposal, against the floor of
// storing as many proposals straight into the database, and (2) the execution +
// verification rate of all approved tasks through the WordPress connector with 1 and 4
// task workers, against a bare undici loop doing the same WordPress round trips (locate,
// read, write, check live) at the same concurrency. Results go to BENCHMARKS.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeSection } from '../write-section.ts';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { call, signUp, startTestApp, type TestContext } from '../../test/helpers/app.ts';
import { createTasksRepo } from '../../src/modules/tasks/tasks.repo.ts';
import { pagesOf } from '../../src/modules/task-types/index.ts';
import { until } from '../../test/helpers/wait.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
const NODE = process.execPath;

async function startSite(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(NODE, ['bench/agents/wordpress-site.ts', String(PAGES)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { origin, child };
}
const stop = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()).kill('SIGTERM'));


interface ServiceRun { proposals: number; rejected: number; auditSeconds: number; agentSeconds: number; tasks: number; pages: number; executed: number; failed: number; verified: number; execSeconds: number }

type Kind = 'embedded' | 'postgres';

async function serviceRun(workers: number, kind: Kind): Promise<ServiceRun> {
  // The test helpers pick the database per call: a schema of its own on the server, or a fresh PGlite.
  process.env.TEST_DB = kind === 'postgres' ? 'postgres' : 'embedded';
  const site = await startSite();
  const ctx: TestContext = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0', TASK_WORKERS: String(workers) });
  try {
    const owner = await signUp(ctx);
    const host = new URL(site.origin).host;
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Bench', domain: host } })).data.id;
    const wp = { type: 'wordpress', base_url: site.origin, username: 'editor', application_password: 'abcd EFGH 1234 ijkl MNOP 5678' };
    const connector = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken, payload: wp });
    if (connector.statusCode !== 200) throw new Error(connector.body);
    const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId, max_pages: PAGES + 10 } });
    const audit = await until(
      async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data,
      (a) => a.id === started.data.id && (a.agent === 'finished' || a.agent === 'failed' || a.status === 'failed'),
      'the audit and the strategy agent', 600_000,
    );
    if (audit.status !== 'completed' || audit.agent !== 'finished') throw new Error(`audit ${audit.status}, agent ${audit.agent}: ${audit.error ?? audit.agent_error}`);
    const auditSeconds = (Date.parse(audit.finished_at) - Date.parse(audit.started_at)) / 1000;
    const agentSeconds = (Date.parse(audit.agent_summary.finished_at) - Date.parse(audit.finished_at)) / 1000;

    const db = ctx.database.db;
    const rows = await db.selectFrom('tasks').select(['id', 'type', 'target', 'configuration']).where('site_id', '=', siteId).where('type', '=', 'fix_missing_meta_description').execute();
    const ids = rows.map((r) => r.id);
    // One problem on many pages is one task of up to 50 pages: execution is measured in pages.
    const pages = rows.reduce((n, r) => n + pagesOf(r).length, 0);
    // Approved through the API, 16 requests in flight, as a client approving a batch would.
    const t0 = performance.now();
    const pending = [...ids];
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
        const res = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });
        if (res.statusCode !== 200) throw new Error(res.body);
      }
    }));
    console.error(`workers ${workers}: approved ${ids.length} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const settled = async () => {
      const [tasks, checks] = await Promise.all([
        db.selectFrom('tasks').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('id', 'in', ids).groupBy('status').execute(),
        db.selectFrom('task_verifications').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('task_id', 'in', ids).groupBy('status').execute(),
      ]);
      const count = (rows: Array<{ status: string; n: number }>, status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { completed: count(tasks, 'completed'), failed: count(tasks, 'failed'), verified: count(checks, 'verified'), checkFailed: count(checks, 'failed'), pending: count(checks, 'pending') };
    };
    const end = await until(settled, (s) => s.failed + s.verified + s.checkFailed >= ids.length && s.pending === 0, 'execution and verification', 900_000);
    const execSeconds = (performance.now() - t0) / 1000;
    console.error(`${kind}, workers ${workers}: audit ${auditSeconds.toFixed(1)} s, agent ${agentSeconds.toFixed(1)} s, ${ids.length} tasks (${pages} pages) executed and verified in ${execSeconds.toFixed(1)} s`, end);
    return { proposals: audit.agent_summary.proposed, rejected: audit.agent_summary.rejected, auditSeconds, agentSeconds, tasks: ids.length, pages, executed: end.completed, failed: end.failed, verified: end.verified, execSeconds };
  } finally {
    await ctx.close();
    await stop(site.child);
  }
}

/** The floor for the agent: storing one proposal per drafted page straight into the database, one by one. */
async function insertFloor(count: number): Promise<number> {
  const ctx = await startTestApp({}, { workJobs: false });
  try {
    const owner = await signUp(ctx);
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Floor', domain: 'floor.example.org' } })).data.id;
    const repo = createTasksRepo(ctx.database.db);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      await repo.insertProposal({
        siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'medium', title: 'Add a meta description', description: 'd',
        target: `https://floor.example.org/guide-${i}/`, configuration: { after: 'x'.repeat(120) }, evidence: [{ check_id: 'meta_description_missing' }],
      });
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await ctx.close();
  }
}

/** The ceiling for execution: the WordPress round trips one task needs, in a bare loop, `concurrency` at a time. */
async function bareLoop(concurrency: number): Promise<number> {
  const site = await startSite();
  const agent = new Agent({ connections: concurrency });
  const auth = `Basic ${Buffer.from('editor:abcd EFGH 1234 ijkl MNOP 5678').toString('base64')}`;
  const get = async (url: string, authed = false) => {
    const res = await request(url, { dispatcher: agent, headers: authed ? { authorization: auth } : {} });
    return { headers: res.headers, text: await res.body.text() };
  };
  try {
    const queue = Array.from({ length: PAGES }, (_, i) => i);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const page = await get(`${site.origin}/guide-${i}/`);
        const api = /<([^>]+)>; rel="alternate"; type="application\/json"/.exec(String(page.headers.link))![1]!;
        await get(`${api}?context=edit`, true);
        const res = await request(`${api}?context=edit`, {
          method: 'POST', dispatcher: agent, headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ meta: { sos_meta_description: `Description ${i} ${randomUUID()}` } }),
        });
        await res.body.text();
        await get(`${site.origin}/guide-${i}/`);
      }
    }));
    return PAGES / ((performance.now() - t0) / 1000);
  } finally {
    await agent.close();
    await stop(site.child);
  }
}

const kinds: Kind[] = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];
const runs = [];
for (const kind of kinds) runs.push({ kind, one: await serviceRun(1, kind), four: await serviceRun(4, kind) });
process.env.TEST_DB = 'embedded';
const first = runs[0]!.one;
const floorSeconds = await insertFloor(first.pages);
const bare1 = await bareLoop(1);
const bare4 = await bareLoop(4);

// Pages of the tasks that completed, a second.
const rate = (r: ServiceRun) => (r.pages * (r.executed / r.tasks)) / r.execSeconds;
const label = (kind: Kind) => (kind === 'postgres' ? 'PostgreSQL server' : 'embedded PGlite');
const table = [
  `Run ${new Date().toISOString()} with \`npm run bench:agents\` (${PAGES}-page WordPress-compatible site in its own process; ` +
    `the service on ${kinds.map(label).join(', then on ')}; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}).`,
  '',
  'The missing descriptions of the site are one problem: the agent proposes them as tasks of up to 50 pages, each page with its own draft. Execution is timed from the first approval (all approved through the API, 16 requests in flight) until every task is completed and its verification settled, and counted in pages.',
  '',
  '| Step | result | baseline in the same run | ratio |',
  '|---|---:|---:|---:|',
  `| audit of the site (crawl + checks), embedded | ${first.auditSeconds.toFixed(1)} s | | |`,
  `| strategy agent: ${first.pages} pages drafted into ${first.tasks} description tasks (${first.proposals} proposals in all, ${first.rejected} refused, recorded), embedded | ${first.agentSeconds.toFixed(1)} s | storing ${first.pages} one-page proposals directly: ${floorSeconds.toFixed(1)} s | ${(first.agentSeconds / floorSeconds).toFixed(1)}x the floor |`,
  ...runs.flatMap(({ kind, one, four }) => [
    `| execution + verification, 1 task worker, ${label(kind)} | ${rate(one).toFixed(1)} pages/s (${one.tasks} tasks: ${one.verified} verified, ${one.failed} failed) | bare WordPress round trips, 1 at a time: ${bare1.toFixed(1)} pages/s | ${((rate(one) / bare1) * 100).toFixed(0)}% |`,
    `| execution + verification, 4 task workers, ${label(kind)} | ${rate(four).toFixed(1)} pages/s (${four.tasks} tasks: ${four.verified} verified, ${four.failed} failed) | bare round trips, 4 at a time: ${bare4.toFixed(1)} pages/s | ${((rate(four) / bare4) * 100).toFixed(0)}% |`,
  ]),
  '',
  runs.map(({ kind, one, four }) => `4 workers / 1 worker on ${label(kind)}: **${(rate(four) / rate(one)).toFixed(2)}x**.`).join(' '),
].join('\n');
console.log(`\n${table}\n`);

writeSection('agents', 'Agents and execution: `npm run bench:agents`', table);
process.exit(0);
