import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * Runs fn in one database transaction. Services get this (not the database) to make several
 * repositories' writes, and jobs sent with `{ tx }`, commit or roll back together.
 */
export type Transact = <T>(fn: (trx: Kysely<DB>) => Promise<T>) => Promise<T>;

export const transactor = (db: Kysely<DB>): Transact => (fn) => db.transaction().execute(fn);

/**
 * Runs fn atomically on `db`: in a new transaction, or in the one `db` already is. Every
 * repository is a function of its executor (`createXRepo(trx)` binds one to a caller's
 * transaction); a method that needs several statements to commit together uses this, so it
 * works both on its own and inside the caller's transaction (Kysely refuses a nested one).
 */
export const atomically = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);
