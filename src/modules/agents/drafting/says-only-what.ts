// What a language model wrote from the page is proposed only when it says what the page says.

/** Content words: four letters or more, lower case, compared by their first five letters ("launched" and "launch" alike). */
const stems = (text: string) => (text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((w) => w.slice(0, 5));
/**
 * Whether a shortened sentence says only what the long one said: at least 80% of its content words are the long one's.
 * A model that adds a fact, or answers something else (text in the page may try to instruct it), is not proposed.
 */
export function saysOnlyWhat(shortened: string, original: string): boolean {
  const own = new Set(stems(original));
  const words = stems(shortened);
  return words.length > 0 && words.filter((w) => own.has(w)).length >= 0.8 * words.length;
}

/** Numbers as written ("2-1" is 2 and 1, "1,750" one number), and words that turn a statement around. */
const NUMBERS = /\d+(?:[.,]\d+)*/gu;
const NEGATION = /(?<!\p{L})(?:not|no|never|none|nobody|nothing|neither|nor|without)(?!\p{L})|n['’]t(?!\p{L})/giu;

/**
 * A summary written from a page's opening says only what it says: its content words are the opening's (saysOnlyWhat), each of its
 * numbers is one the opening gives, and it negates only where the opening does: "Russia beat Spain 3-0" or "Nadal did not keep
 * Spain alive" are made of the opening's words and still say something else.
 */
export function summarySaysOnlyWhat(summary: string, source: string): boolean {
  if (!saysOnlyWhat(summary, source)) return false;
  const numbers = new Set(source.match(NUMBERS) ?? []);
  if ((summary.match(NUMBERS) ?? []).some((n) => !numbers.has(n))) return false;
  return (summary.match(NEGATION) ?? []).length <= (source.match(NEGATION) ?? []).length;
}
