import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageContent } from './page-content.ts';
import { siteSuffixOf, writeAltText, writeH1, writeMetaDescription, writeTitle } from './writers.ts';

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

describe('alt text and h1 writers', () => {
  it('draft alt text only from descriptive file names', () => {
    assert.equal(writeAltText('https://shop.example/wp-content/uploads/2024/05/red-rose-bush-1024x768.jpg'), 'Red rose bush');
    assert.equal(writeAltText('https://shop.example/img/oakDiningTable_final.webp'), 'Oak dining table');
    assert.equal(writeAltText('https://shop.example/img/IMG_2041.JPG'), undefined);
    assert.equal(writeAltText('https://shop.example/img/3f9a2c1bd4e5.png'), undefined);
    assert.equal(writeAltText('https://shop.example/img/logo.png'), undefined, 'one word says too little');
  });

  it('draft an h1 from the title without the site suffix', () => {
    assert.equal(writeH1(readPageContent('<title>Oak chairs | Oak & Co</title>'), ' | Oak & Co'), 'Oak chairs');
    assert.equal(writeH1(readPageContent('<title></title>'), ''), undefined);
  });
});

describe('reading a page to draft from', () => {
  it('takes the paragraphs of <main> or <article>, never the theme\'s header, footer or sidebar', () => {
    const html = '<header><p class="site-title">Garden Shop</p><p>Plants and advice</p></header><nav><p>Menu text here</p></nav>'
      + '<main><article><h1>Roses</h1><p>Our roses grow in Kent.</p></article><aside><p>Recent posts</p></aside></main><footer><p>Copyright</p></footer>';
    assert.deepEqual(readPageContent(html).paragraphs, ['Our roses grow in Kent.']);
  });

  it('falls back to every paragraph outside the page chrome when there is no <main>', () => {
    const html = '<header><p>Tagline</p></header><div><p>First.</p><p>Second.</p></div><footer><p>Copyright</p></footer>';
    assert.deepEqual(readPageContent(html).paragraphs, ['First.', 'Second.']);
  });
});
