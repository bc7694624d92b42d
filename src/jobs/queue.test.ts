import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { hostname } from 'node:os';
import pino from 'pino';
import { createTestDatabase } from '../../test/helpers/database.ts';
import { until } from '../../test/helpers/wait.ts';
import type { Database } from '../db/client.ts';
import { createJobQueue, type JobQueue } from './queue.ts';
import { WORKER_INSTANCE } from './worker-instance.ts';
import { runInRequest } from '../lib/request-context.ts';
import { JOBS, type DeadHandlers, type JobHandlers, type JobName } from './registry.ts';

let database: Database;
let queue: JobQueue;
const logged: Array<{ msg: string; queue?: string; errors?: string[] } & Record<string, unknown>> = [];
const ran: Array<{ name: string; data: unknown }> = [];

before(async () => {
  database = await createTestDatabase();
  const sink = new Writable({ write: (chunk, _enc, done) => void (logged.push(JSON.parse(String(chunk))), done()) });
  queue = createJobQueue(database, pino({ level: 'info' }, sink), { heartbeatSeconds: 10, superviseIntervalSeconds: 1 });
  const record = (name: string) => async (data: unknown) => void ran.push({ name, data });
  const handlers = Object.fromEntries(Object.keys(JOBS).map((name) => [name, record(name)])) as unknown as JobHandlers;
  const deadHandlers = { 'audit.run': record('audit.run.dead'), 'agent.plan-from-audit': record('agent.plan-from-audit.dead') } as DeadHandlers;
  await queue.start({ work: true, handlers, deadHandlers, taskWorkers: 2 });
});
after(async () => {
  await queue.stop();
  await database.close();
});

/** Compile-time only: the payload of a send is checked against the job's schema. */
export function sendIsTypeChecked(q: JobQueue) {
  // @ts-expect-error a payload without the job's fields does not compile
  void q.send('search.sync', { site: 'x' });
  // @ts-expect-error nor does a job name the registry does not know
  void q.send('search.sync-everything', {});
  const name: JobName = 'task.verify';
  // @ts-expect-error task.verify needs its attempt number
  void q.send(name, { taskId: 'x' });
}

describe('the job registry', () => {
  it('runs a job whose payload matches its schema', async () => {
    const siteId = '6f1c3c1e-8d9e-4b7a-9c2e-1a2b3c4d5e6f';
    await queue.send('search.sync', { siteId });
    await until(async () => ran, (r) => r.some((j) => j.name === 'search.sync'), 'the job run');
    assert.deepEqual(ran.find((j) => j.name === 'search.sync')?.data, { siteId });
  });

  it('logs each job\'s start and end: its id, attempt, subject ids and this worker, never the rest of its payload', async () => {
    const siteId = '0b6f1d2e-3c4a-4b5c-8d6e-7f8091a2b3c4';
    const id = await queue.send('search.sync', { siteId });
    const invitationId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    await queue.send('mail.invitation', { invitationId, token: 'sealed-token-not-for-logs' });
    const finished = await until(async () => logged.find((l) => l.msg === 'job finished' && l.jobId === id), (l) => l !== undefined, 'the job\'s end');
    const started = logged.find((l) => l.msg === 'job started' && l.jobId === id);
    assert.deepEqual(started, { ...started, queue: 'search.sync', attempt: 1, siteId, worker: WORKER_INSTANCE });
    assert.equal(finished?.outcome, 'completed');
    assert.equal(typeof finished?.durationMs, 'number');
    await until(async () => logged.find((l) => l.msg === 'job finished' && l.invitationId === invitationId), (l) => l !== undefined, 'the mail job\'s end');
    assert.ok(!JSON.stringify(logged).includes('sealed-token-not-for-logs'), 'a payload\'s token is never logged');
  });

  it('stamps the request that sent a job on it: its log lines say which, and its handler sees only its own payload', async () => {
    const siteId = '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
    const id = await runInRequest('req-4711', () => queue.send('search.sync', { siteId }));
    const finished = await until(async () => logged.find((l) => l.msg === 'job finished' && l.jobId === id), (l) => l !== undefined, 'the job\'s end');
    assert.equal(finished?.requestId, 'req-4711');
    assert.equal(logged.find((l) => l.msg === 'job started' && l.jobId === id)?.requestId, 'req-4711');
    assert.deepEqual(ran.filter((j) => (j.data as { siteId: string }).siteId === siteId).map((j) => j.data), [{ siteId }], 'the stamp is taken off before the payload is checked and run');
  });

  it('lists each process in the instance registry by name, host and pid, and a stopped one as not live', async () => {
    const second = createJobQueue(database, pino({ level: 'silent' }), { heartbeatSeconds: 10, superviseIntervalSeconds: 1 }, { instanceName: 'worker' });
    await second.start({ work: false });
    const mine = async () => (await queue.instances()).filter((i) => i.name === 'worker' && i.pid === process.pid);
    const [running] = await mine();
    assert.equal(running?.live, true);
    assert.equal(running?.host, hostname());
    await second.stop();
    const [stopped] = await mine();
    assert.equal(stopped?.live, false, 'a stopped worker is not listed as running');
  });

  it('dead-letters a payload that fails its schema at run time, with a clear log, without running or retrying it', async () => {
    await queue.send('task.verify', { taskId: 'not-a-uuid', attempt: 0 });
    const dead = await until(() => queue.findJobs('task.verify.dead'), (jobs) => jobs.length > 0, 'the dead-lettered job');
    assert.deepEqual(dead[0]?.data, { taskId: 'not-a-uuid', attempt: 0 });
    const [original] = (await queue.findJobs('task.verify')).filter((j) => (j.data as { taskId: string }).taskId === 'not-a-uuid');
    assert.equal(original?.state, 'failed');
    assert.equal(original?.retryCount, 0, 'never retried: the payload would fail again');
    assert.ok(!ran.some((j) => j.name === 'task.verify'), 'the handler never saw it');
    const line = logged.find((l) => l.queue === 'task.verify');
    assert.match(line?.msg ?? '', /does not match its schema/);
    assert.deepEqual(line?.errors, ['/taskId must match format "uuid"', '/attempt must be >= 1']);
  });

  it('checks dead-letter payloads too: a bad one reaches no dead-letter handler', async () => {
    await queue.sendDead('audit.run', { auditId: 'nope' });
    await until(async () => logged, (l) => l.some((x) => x.queue === 'audit.run.dead'), 'the refusal logged');
    assert.ok(!ran.some((j) => j.name === 'audit.run.dead'));
  });
});
