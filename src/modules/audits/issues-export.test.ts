import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { insertOwnedSite } from '../../../test/helpers/owned-site.ts';
import type { Database } from '../../db/client.ts';
import { keysetBatches } from '../../lib/csv-export.ts';
import { createAuditsRepo, type IssueSeek } from './audits.repo.ts';

/**
 * The audit issues export reads its batches by keyset (the check's rank, the check, the URL,
 * the value with none last): every issue once in the one order, whatever the batch size, and
 * an issue written between two batches ahead of the rows read shifts none of them.
 */
let database: Database;
let auditId: string;
/** Most severe first: the export's check order. */
const ORDER = ['page_5xx', 'title_missing', 'broken_link'];
const url = (path: string) => `https://issues-export.example.org${path}`;

before(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const { siteId } = await insertOwnedSite(db, 'issues-export.example.org');
  auditId = (await db.insertInto('audits').values({ site_id: siteId, status: 'completed', max_pages: 10 }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('audit_issues').values([
    // A page's broken links: one row per target, and one with no value.
    { check_id: 'broken_link', url: url('/a'), value: url('/gone-2') },
    { check_id: 'broken_link', url: url('/a'), value: null },
    { check_id: 'broken_link', url: url('/a'), value: url('/gone-1') },
    { check_id: 'broken_link', url: url('/b'), value: url('/gone-1') },
    { check_id: 'title_missing', url: url('/b'), value: null },
    { check_id: 'title_missing', url: url('/a'), value: null },
    { check_id: 'page_5xx', url: url('/c'), value: '503' },
    // A check no longer in the catalogue: last.
    { check_id: 'retired_check', url: url('/a'), value: 'x' },
  ].map((issue) => ({ ...issue, audit_id: auditId }))).execute();
});
after(() => database.close());

const key = (i: { check_id: string; url: string; value: string | null }) => `${i.check_id} ${i.url.replace(url(''), '')} ${i.value?.replace(url(''), '') ?? '-'}`;
const EXPECTED = [
  'page_5xx /c 503', 'title_missing /a -', 'title_missing /b -',
  'broken_link /a /gone-1', 'broken_link /a /gone-2', 'broken_link /a -', 'broken_link /b /gone-1', 'retired_check /a x',
];

describe("an audit's issues export", () => {
  const read = (size: number, checkId?: string) => keysetBatches(
    (after: IssueSeek | undefined, limit: number) => createAuditsRepo(database.db).exportIssues(auditId, ORDER, checkId, after, limit),
    ({ check_rank, check_id, url, value }) => ({ check_rank, check_id, url, value }), size,
  );
  const all = async (batches: AsyncIterable<ReadonlyArray<{ check_id: string; url: string; value: string | null }>>, between?: () => Promise<void>) => {
    const keys: string[] = [];
    for await (const batch of batches) {
      keys.push(...batch.map(key));
      if (between && keys.length === 2) await between();
    }
    return keys;
  };

  it('reads every issue once, most severe check first, then by URL and value (none last), whatever the batch size', async () => {
    for (const size of [1, 2, 3, 7, 8, 50]) assert.deepEqual(await all(read(size)), EXPECTED, `batches of ${size}`);
    assert.deepEqual(await all(read(2, 'broken_link')), EXPECTED.filter((k) => k.startsWith('broken_link ')));
  });

  it('is not shifted by an issue written ahead of the rows read between two batches', async () => {
    const keys = await all(read(2), async () => {
      await database.db.insertInto('audit_issues').values({ audit_id: auditId, check_id: 'page_5xx', url: url('/0'), value: '500' }).execute();
    });
    assert.deepEqual(keys, EXPECTED);
  });
});
