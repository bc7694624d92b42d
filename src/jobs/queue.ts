import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from '../db/client.ts';

/** A typed job: its queue name, retry policy and handler. Handlers must be idempotent. */
export interface JobDefinition<T extends object> {
  name: string;
  retryLimit: number;
  /** Upper bound for one attempt, whatever its heartbeats say. */
  expireInSeconds: number;
  handler: (data: T) => Promise<void>;
  /** Called once the job has failed on every attempt (its dead-letter queue). */
  onDead?: (data: T) => Promise<void>;
  /** Run on this cron schedule (UTC) as well as when sent. */
  cron?: string;
  /**
   * Workers of this queue in one process (default 1). Such queues fetch 4 jobs at a time and
   * fetch again at once while batches come back full: a backlog of short jobs is not paced
   * by the polling interval.
   */
  concurrency?: number;
}

export interface JobQueueTuning {
  /** A running job's worker proves it is alive this often; silence past it means the worker died. */
  heartbeatSeconds: number;
  /** How often pg-boss looks for dead workers' jobs. */
  superviseIntervalSeconds: number;
}

export const DEFAULT_JOB_TUNING: JobQueueTuning = { heartbeatSeconds: 30, superviseIntervalSeconds: 15 };

/**
 * The durable job queue: pg-boss on the service's own database (embedded or server), so a
 * job survives a restart, a dead worker's job is retried once its heartbeat stops, and a
 * job that fails every attempt reaches its definition's onDead.
 */
export function createJobQueue(database: Database, log: FastifyBaseLogger, tuning: JobQueueTuning = DEFAULT_JOB_TUNING) {
  const common = { superviseIntervalSeconds: tuning.superviseIntervalSeconds };
  const boss =
    'pglite' in database.jobs
      ? new PgBoss({ ...common, db: fromPglite(database.jobs.pglite), backend: 'pglite', schema: 'jobs' })
      : new PgBoss({ ...common, connectionString: database.jobs.connectionString, schema: database.jobs.schema, max: 4 });
  boss.on('error', (err: unknown) => log.error({ err }, 'job queue error'));
  const definitions: Array<JobDefinition<never>> = [];
  const deadQueue = (name: string) => `${name}.dead`;

  return {
    define<T extends object>(definition: JobDefinition<T>) {
      definitions.push(definition as unknown as JobDefinition<never>);
    },

    async start(options: { work: boolean }) {
      await boss.start();
      for (const d of definitions) {
        if (d.onDead) await boss.createQueue(deadQueue(d.name), { retryLimit: 5 });
        await boss.createQueue(d.name, {
          retryLimit: d.retryLimit,
          retryBackoff: true,
          expireInSeconds: d.expireInSeconds,
          heartbeatSeconds: tuning.heartbeatSeconds,
          ...(d.onDead ? { deadLetter: deadQueue(d.name) } : {}),
        });
        // pg-boss keeps one schedule per name, so every instance may declare it.
        if (d.cron) await boss.schedule(d.name, d.cron, {});
        if (!options.work) continue;
        const throughput = d.concurrency ? { localConcurrency: d.concurrency, batchSize: 4, burstWhenBatchFull: true } : {};
        await boss.work(d.name, { pollingIntervalSeconds: 1, ...throughput }, async (jobs: Array<{ data: never }>) => {
          for (const job of jobs) await d.handler(job.data);
        });
        const onDead = d.onDead;
        if (onDead) {
          await boss.work(deadQueue(d.name), { pollingIntervalSeconds: 1 }, async (jobs: Array<{ data: never }>) => {
            for (const job of jobs) await onDead(job.data);
          });
        }
      }
    },

    send: <T extends object>(name: string, data: T) => boss.send(name, data),
    /** Runs the job no sooner than `seconds` from now. */
    sendAfter: <T extends object>(name: string, data: T, seconds: number) => boss.sendAfter(name, data, null, seconds),

    /** Stops taking work; `graceful: false` is what a crash looks like to the other workers. */
    stop: (options: { graceful: boolean } = { graceful: true }) => boss.stop({ graceful: options.graceful, timeout: 10_000 }),

    /** The queue's settings as pg-boss stored them (operations and tests). */
    describe: (name: string) => boss.getQueue(name),
    schedules: (name: string) => boss.getSchedules(name),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
