/**
 * Blocks that are about an article, not of it: a byline, a dateline of publication or
 * update, a copyright line, a comments policy. Each rule is named data, with a block it
 * catches and one it lets through (metadata-blocks.test.ts checks both); a block over
 * MAX_CHARS is prose whatever it starts with.
 */
export const MAX_CHARS = 160;

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = `(?:${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}\\s+${MONTH}\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4})`;

export const METADATA_BLOCKS: Array<{ id: string; pattern: RegExp; example: string; counterExample: string }> = [
  {
    id: 'byline',
    pattern: /^(?:[Bb]y|[Ww]ritten by|[Pp]osted by|[Ss]tory by|[Ww]ords by|[Vv]on|[Pp]ar|[Pp]or|[Dd]i)\s+\p{Lu}[\p{L}.'’-]+(?:\s+\p{Lu}[\p{L}.'’-]+){0,3}\s*(?:$|[|,·•–—-]|\band\b)/u,
    example: 'By Bill Hoppe | Special to the Pioneer Press',
    counterExample: 'By the end of the season the team had won twelve games in a row.',
  },
  {
    id: 'updated_line',
    pattern: new RegExp(`^(?:updated|published|posted)\\s+[^.!?]{0,40}${DATE}[^.!?]{0,20}$`, 'iu'),
    example: 'Updated 5:27 am CST, Wednesday, November 20, 2019',
    counterExample: 'Updated guidance from the agency arrived on November 20, 2019, and changed everything.',
  },
  {
    id: 'dateline',
    pattern: new RegExp(`^(?:(?:published|updated|posted|last updated|modified|first published)\\s*:?\\s*)?(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,?\\s+)?(?:${DATE}|\\d{1,2}:\\d{2}\\s*(?:am|pm)?)[^.!?]{0,60}$`, 'iu'),
    example: 'PUBLISHED: November 19, 2019 at 8:59 pm | UPDATED: November 19, 2019 at 10:16 pm',
    counterExample: 'November 19, 2019 was the day the Wild finally won on the road, and the fans noticed.',
  },
  {
    id: 'relative_time',
    pattern: /^[-–—•·]?\s*(?:\d+|an?|one)\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?)\s+ago\b[^.!?]{0,40}$/iu,
    example: '22 hours ago on iOS Blog',
    counterExample: 'Two days ago the council voted to close the library, and nobody had warned the staff.',
  },
  {
    id: 'dated_line',
    pattern: new RegExp(`^[-–—•·]?\\s*(?:(?:published|updated|posted)\\s*:?\\s*)?(?:(?:mon|tue|tues|wed|thu|thurs|fri|sat|sun)\\.?,?\\s+)?${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?,?\\s+(?:at\\s+)?\\d{1,2}:\\d{2}[^.!?]{0,60}$`, 'iu'),
    example: '- Nov. 18th 2019 8:54 am PT',
    counterExample: 'Nov. 18 2019 at 8:54 am is when the first call came in. It would not be the last.',
  },
  {
    id: 'newsletter_promo',
    pattern: /^(?:subscribe|sign up|get|join|download|follow us)\b[^.!?]{0,100}\b(?:newsletters?|alerts?|app|inbox|updates)\b[^!?]{0,80}$/iu,
    example: 'Subscribe for our daily newsletter',
    counterExample: 'Get the soil right first: most roses fail in heavy clay that holds water in winter.',
  },
  {
    id: 'affiliate_disclosure',
    pattern: /\b(?:may earn an? (?:affiliate )?commission|affiliate links?|we may earn|sponsored content)\b/iu,
    example: 'Microsoft may earn an Affiliate Commission if you purchase something through recommended links in this article',
    counterExample: 'The commission may earn its keep yet, if the inquiry reports before the election.',
  },
  {
    id: 'identifier',
    pattern: /^[\p{L}\p{N}_]+(?:[-/][\p{L}\p{N}_]+){2,}$/u,
    example: 'medium-browser-and-portrait-tablet',
    counterExample: 'Well-known state-of-the-art designs',
  },
  {
    id: 'copyright',
    pattern: /^(?:©|\(c\)|copyright\b)/iu,
    example: '© 2019 Hearst Communications, Inc.',
    counterExample: 'Copyrighted works enter the public domain seventy years after their author dies.',
  },
];

/** Addresses take this share of a block or more: a list of files or links written out, not prose. */
const URL_SHARE = 0.5;

/** The rule a block breaks, or undefined: a block that is about the article, not of it. */
export function metadataRule(block: string): string | undefined {
  const urls = block.match(/https?:\/\/\S+/g);
  if (urls && urls.join('').length >= block.length * URL_SHARE) return 'addresses';
  if (block.length > MAX_CHARS) return undefined;
  return METADATA_BLOCKS.find((rule) => rule.pattern.test(block))?.id;
}
