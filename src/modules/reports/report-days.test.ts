import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { insertOwnedSite } from '../../../test/helpers/owned-site.ts';
import type { Database } from '../../db/client.ts';
import { createEngagementRepo } from '../analytics/engagement.repo.ts';
import { createEngagementService } from '../analytics/engagement.service.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { createReportsRepo } from './reports.repo.ts';

/**
 * The client report counts the tasks completed in its period by the property's days (Pacific
 * Time, Search Console's), the same days as the analytics timeline: a task completed at 03:00
 * UTC on the period's first day was completed the evening before, Pacific, and is not the
 * period's; one at 03:00 UTC the day after the period's last day is.
 */
let database: Database;
let siteId: string;
let userId: string;
const tasks = new Map<string, string>();

before(async () => {
  database = await createTestDatabase();
  const db = database.db;
  ({ userId, siteId } = await insertOwnedSite(db, 'report-days.example.org'));
  const repo = createTasksRepo(db);
  // Each task completed once, at the instant its name says.
  const completedAt = {
    // Winter (PST, UTC-8); the period is 5 to 11 January 2026.
    'evening before the period': '2026-01-05T03:00:00Z', // 4 January, 19:00 Pacific
    'first Pacific midnight': '2026-01-05T08:00:00Z', // 5 January, 00:00 Pacific
    'evening of the last day': '2026-01-12T03:00:00Z', // 11 January, 19:00 Pacific
    'midnight after the period': '2026-01-12T08:00:00Z', // 12 January, 00:00 Pacific
    // Summer (PDT, UTC-7); the period is 1 July 2026.
    'a second before summer midnight': '2026-07-01T06:59:59Z', // 30 June, 23:59:59 Pacific
    'summer midnight': '2026-07-01T07:00:00Z', // 1 July, 00:00 Pacific
  };
  for (const [title, at] of Object.entries(completedAt)) {
    const id = (await repo.insertProposal({
      siteId, type: 'fix_title_tag', category: 'seo', priority: 'high', title, description: 'd',
      target: `https://report-days.example.org/${encodeURIComponent(title)}`, configuration: {}, evidence: [],
    }))!;
    await db.updateTable('tasks').set({ status: 'completed' }).where('id', '=', id).execute();
    await db.insertInto('task_events').values({ task_id: id, from_status: 'in_progress', to_status: 'completed', actor: 'agent:executor', at: new Date(at) }).execute();
    tasks.set(title, id);
  }
});
after(() => database.close());

describe("the client report's tasks", () => {
  const reports = () => createReportsRepo(database.db);
  const titles = async (start: string, end: string) => (await reports().completedTasks(siteId, { start, end }, 10)).items.map((t) => t.title).sort();

  it('are counted by Pacific days, not UTC ones', async () => {
    const winter = await reports().completedTasks(siteId, { start: '2026-01-05', end: '2026-01-11' }, 10);
    assert.deepEqual(winter.items.map((t) => t.title).sort(), ['evening of the last day', 'first Pacific midnight']);
    assert.equal(winter.completed, 2);
    assert.deepEqual(await titles('2026-01-04', '2026-01-04'), ['evening before the period']);
    assert.deepEqual(await titles('2026-01-12', '2026-01-12'), ['midnight after the period']);
    assert.deepEqual(await titles('2026-07-01', '2026-07-01'), ['summer midnight']);
    assert.deepEqual(await titles('2026-06-30', '2026-06-30'), ['a second before summer midnight']);
  });

  it('fall on the same days as the analytics timeline', async () => {
    const engagement = createEngagementService({
      repo: createEngagementRepo(database.db), analytics: { coverage: async () => ({ first: null, last: null }) },
      sites: { getSite: async () => ({ id: siteId }) as never }, now: () => new Date('2026-12-07T12:00:00Z'),
    });
    for (const [start, end] of [['2026-01-05', '2026-01-11'], ['2026-01-04', '2026-01-04'], ['2026-07-01', '2026-07-01']] as const) {
      const timeline = await engagement.timeline(userId, { site_id: siteId, start, end });
      assert.deepEqual(timeline.items.map((c) => c.title).sort(), await titles(start, end), `${start} to ${end}`);
      for (const c of timeline.items) assert.ok(c.date >= start && c.date <= end, `${c.title} on ${c.date}`);
    }
  });
});
