import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { insertOwnedSite } from '../../../test/helpers/owned-site.ts';
import type { Database } from '../../db/client.ts';
import { keysetBatches } from '../../lib/csv-export.ts';
import { createTasksRepo, type TaskSeek } from './tasks.repo.ts';

/**
 * The tasks export reads its batches by keyset (newest first, then id: a task's creation time
 * never changes): a task created while the export reads comes before the rows read, and must
 * not shift them (an offset would give the last row read again).
 */
let database: Database;
let userId: string;
let siteId: string;
/** The tasks in the export's order, newest first. */
let expected: string[];

before(async () => {
  database = await createTestDatabase();
  const db = database.db;
  ({ userId, siteId } = await insertOwnedSite(db, 'tasks-export.example.org'));
  const repo = createTasksRepo(db);
  // Created at these instants: two within one millisecond (a JavaScript Date cannot tell them apart), two at the same instant.
  const created = ['2026-01-01 00:00:00.000300+00', '2026-01-01 00:00:00.000100+00', '2025-12-31 12:00:00+00', '2025-12-31 12:00:00+00', '2025-12-30 08:00:00+00'];
  const ids: Array<{ id: string; at: string }> = [];
  for (const [i, at] of created.entries()) {
    const id = (await repo.insertProposal({
      siteId, type: 'fix_title_tag', category: 'seo', priority: 'high', title: `task ${i}`, description: 'd',
      target: `https://tasks-export.example.org/${i}`, configuration: {}, evidence: [],
    }))!;
    await sql`update tasks set created_at = ${at}::timestamptz where id = ${id}`.execute(db);
    ids.push({ id, at });
  }
  // Newest first; at one instant, by id.
  expected = ids.sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? 1 : -1)).map((t) => t.id);
});
after(() => database.close());

describe('the tasks export', () => {
  const read = (size: number) => keysetBatches(
    (after: TaskSeek | undefined, limit: number) => createTasksRepo(database.db).exportPage(userId, { siteId }, after, limit),
    (last) => ({ created_at: last.seek_created_at, id: last.id }), size,
  );

  it('reads every task once in the list order, whatever the batch size, microseconds apart too', async () => {
    for (const size of [1, 2, 3, 5, 10]) {
      const ids: string[] = [];
      for await (const batch of read(size)) ids.push(...batch.map((t) => t.id));
      assert.deepEqual(ids, expected, `batches of ${size}`);
    }
  });

  it('is not shifted by a task created between two batches', async () => {
    const ids: string[] = [];
    for await (const batch of read(2)) {
      ids.push(...batch.map((t) => t.id));
      if (ids.length === 2) {
        await createTasksRepo(database.db).insertProposal({
          siteId, type: 'fix_title_tag', category: 'seo', priority: 'high', title: 'created meanwhile', description: 'd',
          target: 'https://tasks-export.example.org/new', configuration: {}, evidence: [],
        });
      }
    }
    assert.deepEqual(ids, expected, 'the new task is ahead of the rows read: none read twice, none missed');
  });
});
