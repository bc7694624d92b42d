import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gateFailure } from './gates.ts';
import { TASK_TYPES, type Proposal, type TaskType } from './proposal.ts';

const proposal = (type: TaskType, configuration: Record<string, unknown>, evidence: Array<Record<string, unknown>> = [{ check_id: 'x' }]): Proposal => ({
  type, category: TASK_TYPES[type], priority: 'medium', title: 't', description: 'd', target: 'https://shop.example/', configuration, evidence,
});

describe('quality gates', () => {
  it('refuse any proposal without evidence', () => {
    for (const type of Object.keys(TASK_TYPES) as TaskType[]) assert.equal(gateFailure(proposal(type, {}, [])), 'no evidence', type);
  });

  it('refuse drafted values the flagging check would flag again, and pass good ones', () => {
    const cases: Array<[TaskType, Record<string, unknown>, Record<string, unknown>]> = [
      ['fix_missing_meta_description', { after: 'too short' }, { after: 'x'.repeat(100) }],
      ['fix_duplicate_meta_description', { after: 'x'.repeat(161) }, { after: 'x'.repeat(160) }],
      ['fix_title_tag', { after: 'x'.repeat(61) }, { after: 'x'.repeat(20) }],
      ['fix_h1', { issue: 'missing', after: '' }, { issue: 'missing', after: 'Oak chairs' }],
      ['add_image_alt_text', { images: [{ src: 'a', alt: '' }] }, { images: [{ src: 'a', alt: 'Red rose' }] }],
      ['fix_broken_links', { changes: [] }, { changes: [{ link_to: 'x' }] }],
      ['fix_redirect_chains', {}, { changes: [{ link_to: 'x', final_url: 'y' }] }],
      ['fix_sitemap_errors', { changes: [] }, { changes: [{ url: 'x' }] }],
      ['fix_canonical', { after: '/relative' }, { after: 'https://shop.example/a' }],
      ['add_structured_data', { json_ld: null }, { json_ld: { '@type': 'WebSite' } }],
      ['add_structured_data', { issue: 'invalid', json_ld: null }, { issue: 'invalid', json_ld: null, instructions: 'fix the JSON' }],
      ['add_internal_links', { sources: [], anchor_text: 'x' }, { sources: [{ url: 'y' }], anchor_text: 'x' }],
      ['fix_indexing_block', {}, { instructions: 'remove noindex' }],
      ['expand_thin_content', {}, { instructions: 'write more' }],
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
