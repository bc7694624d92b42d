import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageContent } from './page-content.ts';
import { gateFailure } from './strategy.ts';
import { siteSuffixOf, writeMetaDescription, writeTitle } from './writers.ts';

const content = readPageContent(`<html><head><title>Old</title><script>var x = "Not this. Never this sentence here.";</script></head><body>
<h1>Handmade oak tables</h1><p>Short.</p>
<p>Our tables are cut from a single oak board in our workshop in Devon. Every table is oiled by hand and ready in six weeks. Delivery is free.</p>
</body></html>`);

describe('writers', () => {
  it('draft a meta description of whole sentences from the page, within 80-160 characters', () => {
    const text = writeMetaDescription(content, new Set());
    assert.equal(text, 'Our tables are cut from a single oak board in our workshop in Devon. Every table is oiled by hand and ready in six weeks.');
    assert.ok(text!.length >= 80 && text!.length <= 160);
  });

  it('avoid a description already used on the site, and give up on thin pages', () => {
    const first = writeMetaDescription(content, new Set())!;
    const second = writeMetaDescription(content, new Set([first.toLowerCase()]));
    assert.notEqual(second, first);
    assert.ok(second === undefined || (second.length >= 80 && second.length <= 160));
    assert.equal(writeMetaDescription(readPageContent('<p>Too little text here.</p>'), new Set()), undefined);
  });

  it('draft a title from the h1 and the suffix the site uses, within 20-60 characters and unique', () => {
    assert.equal(writeTitle(content, ' | Oak & Co', new Set()), 'Handmade oak tables | Oak & Co');
    const dining = readPageContent('<h1>Handmade dining tables</h1>');
    assert.equal(writeTitle(dining, ' | Oak & Co', new Set(['handmade dining tables | oak & co'])), 'Handmade dining tables');
    assert.equal(writeTitle(content, ' | Oak & Co', new Set(['handmade oak tables | oak & co'])), undefined, 'too short without the suffix');
    const long = readPageContent('<h1>Everything you ever wanted to know about pruning roses in a small garden</h1>');
    assert.equal(writeTitle(long, ' – Garden Shop', new Set()), 'Everything you ever wanted to know about – Garden Shop');
  });

  it('find the suffix most titles share, separator included', () => {
    assert.equal(siteSuffixOf(['Tables | Oak & Co', 'Chairs | Oak & Co', 'About – Oak & Co', 'Home']), ' | Oak & Co');
    assert.equal(siteSuffixOf(['Tables | Oak & Co', 'Home']), '', 'one title is no pattern');
  });
});

describe('quality gates', () => {
  const base = { type: 'fix_missing_meta_description', category: 'seo' as const, priority: 'high' as const, title: 't', description: 'd', target: 'u' };
  it('refuse a proposal without evidence or with a value the check itself would flag', () => {
    assert.equal(gateFailure({ ...base, configuration: { after: 'x'.repeat(100) }, evidence: [] }), 'no evidence');
    assert.match(String(gateFailure({ ...base, configuration: { after: 'too short' }, evidence: [{}] })), /80-160/);
    assert.equal(gateFailure({ ...base, configuration: { after: 'x'.repeat(100) }, evidence: [{}] }), undefined);
  });
});
