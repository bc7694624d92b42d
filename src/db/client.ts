import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql, type KyselyPlugin, type LogEvent } from 'kysely';
import { recordQuery } from '../lib/trace-api.ts';
import { createPacer } from '../lib/pace.ts';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import type { DB } from './types.ts';

/** A session for multi-statement SQL scripts (migrations) inside one locked transaction. */
export interface ScriptSession {
  exec(script: string): Promise<void>;
  rows<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'embedded' | 'postgres';
  db: Kysely<DB>;
  /** What the job queue (pg-boss) connects to: the same database, in a schema of its own. */
  jobs: { pglite: PGlite } | { connectionString: string; schema: string };
  /** Runs fn in one transaction that no other migrator (instance or process) can enter. */
  withMigrationLock<T>(fn: (session: ScriptSession) => Promise<T>): Promise<T>;
  /** PostgreSQL: the connection pool's use now (metrics); the embedded database has one session and no pool. */
  poolUse?: () => { max: number; total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

// Both drivers must hand the service the same JS types: pg returns int8 and numeric as
// strings and dates as local-time Date objects, PGlite parses them differently again.
const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082 } as const;
const toNumber = (value: string) => Number(value);
const keepString = (value: string) => value;

const MIGRATION_LOCK_KEY = 727_431_001;

/** Each query as a span of the work that ran it, when tracing is on (lib/tracing.ts); its text, never its parameters. */
const traceQuery = (event: LogEvent) => recordQuery(event.query.sql, event.queryDurationMillis, event.level === 'error' ? event.error : undefined);

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** A ready PGlite instance (tests load one from a pre-migrated snapshot). */
  pglite?: PGlite;
  /** PostgreSQL only: the schema to work in (tests isolate each run in its own). */
  schema?: string;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options.schema);
  if (options.pglite) return wrapPGlite(options.pglite);
  const dataDir = options.dataDir ?? './data';
  // PGlite is single-process: a second server, CLI or demo on the same DATA_DIR stops here.
  await fs.mkdir(dataDir, { recursive: true });
  const release = lockDataDir(dataDir);
  try {
    const database = wrapPGlite(await openEmbedded(dataDir));
    return { ...database, close: async () => { try { await database.close(); } finally { release(); } } };
  } catch (error) {
    release();
    throw error;
  }
}

export const PGLITE_PARSERS = { [OID.INT8]: toNumber, [OID.NUMERIC]: toNumber, [OID.DATE]: keepString };

async function openEmbedded(dataDir: string): Promise<PGlite> {
  const pgdata = path.join(dataDir, 'pgdata');
  return PGlite.create(pgdata, { parsers: PGLITE_PARSERS });
}

/**
 * PGlite answers in this thread without I/O, so a run of queries (a thousand findings written
 * in batches, a proposal after another) never lets the event loop reach its poll phase, and
 * /live waits behind it. After each query the loop gets a turn once a slice has passed
 * (lib/pace.ts); a query inside a transaction still holds the one connection meanwhile.
 */
function pacingPlugin(): KyselyPlugin {
  const pace = createPacer();
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await pace();
      return args.result;
    },
  };
}

// Kysely's PGlite adapter declares a single connection, so Kysely queues every query
// behind its connection mutex: a query can never slip into another caller's open
// transaction (db.test.ts holds that line). Do not swap in kysely-pglite-dialect, which
// issues a bare BEGIN on the shared instance.
function wrapPGlite(pglite: PGlite): Database {
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }), plugins: [pacingPlugin()], log: traceQuery });
  return {
    kind: 'embedded',
    db,
    jobs: { pglite },
    // One process owns an embedded database, and pglite.transaction() is exclusive within it.
    withMigrationLock: (fn) =>
      pglite.transaction(async (tx) =>
        fn({
          exec: async (script) => void (await tx.exec(script)),
          rows: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows,
        }),
      ),
    // Kysely's driver closes the instance only if it ran a query (it takes hold of it then): one
    // used only by the job queue stayed open, and its process never ended.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function createPostgres(connectionString: string, schema?: string): Database {
  const types = new pg.TypeOverrides();
  types.setTypeParser(OID.INT8, toNumber);
  types.setTypeParser(OID.NUMERIC, toNumber);
  types.setTypeParser(OID.DATE, keepString);
  const max = 10;
  const pool = new pg.Pool({
    connectionString,
    types,
    max,
    // A server that does not answer (a dropped packet, not a refusal) fails the request in
    // seconds with a 503 instead of holding it until the client gives up.
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: traceQuery });
  return {
    kind: 'postgres',
    db,
    jobs: { connectionString, schema: schema ? `${schema}_jobs` : 'jobs' },
    poolUse: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    withMigrationLock: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const result = await fn({
          exec: async (script) => void (await client.query(script)),
          rows: async <R>(text: string, params?: unknown[]) =>
            (await client.query(text, params as unknown[])).rows as R[],
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => db.destroy(),
  };
}

// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown,
// crash recovery), and the socket errors of a server that is not there.
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** The database cannot be reached right now (as opposed to a query it refused). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SOCKET_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // A host with several addresses refuses each: Node reports an AggregateError.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}

/**
 * Waits until the database answers, for at most `timeoutMs`, so the service and its
 * database may start together. Logs each failed attempt without the connection string.
 */
export async function waitForDatabase(
  database: Database,
  options: { timeoutMs: number; log: (message: string) => void; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(database.db);
      if (attempt > 1) options.log(`database reachable after ${attempt} attempts`);
      return;
    } catch (error) {
      const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message;
      const left = deadline - Date.now();
      if (!isDatabaseUnavailable(error) || left <= 0) {
        throw new Error(`The database is not reachable (${reason}); gave up after ${attempt} attempts`, { cause: error });
      }
      const wait = Math.min(options.intervalMs ?? Math.min(500 * 2 ** (attempt - 1), 5000), left);
      options.log(`database not reachable yet (${reason}); attempt ${attempt}, retrying in ${(wait / 1000).toFixed(1)} s, giving up in ${Math.ceil(left / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
