import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createExtractor, extractPageFacts } from './extract.ts';

describe('page facts', () => {
  it('count words and hash the text the same however the HTML arrives in chunks', () => {
    const html = '<html><head><title>Ignored  title</title><script>var notText = 1;</script></head><body><p>Hello   World</p> <p>foo<b>bar</b> baz</p>\n\n<p> Done. </p></body></html>';
    const whole = extractPageFacts(html);
    const chunked = createExtractor();
    for (const character of html) chunked.write(character);
    const split = chunked.end();
    assert.equal(whole.wordCount, 5, 'hello world foobar baz done.');
    assert.equal(split.wordCount, 5);
    assert.equal(split.textHash, whole.textHash);
    assert.equal(whole.titles[0], 'Ignored title');
    // Japanese, without spaces: about two characters a word, counted the same in 3-character chunks.
    const japanese = '<p>ソースパッケージは通常 3 つのファイルで構成されています。</p>';
    const pieces = createExtractor();
    for (let i = 0; i < japanese.length; i += 3) pieces.write(japanese.slice(i, i + 3));
    assert.equal(pieces.end().wordCount, extractPageFacts(japanese).wordCount);
  });

  it('tells pages with different text apart, and equal text with different markup as equal', () => {
    const a = extractPageFacts('<body><p>One two three</p></body>');
    const b = extractPageFacts('<body><div>one   TWO</div>\n<span>three</span></body>');
    const c = extractPageFacts('<body><p>One two four</p></body>');
    assert.equal(a.textHash, b.textHash);
    assert.notEqual(a.textHash, c.textHash);
    // The same letters and as many words, split elsewhere: other text.
    assert.notEqual(extractPageFacts('<p>ab cd</p>').textHash, extractPageFacts('<p>abc d</p>').textHash);
  });
});
