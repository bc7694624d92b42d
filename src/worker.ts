import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';
import { createDatabase, waitForDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { loggerOptions } from './lib/logger.ts';

/**
 * `npm run worker`: works the durable jobs without serving HTTP, to scale out. Any number of
 * workers share one PostgreSQL database; pg-boss hands each job to one of them. It builds
 * the same services as the server (container.ts) and never loads Fastify or the HTTP app.
 * (The embedded database belongs to one process: workers need DATABASE_URL.)
 */
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(['npm run worker needs DATABASE_URL: the embedded database can only be used by the server process itself']);
  }
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  // Traces only where a collector is configured: the SDK is not even loaded otherwise.
  if (config.otlpEndpoint) (await import('./lib/tracing.ts')).startTracing({ serviceName: 'site-optimization-worker', endpoint: config.otlpEndpoint });
  const database = await createDatabase({ databaseUrl: config.databaseUrl });
  // The database may be starting alongside the worker (an orchestrator starts both): wait, bounded.
  log.info({ waitSeconds: config.databaseWaitSeconds }, 'waiting for the database');
  await waitForDatabase(database, { timeoutMs: config.databaseWaitSeconds * 1000, log: (message) => log.warn(message) });
  await migrate(database);
  const container = await createContainer({ config, database, log, role: 'worker' });
  await container.startJobs(true);
  await container.startMetrics();
  log.info('worker ready');

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      log.info({ signal }, 'worker shutting down: finishing the jobs in hand');
      setTimeout(() => process.exit(1), 25_000).unref();
      container.close().then(() => database.close()).then(() => process.exit(0), () => process.exit(1));
    });
  }
}

main().catch((error: unknown) => {
  // The message only: a connection error's details may carry the connection string.
  console.error(error instanceof ConfigError ? error.message : `The worker could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
