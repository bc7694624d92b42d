import { Tokenizer } from 'htmlparser2';

/**
 * htmlparser2's tokenizer, reading the runs of a text or of a quoted attribute value in one
 * tight loop instead of a turn of its state machine a character (a dispatch on the state, a
 * call and a bounds check each): with entities decoded, it stops at every character of a page's
 * text to ask whether it is `<` or `&`. Every other character is skipped in those states
 * without any effect, so the events, their order and their text are exactly the tokenizer's:
 * only the characters that change the state (`<` and `&` in text; the closing quote and `&`
 * in a value) reach its own code. (The text of a page was ~40% of the tokenizer's time.)
 *
 * The two states are private in htmlparser2's types, so they are replaced on the prototype.
 */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  /** Which chunk `amp` was found in (FastTokenizer.chunks), and where in it the next `&` is (its length: none). */
  ampChunk: number;
  amp: number;
  chunks: number;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
}

const LT = 0x3c;
const AMP = 0x26;

export class FastTokenizer extends Tokenizer {
  /** Chunks written: the position of the next `&` in text is kept for the chunk it was found in. */
  chunks = 0;
  ampChunk = -1;
  amp = 0;

  override write(chunk: string): void {
    this.chunks += 1;
    super.write(chunk);
  }
}

const base = Tokenizer.prototype as unknown as Internals;
const fast = FastTokenizer.prototype as unknown as Internals;
const baseStateText = base.stateText;
const baseHandleInAttributeValue = base.handleInAttributeValue;

/** The index of the last unit before the next `a` or `b` in buffer from `from` (the parse loop adds one), or of its last unit. */
function lastBefore(buffer: string, from: number, a: number, b: number): number {
  const end = buffer.length;
  let i = from;
  while (i < end) {
    const c = buffer.charCodeAt(i);
    if (c === a || c === b) break;
    i++;
  }
  return i - 1;
}

fast.stateText = function stateText(this: Internals, c: number) {
  if (c === LT || c === AMP) return baseStateText.call(this, c);
  // A page's text runs to the next tag: found natively (indexOf), and the next `&` once for all the runs before it.
  const buffer = this.buffer;
  const from = this.index - this.offset + 1;
  let lt = buffer.indexOf('<', from);
  if (lt === -1) lt = buffer.length;
  if (this.ampChunk !== this.chunks || this.amp < from) {
    const amp = buffer.indexOf('&', from);
    this.amp = amp === -1 ? buffer.length : amp;
    this.ampChunk = this.chunks;
  }
  this.index = this.offset + Math.min(lt, this.amp) - 1;
};

fast.handleInAttributeValue = function handleInAttributeValue(this: Internals, c: number, quote: number) {
  if (c === quote || c === AMP) return baseHandleInAttributeValue.call(this, c, quote);
  this.index = this.offset + lastBefore(this.buffer, this.index - this.offset + 1, quote, AMP);
};
