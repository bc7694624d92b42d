/**
 * "a" before a number said with a vowel ("a 8-year-old Fort Worth girl", "a 11-year-old"): a slip an editor mends to "an" when
 * a page's sentence becomes its description, as a reader hears it ("an eight-year-old"). Numbers said "eight...", "eleven",
 * "eighteen" (8, 81st, 800, 8,000; 11; 18; 11,000 and 18,000); not "a 110-page report" ("a one hundred ..."), nor inside a
 * quotation (a speaker's words are quoted as said). English only: the caller passes English text.
 */
const A_BEFORE_VOWEL_NUMBER = /(?<![\p{L}\p{N}'’])([Aa]) (?=(?:8(?:\d|,\d{3})*|1[18](?:,\d{3})*)(?!\d|,\d))/gu;

/** Whether a position is inside a quotation ("..." or “...”): its marks before it are open. */
const insideQuote = (text: string, at: number) => {
  const before = text.slice(0, at);
  return (before.match(/“/gu)?.length ?? 0) > (before.match(/”/gu)?.length ?? 0) || (before.match(/"/gu)?.length ?? 0) % 2 === 1;
};

export const withArticleBeforeNumber = (text: string) =>
  text.replace(A_BEFORE_VOWEL_NUMBER, (a: string, letter: string, at: number) => (insideQuote(text, at) ? a : `${letter}n `));
