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
    id: 'copyright',
    pattern: /^(?:©|\(c\)|copyright\b)/iu,
    example: '© 2019 Hearst Communications, Inc.',
    counterExample: 'Copyrighted works enter the public domain seventy years after their author dies.',
  },
];

/** The rule a block breaks, or undefined: a block that is about the article, not of it. */
export function metadataRule(block: string): string | undefined {
  if (block.length > MAX_CHARS) return undefined;
  return METADATA_BLOCKS.find((rule) => rule.pattern.test(block))?.id;
}
