import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase } from '../../test/helpers/database.ts';
import type { Database } from './client.ts';
import { snapshotBatches } from './snapshot-cursor.ts';

let database: Database;
const emails = Array.from({ length: 7 }, (_, i) => `snapshot-${i + 1}@example.com`);

before(async () => {
  database = await createTestDatabase();
  await database.db.insertInto('users').values(emails.map((email) => ({ email, name: 'S' }))).execute();
});
after(() => database.close());

describe('snapshot batches', () => {
  const ordered = (pattern: string) => async () => database.db.selectFrom('users').select('email').where('email', 'like', pattern).orderBy('email');

  it('read every row of the query once, from one snapshot, whatever is written between the batches', async () => {
    const seen: string[][] = [];
    for await (const batch of snapshotBatches(database.db, ordered('snapshot-%'), 3)) {
      seen.push(batch.map((r) => r.email));
      if (seen.length === 1) {
        // Ahead of the rows read: an offset would now read the third row again. And one of the rows not read yet goes.
        await database.db.insertInto('users').values({ email: 'snapshot-0@example.com', name: 'S' }).execute();
        await database.db.deleteFrom('users').where('email', '=', emails[5]!).execute();
      }
    }
    assert.deepEqual(seen, [emails.slice(0, 3), emails.slice(3, 6), emails.slice(6)]);
    const now = await database.db.selectFrom('users').select('email').where('email', 'like', 'snapshot-%').orderBy('email').execute();
    assert.equal(now.length, 7, 'the writes were made while the export read');
  });

  it('give nothing for no rows, and let go of the cursor when the reader stops early', async () => {
    for await (const _ of snapshotBatches(database.db, ordered('nobody-%'), 3)) assert.fail('no batch');
    for await (const batch of snapshotBatches(database.db, ordered('snapshot-%'), 2)) {
      assert.equal(batch.length, 2);
      break;
    }
    // The session (embedded) or the pooled connection (PostgreSQL) is free again: no cursor left, writes go through.
    const { rows } = await sql<{ open: number }>`select count(*)::int as open from pg_cursors where name like 'snapshot\_%'`.execute(database.db);
    assert.equal(rows[0]!.open, 0);
    await database.db.insertInto('users').values({ email: 'after@example.com', name: 'A' }).execute();
  });
});
