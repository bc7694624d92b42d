import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, waitForDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { startStandbyServer } from './lib/standby-server.ts';
import { startupLogger } from './lib/logger.ts';
import { migrate } from './db/migrate.ts';
import { runDemo, type DemoResult } from './modules/demo/demo.ts';
import { demoSiteContent } from './modules/demo/demo-site.ts';
import { startWordPressServer } from './modules/demo/wordpress-stand-in.ts';
import { startSpaSite } from './modules/demo/spa-site.ts';

async function main() {
  let config = loadConfig();
  const demo = process.argv.includes('--demo');
  // The demo's website lives in this process and only this process may reach it: its audit,
  // execution and verification must run here too.
  if (demo && !config.jobsInProcess) throw new ConfigError(['npm run demo works its jobs in this process: unset JOBS_IN_PROCESS (or set it to true)']);
  // The demo's own website, on this machine: the audit, the connector and the verifier may
  // reach it, and no other private address (unless ALLOW_PRIVATE_TARGETS says so).
  const website = demo ? await startWordPressServer(demoSiteContent()) : undefined;
  // And a client-rendered shop, to show an audit that renders JavaScript.
  const spa = demo ? await startSpaSite() : undefined;
  if (website && spa && config.allowPrivateTargets !== true) config = { ...config, allowPrivateTargets: { hosts: [website.host, spa.host] } };
  // Traces only where a collector is configured: the SDK is not even loaded otherwise.
  if (config.otlpEndpoint) (await import('./lib/tracing.ts')).startTracing({ serviceName: 'site-optimization-api', endpoint: config.otlpEndpoint });
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
  if (website) app.addHook('onClose', () => website.close());
  if (spa) app.addHook('onClose', () => spa.close());
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
  if (website) {
    console.log(`\nPreparing the demo: auditing the demo shop's website (${website.origin}), proposing, executing and verifying...`);
    const { users, sites, searchData } = app.services;
    await runDemo({ app, users, sites, searchData, website, ...(spa ? { spa } : {}) }).then(
      // Shown once on the terminal for the person who asked for it, never logged.
      (result) => console.log(demoReport(config.publicUrl, website.origin, result)),
      (err: unknown) => {
        app.log.error({ err }, 'the demo journey failed');
        console.log(`\nThe demo could not finish: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  }
}

function demoReport(publicUrl: string, website: string, r: DemoResult) {
  const executed = r.executed.map((t) => `    - ${t.title}: ${t.status}, verification ${t.verification ?? 'none'}`).join('\n');
  return `\nDemo ready: open ${publicUrl}/ and sign in as ${r.email} with password ${r.password}\n`
    + `  Demo Garden Shop (${website}, a local WordPress site that lives while this process runs):\n`
    + `  audit ${r.audit.status}, ${r.audit.pages} pages, health score ${r.audit.score ?? 'none'}, ${r.audit.findings} findings in ${r.audit.checks} checks;\n`
    + `  ${r.awaitingApproval} proposals await your approval; the demo approved ${r.executed.length}, executed through the connector:\n${executed}\n`
    + `  ${r.days} days of search data, ${r.queries} queries (site ${r.siteId}).\n`
    + (r.spa ? `  Northwind Roasters, a client-rendered shop: audit ${r.spa.status}, ${r.spa.pages} pages, ${r.spa.rendered} rendered in Chromium`
      + `${r.spa.unavailable ? ` (${r.spa.unavailable})` : ''}.\n` : '');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) console.error(error.message);
  else console.error('Failed to start:', error);
  process.exit(1);
});
