import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, waitForDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { startStandbyServer } from './lib/standby-server.ts';
import { startupLogger } from './lib/logger.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo } from './modules/search-data/demo.ts';
import { createSearchDataRepo } from './modules/search-data/search-data.repo.ts';

async function main() {
  const config = loadConfig();
  const database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (database.kind === 'postgres') {
    // The database may be starting alongside us: wait (bounded), answering /ready 503 meanwhile.
    const log = startupLogger(config.logLevel);
    const standby = await startStandbyServer(config.port, config.host);
    log.info({ address: standby.address, waitSeconds: config.databaseWaitSeconds }, 'waiting for the database; /ready answers 503 until it is reachable');
    try {
      await waitForDatabase(database, { timeoutMs: config.databaseWaitSeconds * 1000, log: (message) => log.warn(message) });
    } finally {
      await standby.close();
    }
  }
  await migrate(database);
  const app = await buildApp({ config, database });
  app.addHook('onClose', () => database.close());
  if (process.argv.includes('--demo')) {
    const demo = await seedDemo({ db: database.db, searchData: createSearchDataRepo(database.db) });
    // Shown once on the terminal for the person who asked for it, never logged.
    console.log(`\nDemo ready: open ${config.publicUrl}/ and sign in as ${demo.email} with password ${demo.password}\n`
      + `  (site ${demo.siteId}: ${demo.days} days of search data, ${demo.queries} queries; try GET /api/v1/analytics/dashboard?site_id=${demo.siteId})\n`);
  }

  // Stop accepting, let in-flight requests finish, then close the database; a second
  // signal (or 25 s) forces the exit.
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      app.log.info({ signal }, 'shutting down');
      setTimeout(() => process.exit(1), 25_000).unref();
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ address, database: database.kind, dataDir: database.kind === 'embedded' ? config.dataDir : undefined }, 'ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) console.error(error.message);
  else console.error('Failed to start:', error);
  process.exit(1);
});
