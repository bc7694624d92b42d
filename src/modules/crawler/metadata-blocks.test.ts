import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { METADATA_BLOCKS, metadataRule } from './metadata-blocks.ts';

describe('blocks about an article, not of it', () => {
  for (const rule of METADATA_BLOCKS) {
    it(`${rule.id}: catches its example and lets its counter-example through`, () => {
      assert.equal(metadataRule(rule.example), rule.id, rule.example);
      assert.equal(metadataRule(rule.counterExample), undefined, rule.counterExample);
    });
  }

  it('never takes a long block for metadata', () => {
    assert.equal(metadataRule(`By Bill Hoppe. ${'The game went on. '.repeat(12)}`), undefined);
  });
});
