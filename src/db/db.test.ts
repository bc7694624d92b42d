import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase } from '../../test/helpers/database.ts';
import { PGlite } from '@electric-sql/pglite';
import { createDatabase, type Database } from './client.ts';
import { migrate } from './migrate.ts';

let database: Database;
before(async () => {
  database = await createTestDatabase();
});
after(() => database.close());

describe('database layer', () => {
  it('closes an embedded database no query went through (one only the job queue used)', async () => {
    const pglite = await PGlite.create();
    await (await createDatabase({ pglite })).close();
    assert.equal(pglite.closed, true, 'an open instance keeps its process from ending');
  });

  it('lets the event loop turn during a run of queries, in and out of a transaction (the embedded database answers without I/O)', async () => {
    let turns = 0;
    let running = true;
    const turn = () => {
      turns += 1;
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    const queriesFor = async (executor: typeof database.db, ms: number) => {
      const started = performance.now();
      while (performance.now() - started < ms) await sql`select 1`.execute(executor);
    };
    await queriesFor(database.db, 200);
    const outside = turns;
    await database.db.transaction().execute((trx) => queriesFor(trx, 200));
    running = false;
    // 200 ms of queries with a turn at least every slice (10 ms): ten or more each time.
    assert.ok(outside >= 10, `${outside} turns while queries ran`);
    assert.ok(turns - outside >= 10, `${turns - outside} turns while a transaction's queries ran`);
  });

  it('returns the same JS types from both drivers', async () => {
    const { rows } = await sql<{ n: unknown; big: unknown; num: unknown; day: unknown; at: unknown }>`
      select count(*) as n, 9007199254740::int8 as big, 12.5::numeric as num, date '2026-03-01' as day, now() as at
    `.execute(database.db);
    const row = rows[0]!;
    assert.equal(row.n, 0 + Number(row.n));
    assert.equal(typeof row.n, 'number');
    assert.equal(row.big, 9007199254740);
    assert.equal(row.num, 12.5);
    assert.equal(row.day, '2026-03-01', 'calendar dates stay strings, free of time zones');
    assert.ok(row.at instanceof Date);
  });

  it('keeps unrelated writes out of a transaction that rolls back', async () => {
    // PGlite has one connection: a dialect that does not queue callers behind a mutex
    // lets this insert join the open transaction and vanish with its rollback.
    let release!: () => void;
    let begun!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (begun = resolve));
    const tx = database.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('users').values({ email: 'in-tx@example.com', name: 'tx', password_hash: null }).execute();
        begun();
        await held;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await started;
    const outside = database.db.insertInto('users').values({ email: 'outside@example.com', name: 'out', password_hash: null }).execute();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    assert.equal(await tx, 'rolled back');
    await outside;
    const emails = (await database.db.selectFrom('users').select('email').where('email', 'in', ['in-tx@example.com', 'outside@example.com']).execute()).map((r) => r.email);
    assert.deepEqual(emails, ['outside@example.com']);
  });

  it('runs a repository inside a caller\'s transaction when bound to it, its own atomic steps included', async () => {
    const { createUsersRepo } = await import('../modules/users/users.repo.ts');
    const identity = { sub: 'bound-sub', email: 'bound@example.com', name: 'Bound' };
    // users.repo links or creates a Google user in several statements that commit together (atomically()).
    const outcome = await database.db.transaction().execute(async (trx) => {
      await createUsersRepo(trx).findOrCreateByGoogle(identity);
      throw new Error('the caller rolls back');
    }).catch((error: Error) => error.message);
    assert.equal(outcome, 'the caller rolls back', 'no "nested transaction" error: the steps joined the caller\'s transaction');
    assert.equal((await database.db.selectFrom('users').select('id').where('email', '=', identity.email).execute()).length, 0, 'and rolled back with it');
    await createUsersRepo(database.db).findOrCreateByGoogle(identity);
    assert.equal((await database.db.selectFrom('users').select('id').where('email', '=', identity.email).execute()).length, 1, 'on its own it commits (the control)');
  });

  it('migrates idempotently', async () => {
    assert.deepEqual(await migrate(database), []);
  });
});
