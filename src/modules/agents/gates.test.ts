import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gateFailure } from './gates.ts';
import { TASK_TYPES, type Proposal, type TaskType } from './proposal.ts';

const proposal = (type: TaskType, configuration: Record<string, unknown>, evidence: Array<Record<string, unknown>> = [{ check_id: 'x' }]): Proposal => ({
  type, category: TASK_TYPES[type], priority: 'medium', title: 't', description: 'd', target: 'https://shop.example/', configuration, evidence,
});

describe('quality gates', () => {
  it('refuse a proposal of an unknown type', () => {
    assert.equal(gateFailure(proposal('fix_everything' as TaskType, { instructions: 'x' })), 'unknown task type');
  });

  it('refuse any proposal without evidence', () => {
    for (const type of Object.keys(TASK_TYPES) as TaskType[]) assert.equal(gateFailure(proposal(type, {}, [])), 'no evidence', type);
  });

  it('refuse drafted values the flagging check would flag again, and pass good ones', () => {
    const url = 'https://shop.example/a';
    const meta = { url, field: 'meta_description', before: null, writer: 'extractive' };
    const cases: Array<[TaskType, Record<string, unknown>, Record<string, unknown>]> = [
      ['fix_missing_meta_description', { ...meta, after: 'too short' }, { ...meta, after: 'x'.repeat(100) }],
      ['fix_duplicate_meta_description', { ...meta, after: 'x'.repeat(161) }, { ...meta, after: 'x'.repeat(160) }],
      ['fix_title_tag', { url, before: 'Hi', after: 'x'.repeat(61) }, { url, before: 'Hi', after: 'x'.repeat(20) }],
      ['fix_h1', { url, issue: 'missing', before: null, after: '', instructions: 'add it' }, { url, issue: 'missing', before: null, after: 'Oak chairs', instructions: 'add it' }],
      ['add_image_alt_text', { url, images: [{ src: 'a', alt: '' }] }, { url, images: [{ src: 'a', alt: 'Red rose' }] }],
      ['fix_broken_links', { url, changes: [] }, { url, changes: [{ link_to: 'x' }] }],
      ['fix_redirect_chains', { url }, { url, changes: [{ link_to: 'x', final_url: 'y' }] }],
      ['fix_sitemap_errors', { sitemap: url, changes: [] }, { sitemap: url, changes: [{ url: 'x' }] }],
      ['fix_canonical', { url, before: null, after: '/relative', html: '<link>' }, { url, before: null, after: 'https://shop.example/a', html: '<link>' }],
      ['add_structured_data', { url, issue: 'missing', json_ld: null, instructions: 'add it' }, { url, issue: 'missing', json_ld: { '@type': 'WebSite' }, instructions: 'add it' }],
      ['add_structured_data', { url, issue: 'invalid', json_ld: null }, { url, issue: 'invalid', json_ld: null, instructions: 'fix the JSON' }],
      ['add_internal_links', { url, sources: [], anchor_text: 'x', html: '<a>' }, { url, sources: [{ url: 'y' }], anchor_text: 'x', html: '<a>' }],
      ['fix_indexing_block', { url, issue: 'noindex_meta' }, { url, issue: 'noindex_meta', instructions: 'remove noindex' }],
      ['expand_thin_content', { url }, { url, instructions: 'write more' }],
      // The type's schema: a field of the wrong kind is refused, whatever the type's own gate would say.
      ['fix_title_tag', { url, before: 'Hi', after: 42 }, { url, before: null, after: 'x'.repeat(30) }],
      ['consolidate_cannibalized_pages', { query: 'q', pages: 'two', instructions: 'merge' }, { query: 'q', pages: [{ page: url, impressions: 10, position: 7 }], instructions: 'merge' }],
    ];
    for (const [type, bad, good] of cases) {
      assert.ok(gateFailure(proposal(type, bad)), `${type} refuses ${JSON.stringify(bad)}`);
      assert.equal(gateFailure(proposal(type, good)), undefined, `${type} passes ${JSON.stringify(good)}`);
    }
  });
});

describe('priority', () => {
  it('rises one step for breadth or traffic, never into critical, and keeps critical', async () => {
    const { priorityOf, raised } = await import('./proposal.ts');
    assert.deepEqual((['low', 'medium', 'high', 'critical'] as const).map(raised), ['medium', 'high', 'high', 'critical']);
    assert.equal(priorityOf(['meta_description_missing'], 1), 'medium');
    assert.equal(priorityOf(['meta_description_missing'], 10), 'high');
    assert.equal(priorityOf(['home_noindex'], 50), 'critical');
  });
});
