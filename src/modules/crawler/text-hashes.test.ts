import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { collapse } from './main-content.ts';
import { blockHash, createTextDigest, visibleChars } from './text-hashes.ts';

// The loops read a text's units from a typed array a window (16K units) at a time: these say they
// give what the plain definitions give, on short texts and on texts that cross a window's edge.

const lowerUnit = (unit: number) => String.fromCharCode(unit).toLowerCase().charCodeAt(0);
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/** FNV-1a over the units of the block's normalised text, each lower-cased alone. */
function blockHashByDefinition(raw: string): number {
  const text = collapse(raw);
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ lowerUnit(text.charCodeAt(i)), 0x01000193);
  return hash;
}

/** The page digest of these chunks: its words (white space as \s), each unit hashed with a mark on a word's first. */
function digestByDefinition(chunks: string[]): { words: number; hash: string } {
  let [a, b, words, cjk] = [0x811c9dc5 | 0, 0x9747b28c | 0, 0, 0];
  for (const word of chunks.join('').match(/\S+/g) ?? []) {
    words += 1;
    for (let i = 0; i < word.length; i++) {
      const unit = lowerUnit(word.charCodeAt(i)) | (i === 0 ? 1 << 16 : 0);
      a = Math.imul(a ^ unit, 0x01000193);
      b = Math.imul(b ^ unit, 0x5bd1e995);
    }
  }
  // Chinese and Japanese characters as each chunk holds them (a pair of surrogates split between chunks is no character).
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const unit = chunk.charCodeAt(i);
      if (!(unit >= 0xdc00 && unit <= 0xdfff) && CJK.test(String.fromCodePoint(chunk.codePointAt(i)!))) cjk += 1;
    }
  }
  const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0');
  return { words: words + Math.floor(cjk / 2), hash: hex(a) + hex(b) };
}

const piece = fc.constantFrom('a', 'B', 'é', 'İ', ' ', '  ', '\n', '\t', '\u00a0', '\u2009', '\u3000', 'x1', '|', '漢', 'か', '。', 'ü', '𠀋', 'word ', '\ud840', '\udc0b');
const short = fc.array(piece, { maxLength: 160 }).map((parts) => parts.join(''));
/** Text whose interesting part straddles the 16K-unit window's edge. */
const long = fc.tuple(fc.integer({ min: 16_300, max: 16_400 }), short, fc.constantFrom('w', ' ', '漢')).map(([at, tail, fill]) => fill.repeat(at) + tail + 'z'.repeat(20_000));
const text = fc.oneof(short, long);

describe('text hashes read from a typed array', () => {
  it('hash a block as FNV-1a over its normalised text (property, fixed seed)', () => {
    fc.assert(fc.property(text, (raw) => blockHash(raw) === blockHashByDefinition(raw)), { seed: 20261126, numRuns: 1500 });
  });

  it('digest a page\'s chunks as the definition does (property, fixed seed)', () => {
    fc.assert(fc.property(fc.array(text, { maxLength: 6 }), (chunks) => {
      const digest = createTextDigest();
      for (const chunk of chunks) digest.add(chunk);
      assert.deepEqual(digest.end(), digestByDefinition(chunks));
    }), { seed: 20261126, numRuns: 500 });
  });

  it('count the characters other than white space', () => {
    fc.assert(fc.property(text, (raw) => visibleChars(raw) === raw.replace(/\s/g, '').length), { seed: 20261126, numRuns: 500 });
  });
});
