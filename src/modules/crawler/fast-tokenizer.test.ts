import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { FastTokenizer } from './fast-tokenizer.ts';

/** Every event a parser reports, in order, with its arguments. */
function events(html: string, chunk: number, fast: boolean): string[] {
  const out: string[] = [];
  const record = (name: string) => (...args: unknown[]) => out.push(`${name} ${JSON.stringify(args)}`);
  const parser = new Parser(
    {
      onopentag: record('open'), onclosetag: record('close'), ontext: record('text'), oncomment: record('comment'),
      onprocessinginstruction: record('pi'), oncdatastart: record('cdata'), onattribute: record('attr'),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, ...(fast ? { Tokenizer: FastTokenizer } : {}) },
  );
  for (let i = 0; i < html.length; i += chunk) parser.write(html.slice(i, i + chunk));
  parser.end();
  return out;
}

const PIECES = [
  '<p>', '</p>', 'text ', 'more words', '&amp;', '&copy', '&#169;', '&#x26;', '&unknown;', '&', '<', '>', '"', "'", '<a href="/x?a=1&amp;b=2">',
  "<img alt='it&apos;s' src=x.jpg>", '<div class="a b" id=c>', '</div>', '<script>if (a < b && c) {}</script>', '<style>.a{color:red}</style>',
  '<title>A &amp; B</title>', '<!-- a comment -->', '<!doctype html>', '<br/>', '<textarea>&lt;x</textarea>', ' ', '\n', 'é€😀', '<b', 'x=">"',
];

describe('the fast tokenizer', () => {
  it('reports exactly the events of htmlparser2 own, however the page is cut into chunks (random pages, fixed seed)', () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let page = 0; page < 400; page++) {
      let html = '';
      const length = 1 + Math.floor(random() * 60);
      for (let i = 0; i < length; i++) html += PIECES[Math.floor(random() * PIECES.length)];
      for (const chunk of [html.length || 1, 1, 2, 7, 64]) {
        assert.deepEqual(events(html, chunk, true), events(html, chunk, false), `page ${JSON.stringify(html)}, chunks of ${chunk}`);
      }
    }
  });
});
