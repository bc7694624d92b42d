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

  it('takes a block mostly of addresses for a list of them, whatever its length, and not prose that cites one', () => {
    assert.equal(metadataRule('http://example.org/uploads/a.jpg 540 960 admin http://example.org/uploads/b.jpg 1200 675 admin'), 'addresses');
    assert.equal(metadataRule('The report (https://example.org/report.pdf) lists every school that closed in the county last winter, and why.'), undefined);
  });

  it('never takes a long block for metadata', () => {
    assert.equal(metadataRule(`By Bill Hoppe. ${'The game went on. '.repeat(12)}`), undefined);
  });
});
