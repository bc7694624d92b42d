import { CompiledQuery, type Kysely } from 'kysely';
import { PgBoss, fromPglite, type JobResult } from 'pg-boss';
import type { Logger } from 'pino';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Database } from '../db/client.ts';
import type { DB } from '../db/types.ts';
import { WORKER_INSTANCE } from './worker-instance.ts';
import { currentRequestId } from '../lib/request-context.ts';
import { deadQueue, JOBS, type DeadHandlers, type JobSpec, type DeadJobName, type JobHandlers, type JobName, type JobPayload } from './registry.ts';

export interface JobQueueTuning {
  /** A running job's worker proves it is alive this often; silence past it means the worker died. */
  heartbeatSeconds: number;
  /** How often pg-boss looks for dead workers' jobs (its supervise and monitor passes). */
  superviseIntervalSeconds: number;
  /** At most this first retry delay for every job (tests: 1 s, so a retried webhook is seen at once). */
  maxRetryDelaySeconds?: number | undefined;
}

/** The first retry delay the queue gives a job under `tuning` (its retries wait 1-2x this, doubling). */
export const retryDelayOf = (job: JobSpec, tuning: JobQueueTuning = DEFAULT_JOB_TUNING) =>
  Math.min(job.retryDelaySeconds ?? 1, tuning.maxRetryDelaySeconds ?? Number.POSITIVE_INFINITY);

/**
 * A worker killed mid-job goes silent; its heartbeat (written every 10 s) is missed 10-20 s
 * later, the next monitor pass (every 5 s) hands the job back, and it is retried 1-2 s after:
 * within 30 s of the kill. (pg-boss's default monitor interval is 60 s, which with a 30 s
 * heartbeat made that 85-90 s.)
 */
export const DEFAULT_JOB_TUNING: JobQueueTuning = { heartbeatSeconds: 20, superviseIntervalSeconds: 5 };

type Log = Pick<Logger, 'error' | 'warn' | 'info'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a job is about, for its log lines: the ids in its payload (an audit's, a task's, a site's), never anything else (a sealed token). */
const subjectOf = (data: unknown) => Object.fromEntries(Object.entries(typeof data === 'object' && data !== null ? data : {})
  .filter(([key, value]) => /Id$/.test(key) && typeof value === 'string' && UUID.test(value)));
type Handler = (data: never) => Promise<unknown>;
const NO_JOB = '00000000-0000-0000-0000-000000000000';

/** The request a job was sent from, stamped on its payload beside the fields its schema names (and taken off before it runs). */
const REQUEST_ID = '_requestId';
const stamped = (data: object) => {
  const requestId = currentRequestId();
  return requestId ? { ...data, [REQUEST_ID]: requestId } : data;
};
function unstamped(data: unknown): { data: unknown; requestId: string | undefined } {
  if (typeof data !== 'object' || data === null || !(REQUEST_ID in data)) return { data, requestId: undefined };
  const { [REQUEST_ID]: requestId, ...rest } = data as Record<string, unknown>;
  return { data: rest, requestId: typeof requestId === 'string' ? requestId.slice(0, 128) : undefined };
}

/** What pg-boss's `db` option needs, over a Kysely transaction: the job commits or rolls back with it. */
const inTransaction = (trx: Kysely<DB>) => ({
  executeSql: async (text: string, values: unknown[] = []) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values))).rows }),
});

/**
 * The durable job queue: pg-boss on the service's own database (embedded or server), so a
 * job survives a restart, a dead worker's job is retried once its heartbeat stops, a job can
 * be sent in the transaction that makes it necessary, and a job that fails every attempt
 * reaches its dead-letter handler. Payloads are checked against the registry's schemas when
 * a job runs: a payload that does not match is logged and dead-lettered, never retried.
 */
export function createJobQueue(database: Database, log: Log, tuning: JobQueueTuning = DEFAULT_JOB_TUNING, options: {
  instanceName?: string;
  /** Each job's outcome and duration, for the metrics. */
  onJob?: (queue: string, outcome: 'completed' | 'failed' | 'invalid', seconds: number) => void;
} = {}) {
  // pg-boss's instance registry (getInstances): each process by name, host and pid, live while its heartbeat (every 10 s)
  // comes; a killed one reads as not live after three missed beats, and pg-boss's maintenance deletes its row after 7 days.
  const common = {
    superviseIntervalSeconds: tuning.superviseIntervalSeconds, monitorIntervalSeconds: tuning.superviseIntervalSeconds,
    instanceHeartbeatSeconds: 10, ...(options.instanceName ? { instanceName: options.instanceName } : {}),
    // With tracing on (lib/tracing.ts), each job carries its sender's trace context: the job's span continues the request's.
    openTelemetry: { propagateContext: true },
  };
  const boss =
    'pglite' in database.jobs
      ? new PgBoss({ ...common, db: fromPglite(database.jobs.pglite), backend: 'pglite', schema: 'jobs' })
      : new PgBoss({ ...common, connectionString: database.jobs.connectionString, schema: database.jobs.schema, max: 4 });
  boss.on('error', (err: unknown) => log.error({ err }, 'job queue error'));

  async function runOne(queue: string, schema: TSchema, handler: Handler, job: { id: string; data: unknown; retryCount?: number }): Promise<JobResult> {
    const { data, requestId } = unstamped(job.data);
    // Each job's start and end, with its id, attempt, subject, the request that sent it and this worker: an operator follows
    // an audit or a task through them.
    const context = { queue, jobId: job.id, attempt: (job.retryCount ?? 0) + 1, ...subjectOf(data), ...(requestId ? { requestId } : {}), worker: WORKER_INSTANCE };
    if (!Value.Check(schema, data)) {
      const errors = [...Value.Errors(schema, data)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
      log.error({ ...context, errors }, 'job payload does not match its schema: dead-lettered without running');
      options.onJob?.(queue, 'invalid', 0);
      return { id: job.id, status: 'deadletter', output: { message: 'the payload does not match the job schema', errors } };
    }
    const started = performance.now();
    log.info(context, 'job started');
    try {
      await handler(data as never);
      log.info({ ...context, durationMs: Math.round(performance.now() - started), outcome: 'completed' }, 'job finished');
      options.onJob?.(queue, 'completed', (performance.now() - started) / 1000);
      return { id: job.id, status: 'completed' };
    } catch (error) {
      log.error({ ...context, err: error, durationMs: Math.round(performance.now() - started), outcome: 'failed' }, 'job failed');
      options.onJob?.(queue, 'failed', (performance.now() - started) / 1000);
      return { id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } };
    }
  }

  async function work(queue: string, schema: TSchema, handler: Handler, concurrency: number | undefined) {
    const throughput = concurrency ? { localConcurrency: concurrency, batchSize: 4, burstWhenBatchFull: true } : {};
    await boss.work(queue, { pollingIntervalSeconds: 1, perJobResults: true, ...throughput }, async (jobs) => {
      const results: JobResult[] = [];
      for (const job of jobs) results.push(await runOne(queue, schema, handler, job));
      return results;
    });
  }

  return {
    /**
     * Creates every queue of the registry and, with `work`, works them with these handlers.
     * `taskWorkers` is the concurrency of queues that ask for it (TASK_WORKERS).
     */
    async start(options: { work: false } | { work: true; handlers: JobHandlers; deadHandlers: DeadHandlers; taskWorkers: number }) {
      await boss.start();
      for (const [name, job] of Object.entries(JOBS) as Array<[JobName, (typeof JOBS)[JobName]]>) {
        await boss.createQueue(deadQueue(name), { retryLimit: 5 });
        const settings = {
          retryLimit: job.retryLimit,
          retryBackoff: true,
          retryDelay: retryDelayOf(job, tuning),
          expireInSeconds: job.expireInSeconds,
          heartbeatSeconds: tuning.heartbeatSeconds,
          deadLetter: deadQueue(name),
        };
        // createQueue leaves an existing queue as it was: the settings of this release apply to it too.
        await boss.createQueue(name, settings);
        await boss.updateQueue(name, settings);
        // Sending inside a transaction must not look the queue up on another connection (PGlite has one).
        await boss.getJobById(name, NO_JOB);
        // pg-boss keeps one schedule per name, so every instance may declare it.
        if ('cron' in job) await boss.schedule(name, job.cron, {});
        if (!options.work) continue;
        const concurrency = 'concurrency' in job ? (job.concurrency === 'taskWorkers' ? options.taskWorkers : job.concurrency) : undefined;
        await work(name, job.payload, options.handlers[name] as Handler, concurrency);
        const onDead = (options.deadHandlers as Partial<Record<JobName, Handler>>)[name];
        if (onDead) await work(deadQueue(name), job.payload, onDead, undefined);
      }
    },

    /** Sends a job; with `tx`, in that transaction (it exists only if the transaction commits). */
    send: <N extends JobName>(name: N, data: JobPayload<N>, options: { tx?: Kysely<DB> } = {}) =>
      boss.send(name, stamped(data as object), options.tx ? { db: inTransaction(options.tx) } : {}),
    /** Runs the job no sooner than `seconds` from now. */
    sendAfter: <N extends JobName>(name: N, data: JobPayload<N>, seconds: number) => boss.sendAfter(name, data as object, null, seconds),
    /** What pg-boss does after a job's last failed attempt (operations and tests). */
    sendDead: <N extends DeadJobName>(name: N, data: JobPayload<N>) => boss.send(deadQueue(name), data as object),

    /** Stops taking work; `graceful: false` is what a crash looks like to the other workers. */
    stop: (options: { graceful: boolean } = { graceful: true }) => boss.stop({ graceful: options.graceful, timeout: 10_000 }),

    /** The queue's settings as pg-boss stored them, and its jobs (operations and tests). */
    describe: (name: string) => boss.getQueue(name),
    schedules: (name: JobName) => boss.getSchedules(name),
    findJobs: (name: string) => boss.findJobs(name, {}),
    /** The processes that run this queue, live or not (pg-boss's instance registry). */
    instances: () => boss.getInstances(),
    /** Each queue's jobs waiting, running and failed, and its oldest ready job's wait (as of pg-boss's last monitor pass). */
    stats: async () => (await boss.getQueues()).map((q) => ({
      name: q.name, queuedCount: q.queuedCount, activeCount: q.activeCount, failedCount: q.failedCount, readyOldestSeconds: q.readyOldestSeconds,
    })),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
/** What a module needs to send jobs. */
export type JobSender = Pick<JobQueue, 'send'>;
