import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskPriority } from '../../../db/types.ts';
import type { PlanningContext } from '../planning-context.ts';
import type { Proposal } from '../proposal.ts';
import { proposeByPage, type PageFix } from './grouping.ts';

const description = (n: number) => `Page ${n} of the guide: how we grow roses on four acres in Kent, what they need through the year and the mistakes to avoid.`;
const fix = (n: number, priority: TaskPriority = 'medium', after = description(n)): PageFix => ({
  url: `https://shop.example/p${n}/`, priority, evidence: [{ check_id: 'meta_description_missing', url: `https://shop.example/p${n}/` }],
  configuration: { url: `https://shop.example/p${n}/`, field: 'meta_description', before: null, after, group: { checks: ['meta_description_missing'], pages: 0 } },
});
function context(covered: string[] = []) {
  const proposed: Proposal[] = [];
  const rejected: Array<{ target: string; reason: string }> = [];
  const ctx = {
    covered: () => new Set(covered),
    copyOf: () => undefined,
    propose: async (p: Proposal) => void proposed.push(p),
    reject: async (_type: string, target: string, reason: string) => void rejected.push({ target, reason }),
  } as unknown as PlanningContext;
  return { ctx, proposed, rejected };
}
const words = {
  category: 'seo' as const, checks: ['meta_description_missing'],
  single: () => ({ title: 'one', description: 'one page' }),
  group: (pages: number, total: number, part: { index: number; count: number }) => ({ title: `${pages} of ${total}`, description: `part ${part.index + 1}/${part.count}` }),
};

describe('one problem on many pages', () => {
  it('is one task listing each page with its own values, heaviest first, as urgent as most of its pages', async () => {
    const { ctx, proposed } = context();
    await proposeByPage(ctx, 'fix_missing_meta_description', [fix(1, 'low'), fix(2, 'high'), fix(3, 'medium'), fix(4, 'medium')], words);
    assert.equal(proposed.length, 1);
    const [task] = proposed;
    assert.equal(task!.target, 'https://shop.example/p2/', 'named by its heaviest page');
    assert.equal(task!.priority, 'medium');
    const pages = (task!.configuration as { pages: Array<Record<string, unknown>> }).pages;
    assert.deepEqual(pages.map((p) => p.url), ['https://shop.example/p2/', 'https://shop.example/p3/', 'https://shop.example/p4/', 'https://shop.example/p1/']);
    assert.ok(pages.every((p) => !('group' in p)), 'the group is said once, on the task');
    assert.deepEqual(task!.configuration.group, { checks: ['meta_description_missing'], pages: 4 });
    assert.equal(task!.evidence.length, 4);
  });

  it('is split into balanced parts past 50 pages, leaves covered pages out, and refuses a failing page alone', async () => {
    const { ctx, proposed, rejected } = context(['https://shop.example/p0/']);
    // The heaviest 40 pages are high, the rest medium: every part takes the problem's urgency, not its own pages'.
    const fixes = Array.from({ length: 102 }, (_, i) => fix(i, i < 40 ? 'high' : 'medium'));
    fixes.push(fix(500, 'medium', 'Too short.'));
    await proposeByPage(ctx, 'fix_missing_meta_description', fixes, words);
    assert.deepEqual(proposed.map((p) => (p.configuration as { pages: unknown[] }).pages.length), [34, 34, 33], '101 pages in three parts, none over 50');
    assert.deepEqual(proposed.map((p) => p.description), ['part 1/3', 'part 2/3', 'part 3/3']);
    assert.deepEqual(proposed.map((p) => p.priority), ['medium', 'medium', 'medium'], 'the first part is all high pages, yet as urgent as the rest');
    assert.ok(!proposed.some((p) => JSON.stringify(p.configuration).includes('/p0/')), 'the page an open task covers is left out');
    assert.deepEqual(rejected.map((r) => r.target), ['https://shop.example/p500/']);
    assert.match(rejected[0]!.reason, /outside 50-160/);
  });

  it('gives each page its own task below three pages', async () => {
    const { ctx, proposed } = context();
    await proposeByPage(ctx, 'fix_missing_meta_description', [fix(1), fix(2)], words);
    assert.deepEqual(proposed.map((p) => [p.target, p.title]), [['https://shop.example/p1/', 'one'], ['https://shop.example/p2/', 'one']]);
  });
});
