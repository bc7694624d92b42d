// Hashes of a page's text, read character by character without building normalised strings:
// they run over every character of every crawled page, where lower-casing, collapsing white
// space with a regular expression and joining chunks cost more than the HTML parser itself.

/** What JavaScript's \s matches, by character code. */
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));

/** 1 for the units isSpace() holds, by code: a lookup the per-character loops read without branching on each kind. */
const SPACE = new Uint8Array(0x10000);
for (let c = 0; c < 0x10000; c++) SPACE[c] = isSpace(c) ? 1 : 0;

/**
 * Each UTF-16 unit lower-cased as String#toLowerCase makes it alone, so that the per-character
 * loops read it without a branch. Filled on first use (about 12 ms: when a crawl first reads
 * text, not when a process that never crawls loads this module).
 *
 * The loops' tables and scratch array are module constants that are not exported: V8's optimising
 * compiler embeds such a constant's array in the loop, where an exported one or a `let` (filled
 * later) is loaded from the module on every turn (measured: the page digest 1.5x slower so).
 */
const LOWER = new Uint16Array(0x10000);
let lowerFilled = false;
function fillLowerTable() {
  for (let c = 0; c < 0x10000; c++) LOWER[c] = String.fromCharCode(c).toLowerCase().charCodeAt(0);
  lowerFilled = true;
}

/**
 * The loops read a text's UTF-16 units from this typed array, copied in by one native call:
 * charCodeAt on the parser's chunks (slices of the page's HTML, or ropes of them) costs more than
 * the hashing itself. A longer text is read a window at a time. (Little-endian, as every platform
 * Node runs on: the bytes a Uint16Array reads.)
 */
const WINDOW = 16 * 1024;
const UNITS = new Uint16Array(WINDOW);
const UNIT_BYTES = Buffer.from(UNITS.buffer);
/** Below this length a text is copied unit by unit: a native call costs more than that (most chunks are the white space between two tags). */
const SHORT_TEXT = 64;
/** Copies text[from, from + WINDOW) into UNITS; returns how many units it copied. */
function readWindow(text: string, from: number): number {
  const end = Math.min(text.length, from + WINDOW);
  if (end - from < SHORT_TEXT) {
    const units = UNITS;
    for (let i = from; i < end; i++) units[i - from] = text.charCodeAt(i);
    return end - from;
  }
  return UNIT_BYTES.write(from === 0 && end === text.length ? text : text.slice(from, end), 0, 'utf16le') >> 1;
}

/** Characters other than white space, counted without building a string. */
export function visibleChars(text: string): number {
  let n = 0;
  for (let from = 0; from < text.length; from += WINDOW) {
    const length = readWindow(text, from);
    const units = UNITS;
    const spaces = SPACE;
    for (let i = 0; i < length; i++) n += spaces[units[i]!]! ^ 1;
  }
  return n;
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
  if (!lowerFilled) fillLowerTable();
  // int32 from the start (`| 0`): an offset above 2^31 read as a double makes every turn convert it.
  const state = { hash: FNV_OFFSET | 0, pendingSpace: false, previous: -1 };
  for (let from = 0; from < text.length; from += WINDOW) hashWindow(state, text, from, readWindow(text, from));
  return state.hash;
}

/** blockHash's loop over one window of the text (in UNITS), from text[from]. */
function hashWindow(state: { hash: number; pendingSpace: boolean; previous: number }, text: string, from: number, length: number) {
  const units = UNITS;
  const spaces = SPACE;
  const lower = LOWER;
  let hash = state.hash | 0;
  let pendingSpace = state.pendingSpace;
  let previous = state.previous; // index in text of the last unit read (not a space)
  for (let i = 0; i < length; i++) {
    const c = units[i]!;
    if (spaces[c] === 1) {
      pendingSpace = previous !== -1;
      continue;
    }
    // (The rare Chinese or Japanese line break reads the string itself.)
    if (pendingSpace && !(c >= 0x2e80 /* CJK_FROM */ && isCjkGap(codePointEndingAt(text, previous), text.codePointAt(from + i)!))) {
      hash = Math.imul(hash ^ 32, 0x01000193);
    }
    pendingSpace = false;
    hash = Math.imul(hash ^ lower[c]!, 0x01000193);
    previous = from + i;
  }
  state.hash = hash;
  state.pendingSpace = pendingSpace;
  state.previous = previous;
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
  const digest: Digest = { h1: FNV_OFFSET | 0, h2: 0x9747b28c | 0, words: 0, cjk: 0, afterSpace: 1 };
  return {
    add(text: string) {
      if (!lowerFilled) fillLowerTable();
      for (let from = 0; from < text.length; from += WINDOW) digestWindow(digest, text, from, readWindow(text, from));
    },
    /** Words (Chinese and Japanese: about two characters a word, as they are written without spaces) and the key. */
    end(): { words: number; hash: string } {
      const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0');
      return { words: digest.words + Math.floor(digest.cjk / 2), hash: hex(digest.h1) + hex(digest.h2) };
    },
  };
}

interface Digest {
  h1: number;
  h2: number;
  words: number;
  /** Chinese and Japanese characters read. */
  cjk: number;
  /** 1 while the text so far is empty or ends in white space. */
  afterSpace: number;
}

/**
 * The digest's loop over one window of a chunk (in UNITS), from text[from]: a module function over
 * a plain object, as in a closure made per page the same loop ran 1.7x slower (measured).
 */
function digestWindow(digest: Digest, text: string, from: number, length: number) {
  const units = UNITS;
  const spaces = SPACE;
  const lower = LOWER;
  // The state in locals for the loop, back at the end; the hashes as int32 (`| 0`, as in blockHash).
  let a = digest.h1 | 0;
  let b = digest.h2 | 0;
  let n = digest.words;
  let previous = digest.afterSpace;
  for (let i = 0; i < length; i++) {
    const c = units[i]!;
    const space = spaces[c]!;
    const start = previous & (space ^ 1);
    n += start;
    previous = space;
    if (space === 0) {
      // (Literal constants: a module's constant number is read from its context on every turn.)
      const unit = lower[c]! | (start << 16);
      a = Math.imul(a ^ unit, 0x01000193);
      b = Math.imul(b ^ unit, 0x5bd1e995);
      if (c >= 0x2e80 /* CJK_FROM */ && !isLow(c) && isCjk(text.codePointAt(from + i)!)) digest.cjk += 1;
    }
  }
  digest.h1 = a;
  digest.h2 = b;
  digest.words = n;
  digest.afterSpace = previous;
}
