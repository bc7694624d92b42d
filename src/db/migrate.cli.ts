import { loadConfig } from '../config.ts';
import { createDatabase } from './client.ts';
import { migrate } from './migrate.ts';

// `npm run migrate`: apply pending migrations and exit (the server also does this on start).
const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(database);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await database.close();
}
