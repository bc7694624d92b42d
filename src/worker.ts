import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';

/**
 * `npm run worker`: works audit and task jobs without serving HTTP, to scale out. Any
 * number of workers share one PostgreSQL database; pg-boss hands each job to one of them.
 * (The embedded database belongs to one process: workers need DATABASE_URL.)
 */
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(['npm run worker needs DATABASE_URL: the embedded database can only be used by the server process itself']);
  }
  const database = await createDatabase({ databaseUrl: config.databaseUrl });
  await migrate(database);
  // The same services and job definitions as the server; it never listens.
  const app = await buildApp({ config, database, workJobs: true });
  app.addHook('onClose', () => database.close());
  await app.ready();
  app.log.info('worker ready');

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      app.log.info({ signal }, 'worker shutting down: finishing the jobs in hand');
      setTimeout(() => process.exit(1), 25_000).unref();
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
