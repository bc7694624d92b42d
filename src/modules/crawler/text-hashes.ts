// Hashes of a page's text, read character by character without building normalised strings:
// they run over every character of every crawled page, where lower-casing, collapsing white
// space with a regular expression and joining chunks cost more than the HTML parser itself.

/** What JavaScript's \s matches, by character code. */
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));

/** 1 for the units isSpace() holds, by code: a lookup the per-character loops read without branching on each kind. */
export const SPACE = new Uint8Array(0x10000);
for (let c = 0; c < 0x10000; c++) SPACE[c] = isSpace(c) ? 1 : 0;

/**
 * Each UTF-16 unit lower-cased as String#toLowerCase makes it alone: filled once (about 12 ms, on
 * first use), so that the per-character loops read it without a branch.
 */
let LOWER: Uint16Array | undefined;
/** (Filled when a crawl first reads text, not when a process that never crawls loads this module.) */
function lowerTable(): Uint16Array {
  if (LOWER) return LOWER;
  LOWER = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) LOWER[c] = String.fromCharCode(c).toLowerCase().charCodeAt(0);
  return LOWER;
}

/** Han, Hiragana and Katakana: words without spaces between them (see collapse in main-content.ts). */
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const CJK_OR_STOP = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}、。]$/u;
/** Below this code point nothing is Chinese or Japanese: the regular expressions are never asked for Latin text. */
const CJK_FROM = 0x2e80;
const isCjk = (codePoint: number) => codePoint >= CJK_FROM && CJK.test(String.fromCodePoint(codePoint));
/** Whether collapse() drops the space between these two characters (a line break inside Japanese or Chinese text). */
const isCjkGap = (left: number, right: number) =>
  left >= CJK_FROM && right >= CJK_FROM && CJK_OR_STOP.test(String.fromCodePoint(left)) && CJK.test(String.fromCodePoint(right));

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** The code point whose last unit is at `end`. */
const codePointEndingAt = (text: string, end: number) =>
  isLow(text.charCodeAt(end)) && end > 0 && isHigh(text.charCodeAt(end - 1)) ? text.codePointAt(end - 1)! : text.charCodeAt(end);

const FNV_OFFSET = 0x811c9dc5;

/**
 * A 32-bit key of a block's text for counting repetition across pages: FNV-1a over its normalised
 * text (lower case, white space collapsed and trimmed, no space between Chinese or Japanese
 * characters: collapse() in main-content.ts), read from the raw text directly. blockHash(raw) ===
 * blockHash(collapse(raw)), so a block kept on one page and past the text budget on another has one
 * key. Every character counts: location pages built from one template ("... every homeowner in
 * Springfield ...") differ in the middle only.
 */
export function blockHash(text: string): number {
  const lower = lowerTable();
  let hash = FNV_OFFSET;
  let pendingSpace = false;
  let previous = -1; // index of the last unit read (not a space)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (SPACE[c] === 1) {
      pendingSpace = previous !== -1;
      continue;
    }
    if (pendingSpace && !(c >= CJK_FROM && isCjkGap(codePointEndingAt(text, previous), text.codePointAt(i)!))) hash = Math.imul(hash ^ 32, 0x01000193);
    pendingSpace = false;
    hash = Math.imul(hash ^ lower[c]!, 0x01000193);
    previous = i;
  }
  return hash | 0;
}

/**
 * The word count and duplicate-content key of a page's visible text, fed its text chunks as the
 * parser reads them: lower case, white space collapsed, continued across chunks so the result
 * does not depend on how the page arrived. The key is two 32-bit hashes (64 bits) of the words'
 * characters, each word's first marked: it only tells the pages of one crawl apart, and is never
 * compared across audits. (The loop avoids a branch on each space: one a word costs more than
 * the hashing.)
 */
export function createTextDigest() {
  let h1 = FNV_OFFSET;
  let h2 = 0x9747b28c;
  let words = 0;
  let cjk = 0;
  let afterSpace = 1; // 1 while the text so far is empty or ends in white space
  return {
    add(text: string) {
      // The state in locals for the loop (a closure's variables are slower to write), back at the end.
      const lower = lowerTable();
      let a = h1;
      let b = h2;
      let n = words;
      let previous = afterSpace;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        const space = SPACE[c]!;
        const start = previous & (space ^ 1);
        n += start;
        previous = space;
        if (space === 0) {
          // (Literal multipliers: a module's constant is read from its context on every turn.)
          const unit = lower[c]! | (start << 16);
          a = Math.imul(a ^ unit, 0x01000193);
          b = Math.imul(b ^ unit, 0x5bd1e995);
          if (c >= CJK_FROM && !isLow(c) && isCjk(text.codePointAt(i)!)) cjk += 1;
        }
      }
      h1 = a;
      h2 = b;
      words = n;
      afterSpace = previous;
    },
    /** Words (Chinese and Japanese: about two characters a word, as they are written without spaces) and the key. */
    end(): { words: number; hash: string } {
      const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0');
      return { words: words + Math.floor(cjk / 2), hash: hex(h1) + hex(h2) };
    },
  };
}
