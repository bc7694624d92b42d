import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Expression } from 'kysely';
import type { DB } from './types.ts';

/**
 * Every row of one query, a batch at a time, all of them from one snapshot of the database: a
 * row written, changed or deleted while the batches are read neither shifts, repeats nor drops
 * another. For a list sorted by a figure that changes (a keyword's clicks, a query's position),
 * where a seek from the last row read is no stable place to go on from. The query runs once
 * behind a cursor: no batch sums or sorts the rows again, and none skips an offset.
 *
 * `plan` reads whatever chooses the query (a stored set, say) in the same snapshot, and gives
 * the query. PostgreSQL: a read-only REPEATABLE READ transaction holds the cursor (and one pooled
 * connection) until the last batch is read or the reader stops. Embedded: its one session serves
 * every request, and a transaction held open while a client downloads would hold them all; the
 * cursor is declared WITH HOLD in a short transaction instead, which computes its rows at commit
 * and keeps them in the session, and each batch is fetched between other requests' queries.
 */
export function snapshotBatches<T>(db: Kysely<DB>, plan: (trx: Kysely<DB>) => Promise<Expression<T>>, size: number): AsyncGenerator<T[]> {
  // A name of its own: two exports in the embedded session are two cursors.
  const cursor = sql.id(`snapshot_${randomUUID().replaceAll('-', '')}`);
  return db.getExecutor().adapter.supportsMultipleConnections ? inTransaction(db, cursor, plan, size) : heldInSession(db, cursor, plan, size);
}

type Cursor = ReturnType<typeof sql.id>;

/** Every batch of a cursor, until one comes short. */
async function* batchesOf<T>(executor: Kysely<DB>, cursor: Cursor, size: number): AsyncGenerator<T[]> {
  for (;;) {
    const { rows } = await sql<T>`fetch forward ${sql.lit(size)} from ${cursor}`.execute(executor);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
  }
}

async function* inTransaction<T>(db: Kysely<DB>, cursor: Cursor, plan: (trx: Kysely<DB>) => Promise<Expression<T>>, size: number) {
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  let committed = false;
  try {
    await sql`declare ${cursor} no scroll cursor for ${await plan(trx)}`.execute(trx);
    yield* batchesOf<T>(trx, cursor, size);
    await trx.commit().execute();
    committed = true;
  } finally {
    // A failed read, or a reader that stopped early (a client gone): the connection goes back to the pool.
    if (!committed) await trx.rollback().execute();
  }
}

async function* heldInSession<T>(db: Kysely<DB>, cursor: Cursor, plan: (trx: Kysely<DB>) => Promise<Expression<T>>, size: number) {
  // One session, and its transactions exclusive: nothing writes between the plan's reads and the cursor's.
  await db.transaction().execute(async (trx) => {
    await sql`declare ${cursor} no scroll cursor with hold for ${await plan(trx)}`.execute(trx);
  });
  try {
    yield* batchesOf<T>(db, cursor, size);
  } finally {
    await sql`close ${cursor}`.execute(db);
  }
}
