import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: string;
  sql: string;
}

/** Plain SQL files named NNNN_description.sql, applied in order of their names. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: name.replace(/\.sql$/, ''), sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

let bundled: Migration[] | undefined;
/** The migrations shipped with this build, read from disk once. */
const bundledMigrations = () => (bundled ??= loadMigrations());

const CREATE_LEDGER = `create table if not exists schema_migrations (
  version text primary key,
  applied_at timestamptz not null default now()
)`;

/** Applies what is missing, each migration with its ledger row, all under one lock. */
export async function migrate(database: Database, migrations = bundledMigrations()): Promise<string[]> {
  return database.withMigrationLock(async (session) => {
    await session.exec(CREATE_LEDGER);
    const applied = new Set(
      (await session.rows<{ version: string }>('select version from schema_migrations')).map((r) => r.version),
    );
    const pending = migrations.filter((m) => !applied.has(m.version));
    for (const migration of pending) {
      await session.exec(migration.sql);
      await session.rows('insert into schema_migrations (version) values ($1)', [migration.version]);
    }
    return pending.map((m) => m.version);
  });
}

/** The versions the code expects but the database has not applied (empty when current). */
export async function pendingMigrations(database: Database, migrations = bundledMigrations()): Promise<string[]> {
  const rows = await database.db.selectFrom('schema_migrations').select('version').execute();
  const applied = new Set(rows.map((r) => r.version));
  return migrations.map((m) => m.version).filter((v) => !applied.has(v));
}
