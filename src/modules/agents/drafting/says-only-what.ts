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
