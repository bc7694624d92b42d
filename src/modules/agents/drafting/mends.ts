/**
 * Slips an editor mends when a page's sentence becomes its description, in English: the words stay the page's, their spelling is
 * set right. Each mend is a named rule with an example, what it makes of it, and a counter-example it leaves (mends.test.ts checks
 * all three). None runs inside a quotation: a speaker's words are quoted as said.
 */
export interface Mend { id: string; pattern: RegExp; replace: (match: string, ...groups: string[]) => string; example: string; result: string; counterExample: string }

/**
 * A work's title in angle brackets in Latin letters, as Korean sites print it in English ("to watch <The Palace: Tale of Jang
 * Noksu>"): two words or more in capitals and lower case, no word all in capitals, no markup's characters. Not a tag of a server's
 * configuration ("<Limit GET POST>", "<Directory /var/www>", "<IfModule mod_ssl.c>").
 */
export const LATIN_WORK_TITLE = /<(\p{Lu}\p{Ll}[\p{L}\p{N}'’:,.!?&-]*(?:\s(?!\p{Lu}{2})[\p{L}\p{N}'’:,.!?&-]+){1,12})>/gu;

export const MENDS: Mend[] = [
  {
    // "a" before a number said with a vowel: "eight...", "eleven", "eighteen" (8, 81st, 800, 8,000; 11; 18; 11,000 and 18,000), as
    // a reader hears it ("an eight-year-old"); not "a 110-page report" ("a one hundred ...").
    id: 'an_before_vowel_number',
    pattern: /(?<![\p{L}\p{N}'’])([Aa]) (?=(?:8(?:\d|,\d{3})*|1[18](?:,\d{3})*)(?!\d|,\d))/gu,
    replace: (_match, letter) => `${letter}n `,
    example: 'Police released video showing the rescue of a 8-year-old Fort Worth girl.',
    result: 'Police released video showing the rescue of an 8-year-old Fort Worth girl.',
    counterExample: 'The council published a 110-page report and a 28-year-old won the prize.',
  },
  {
    // An age's compound joined to the noun it describes: "A 43-year-old-man" is "A 43-year-old man".
    id: 'year_old_noun',
    pattern: /(?<=\b\d{1,3}-(?:year|month|week|day)-old)-(?=(?:man|woman|men|women|boy|girl|child|baby|patient|driver|mother|father|player)\b)/gu,
    replace: () => ' ',
    example: 'A 43-year-old-man began feeling breathless after switching to feather bedding.',
    result: 'A 43-year-old man began feeling breathless after switching to feather bedding.',
    counterExample: 'A 43-year-old began feeling breathless, and a 2-year-old-style tantrum followed.',
  },
  {
    // A work's title in angle brackets, as Korean sites print it in English ("<The Palace: Tale of Jang Noksu>"): in a search result
    // the brackets read as broken markup; quotation marks say it is a title.
    id: 'work_title_quoted',
    pattern: LATIN_WORK_TITLE,
    replace: (_match, title) => `“${title}”`,
    example: 'Visitors came to Jeongdong Theater to watch <The Palace: Tale of Jang Noksu> and left their reviews.',
    result: 'Visitors came to Jeongdong Theater to watch “The Palace: Tale of Jang Noksu” and left their reviews.',
    counterExample: 'A Vec<T> holds any number of values of one type, and <Limit GET POST> restricts methods.',
  },
];

/** Whether a position is inside a quotation ("..." or “...”): its marks before it are open. */
const insideQuote = (text: string, at: number) => {
  const before = text.slice(0, at);
  return (before.match(/“/gu)?.length ?? 0) > (before.match(/”/gu)?.length ?? 0) || (before.match(/"/gu)?.length ?? 0) % 2 === 1;
};

/** An English draft with every mend made (outside quotations). */
export function mended(text: string): string {
  let out = text;
  for (const mend of MENDS) {
    const source = out;
    out = source.replace(mend.pattern, (match: string, ...rest: unknown[]) => {
      const at = rest.find((r) => typeof r === 'number') as number;
      return insideQuote(source, at) ? match : mend.replace(match, ...(rest.filter((r) => typeof r === 'string') as string[]).slice(0, -1));
    });
  }
  return out;
}
