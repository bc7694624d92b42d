import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { createDatabase } from './client.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { claimsOf } from '../modules/task-types/index.ts';

describe('migration 0023', () => {
  it('gives the tasks already open the claims claimsOf gives a new one, and none to briefs or closed tasks', async () => {
    const database = await createDatabase({ pglite: await PGlite.create() });
    try {
      const all = loadMigrations();
      await migrate(database, all.filter((m) => m.version < '0023'));
      const { db } = database;
      const user = await db.insertInto('users').values({ email: 'a@b.c', name: 'A', password_hash: 'x', role: 'user' } as never).returning('id').executeTakeFirstOrThrow();
      const site = await db.insertInto('sites').values({ owner_id: user.id, name: 'S', domain: 'shop.example' } as never).returning('id').executeTakeFirstOrThrow();
      const tasks = [
        { type: 'fix_title_tag', status: 'awaiting_approval', target: 'https://shop.example/roses/', configuration: { url: 'https://shop.example/roses/', after: 'Roses – Shop' } },
        { type: 'fix_missing_meta_description', status: 'queued', target: 'https://shop.example/', configuration: { pages: [{ url: 'https://shop.example/', after: 'A' }, { url: 'https://shop.example/tulips', after: 'B' }] } },
        { type: 'fix_broken_links', status: 'awaiting_approval', target: 'https://shop.example/a', configuration: { url: 'https://shop.example/a', changes: [{ link_to: 'https://shop.example/gone' }] } },
        { type: 'prioritize_quick_wins', status: 'awaiting_approval', target: 'keyword:roses', configuration: { keyword: 'roses', url: 'https://shop.example/roses', instructions: 'old brief' } },
        { type: 'fix_title_tag', status: 'completed', target: 'https://shop.example/done', configuration: { url: 'https://shop.example/done', after: 'Done – Shop' } },
      ];
      for (const t of tasks) {
        await db.insertInto('tasks').values({
          site_id: site.id, type: t.type, category: 'seo', priority: 'low', status: t.status, title: 't', description: 'd', target: t.target,
          configuration: JSON.stringify(t.configuration), evidence: '[]',
        } as never).execute();
      }
      await migrate(database, all);
      const rows = await db.selectFrom('tasks').select(['type', 'target', 'status', 'configuration', 'claims']).execute();
      for (const row of rows) {
        const open = row.status !== 'completed';
        assert.deepEqual([...row.claims].sort(), open ? claimsOf(row).sort() : [], `${row.type} ${row.target}`);
      }
      const claimsOfTask = (type: string) => rows.find((r) => r.type === type && r.status !== 'completed')!.claims;
      assert.deepEqual(claimsOfTask('fix_title_tag'), ['https://shop.example/roses#title']);
      assert.deepEqual([...claimsOfTask('fix_missing_meta_description')].sort(), ['https://shop.example/#meta_description', 'https://shop.example/tulips#meta_description']);
      assert.deepEqual(claimsOfTask('prioritize_quick_wins'), [], 'an old quick win is a brief');
    } finally {
      await database.close();
    }
  });
});
