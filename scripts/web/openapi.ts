// Builds the service without listening, on a throwaway in-memory database, and returns
// its OpenAPI document: the web app's typed client is generated from this at build time,
// so a changed API breaks the web build instead of the user.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDatabase, PGLITE_PARSERS } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

export async function openApiDocument(): Promise<unknown> {
  const secret = () => randomBytes(32).toString('base64');
  const config = loadConfig({ JWT_SECRET: secret(), SECRETS_KEY: secret(), LOG_LEVEL: 'silent', DATA_DIR: 'node_modules/.cache/web-build' });
  const database = await createDatabase({ pglite: await PGlite.create({ parsers: PGLITE_PARSERS }) });
  try {
    await migrate(database);
    const app = await buildApp({ config, database, logger: false, workJobs: false });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
