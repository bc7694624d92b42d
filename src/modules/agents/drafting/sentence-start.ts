/** A name its owner writes in lower case: a digit or a capital inside its first word ("my6sense", "iPhone", "eBay"). */
const LOWER_CASE_NAME = /^\p{Ll}[\p{L}\d]*[\d\p{Lu}]/u;

/**
 * A text whose opening words were cut away (a dateline, a relative day, a leading clause), begun as a sentence begins: "the
 * council voted ..." -> "The council voted ...". A name written in lower case keeps its case: "my6sense is adding ...".
 */
export const asSentenceStart = (text: string) => (LOWER_CASE_NAME.test(text) ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}`);
