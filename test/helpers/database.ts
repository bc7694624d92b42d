import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDatabase, PGLITE_PARSERS, type Database } from '../../src/db/client.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { createJobQueue } from '../../src/jobs/queue.ts';
import pino from 'pino';

const silentLogger = pino({ level: 'silent' });

const CACHE_DIR = path.resolve('node_modules/.cache/site-optimization-tests');

/** Which database this test run uses: scripts/test.ts runs the suite once per kind. */
export const testDatabaseKind = () => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded');

/** The snapshot's name changes with the migrations, so a stale one is never loaded. */
function snapshotPath() {
  const hash = createHash('sha256');
  for (const m of loadMigrations()) hash.update(m.version).update(m.sql);
  hash.update('pg-boss-12');
  return path.join(CACHE_DIR, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * Initialising PGlite costs 5-8 s and ~800 MB; loading a migrated data dir costs well
 * under a second. The first caller builds the snapshot, everyone after loads it.
 */
export async function ensurePGliteSnapshot(): Promise<string> {
  const file = snapshotPath();
  try {
    await fs.access(file);
    return file;
  } catch {
    // build it below
  }
  const pglite = await PGlite.create({ parsers: PGLITE_PARSERS });
  const database = await createDatabase({ pglite });
  await migrate(database);
  // pg-boss installs its own schema on first start: bake that into the snapshot too.
  const queue = createJobQueue(database, silentLogger);
  await queue.start({ work: false });
  await queue.stop();
  const dump = await pglite.dumpDataDir('none');
  await database.close();
  await fs.mkdir(CACHE_DIR, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, Buffer.from(await dump.arrayBuffer()));
  await fs.rename(temp, file); // atomic: a concurrent reader never sees half a file
  return file;
}

/** A migrated database of its own for one test file. */
export async function createTestDatabase(): Promise<Database> {
  // npm test runs on the PostgreSQL server only the files that say they use the test database; one that opens it without
  // saying so (through a helper of its own) is named here, and npm test fails rather than skip it there.
  if (process.env.TEST_DATABASE_USERS_FILE && process.argv[1]) {
    await fs.appendFile(process.env.TEST_DATABASE_USERS_FILE, `${path.relative(process.cwd(), process.argv[1])}\n`);
  }
  if (testDatabaseKind() === 'postgres') return createPostgresSchemaDatabase();
  const snapshot = await fs.readFile(await ensurePGliteSnapshot());
  const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]), parsers: PGLITE_PARSERS });
  return createDatabase({ pglite });
}

async function createPostgresSchemaDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await createDatabase({ databaseUrl: url, schema });
  await migrate(database);
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.query(`drop schema if exists ${schema}_jobs cascade`);
      await cleanup.end();
    },
  };
}
