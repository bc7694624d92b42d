import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * Runs fn in one database transaction. Services get this (not the database) to make several
 * repositories' writes, and jobs sent with `{ tx }`, commit or roll back together.
 */
export type Transact = <T>(fn: (trx: Kysely<DB>) => Promise<T>) => Promise<T>;

export const transactor = (db: Kysely<DB>): Transact => (fn) => db.transaction().execute(fn);
