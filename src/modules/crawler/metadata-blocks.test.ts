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

  it('never takes a sentence of the article for metadata (the false positives a review found)', () => {
    for (const block of [
      'By Monday, the water had receded.', 'By Ford and GM standards, the car is small', 'Por Juan, todo cambió', 'Di Maio, il ministro, ha parlato',
      'Copyright law protects the expression of an idea', '(c) the tenant pays the deposit', 'Download the Authenticator app on your phone',
      'Get security updates automatically', '2023-05-01: Added support for exports', '10:30 Keynote in the main hall', '1.2.10 fixes the crash',
      'Affiliate links let bloggers earn a living', '3 weeks ago I started running every morning',
      'The parcel was delivered every morning to the wrong door, and the neighbours complained.',
    ]) assert.equal(metadataRule(block), undefined, block);
  });

  it('takes a page\'s furniture alone in a block for what it is, never a sentence that uses the same words', () => {
    for (const block of ['Advertisement', 'Iklan', 'Image 3 of 12', 'Share on twitter', '%d bloggers like this:', 'MORE STORIES LIKE THIS ONE', '5:10 PM', 'Published 2 days ago'])
      assert.ok(metadataRule(block), block);
    for (const block of ['Close the valve before you start.', 'Advertisement revenue fell by a third last year.', 'The menu changes every week.'])
      assert.equal(metadataRule(block), undefined, block);
  });

  it('never takes a long block for metadata', () => {
    assert.equal(metadataRule(`By Bill Hoppe. ${'The game went on. '.repeat(12)}`), undefined);
  });
});
