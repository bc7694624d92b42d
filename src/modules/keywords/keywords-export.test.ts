import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { insertOwnedSite } from '../../../test/helpers/owned-site.ts';
import type { Database } from '../../db/client.ts';
import { createKeywordsRepo } from './keywords.repo.ts';

/**
 * The keywords export is sorted by figures a sync rewrites (the last 28 days' clicks, the
 * positions): no row read is a stable place to go on from, so it reads one snapshot. A sync
 * between two batches (a keyword read already climbing, another added) changes nothing in it.
 */
let database: Database;
let siteId: string;
const CLICKS = { alpha: 90, bravo: 70, charlie: 50, delta: 30, echo: 10 };

before(async () => {
  database = await createTestDatabase();
  ({ siteId } = await insertOwnedSite(database.db, 'keywords-export.example.org'));
  await database.db.insertInto('keywords')
    .values(Object.entries(CLICKS).map(([keyword, clicks]) => ({ site_id: siteId, keyword, source: 'search_console', intent: 'informational', clicks_28d: clicks })))
    .execute();
});
after(() => database.close());

describe('the keywords export', () => {
  it('reads the keywords as they were when it began, whatever a sync writes between two batches', async () => {
    const repo = createKeywordsRepo(database.db);
    const read: string[] = [];
    for await (const batch of repo.exportBatches(siteId, { sort: 'clicks', dir: 'desc' }, {}, 2)) {
      read.push(...batch.map((k) => `${k.keyword} ${k.clicks_28d}`));
      if (read.length === 2) {
        // Read by a seek from 'bravo' (70), 'echo' would now come again after it, and 'charlie' never.
        await database.db.updateTable('keywords').set({ clicks_28d: 100 }).where('keyword', '=', 'charlie').execute();
        await database.db.updateTable('keywords').set({ clicks_28d: 60 }).where('keyword', '=', 'echo').execute();
        await database.db.insertInto('keywords').values({ site_id: siteId, keyword: 'foxtrot', source: 'manual', intent: 'informational', clicks_28d: 80 }).execute();
      }
    }
    assert.deepEqual(read, ['alpha 90', 'bravo 70', 'charlie 50', 'delta 30', 'echo 10']);
  });
});
