import {
  PGliteDialect,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type TransactionSettings,
} from 'kysely';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Kysely's PGliteDialect hands every caller the same single connection, and while a
 * transaction is open that connection routes *all* queries into it. Under concurrent
 * requests an unrelated write would then join someone else's transaction and vanish
 * with its rollback. A mutex around acquire/release gives each caller the connection
 * alone, as Kysely's SQLite driver does; PGlite runs one query at a time anyway.
 */
export class SerializedPGliteDialect implements Dialect {
  readonly #inner: PGliteDialect;
  readonly #mutex = new Mutex();

  constructor(pglite: PGlite) {
    this.#inner = new PGliteDialect({ pglite: pglite as never });
  }

  /** Runs fn while no Kysely query can touch the instance (migrations use it). */
  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#mutex.run(fn);
  }

  createDriver(): Driver {
    const driver = this.#inner.createDriver();
    const mutex = this.#mutex;
    return {
      init: (options) => driver.init(options),
      async acquireConnection(options) {
        await mutex.lock();
        return driver.acquireConnection(options);
      },
      async releaseConnection(connection) {
        try {
          await driver.releaseConnection(connection);
        } finally {
          mutex.unlock();
        }
      },
      beginTransaction: (c: DatabaseConnection, s: TransactionSettings) => driver.beginTransaction(c, s),
      commitTransaction: (c: DatabaseConnection) => driver.commitTransaction(c),
      rollbackTransaction: (c: DatabaseConnection) => driver.rollbackTransaction(c),
      savepoint: driver.savepoint?.bind(driver),
      rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
      releaseSavepoint: driver.releaseSavepoint?.bind(driver),
      destroy: () => driver.destroy(),
    };
  }

  createQueryCompiler() {
    return this.#inner.createQueryCompiler();
  }
  createAdapter() {
    return this.#inner.createAdapter();
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return this.#inner.createIntrospector(db);
  }
}

class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.lock();
    try {
      return await fn();
    } finally {
      this.unlock();
    }
  }
}
