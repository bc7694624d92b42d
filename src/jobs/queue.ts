import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from '../db/client.ts';

/** A typed job: its queue name, retry policy and handler. Handlers must be idempotent. */
export interface JobDefinition<T extends object> {
  name: string;
  retryLimit: number;
  /** How long one attempt may run before pg-boss takes it back (a worker that died). */
  expireInSeconds: number;
  handler: (data: T) => Promise<void>;
}

/**
 * The durable job queue: pg-boss on the service's own database (embedded or server), so
 * a job survives a restart and a crashed worker's job is retried after it expires.
 */
export function createJobQueue(database: Database, log: FastifyBaseLogger) {
  const boss =
    'pglite' in database.jobs
      ? new PgBoss({ db: fromPglite(database.jobs.pglite), backend: 'pglite', schema: 'jobs' })
      : new PgBoss({ connectionString: database.jobs.connectionString, schema: database.jobs.schema, max: 4 });
  boss.on('error', (err: unknown) => log.error({ err }, 'job queue error'));
  const definitions: Array<JobDefinition<never>> = [];

  return {
    define<T extends object>(definition: JobDefinition<T>) {
      definitions.push(definition as unknown as JobDefinition<never>);
    },

    async start(options: { work: boolean }) {
      await boss.start();
      for (const d of definitions) {
        await boss.createQueue(d.name, { retryLimit: d.retryLimit, retryBackoff: true, expireInSeconds: d.expireInSeconds });
        if (options.work) {
          await boss.work(d.name, { pollingIntervalSeconds: 1 }, async (jobs: Array<{ data: never }>) => {
            for (const job of jobs) await d.handler(job.data);
          });
        }
      }
    },

    send: <T extends object>(name: string, data: T) => boss.send(name, data),

    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
