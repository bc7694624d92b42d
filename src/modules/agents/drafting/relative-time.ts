import { asSentenceStart } from './sentence-start.ts';

/**
 * Words that say when relative to the day an article was written ("today", "on Tuesday", "this week", "yesterday"): a meta
 * description outlives that day, and read a month later "Oil prices fell sharply on Tuesday" names no day at all. Read by the
 * site's owner on 20 drafts, such words were copied verbatim into descriptions. Each removal is a named rule with an example,
 * the sentence it leaves, and a counter-example it leaves whole (relative-time.test.ts checks all three); what no rule can
 * remove without breaking the sentence ("launches tomorrow", "today only", "Tuesday's college football") keeps the sentence
 * out of a draft (the sentence rule relative_time). English articles only: on a shop or a landing page "closed on Sunday" is
 * a habit, not a day.
 */
export interface RelativeTimeRule {
  id: string;
  pattern: RegExp;
  /** What stands in its place ('' by default). */
  replacement?: string;
  example: string;
  result: string;
  counterExample: string;
  /**
   * Removed only before the headline's own story: what is left says STORY_WORDS of the page's name's words (its heading's and
   * title's). The example's and counter-example's page is named `pageWords`.
   */
  beforeStory?: true;
  pageWords?: readonly string[];
}

/** Words of the page's name a sentence says to tell the headline's own story. */
const STORY_WORDS = 3;
const tellsStory = (text: string, pageWords: ReadonlySet<string>) =>
  new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => pageWords.has(w))).size >= STORY_WORDS;

const WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const PART_OF_DAY = '(?:\\s(?:morning|afternoon|evening|night))?';
const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.|Feb\\.|Mar\\.|Apr\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\.)';
/** "this week", "last month", "earlier this week", "over the weekend". */
const WEEK = '(?:(?:earlier|later)\\s)?(?:this|last)\\s(?:week|weekend|month)|(?:over|at|during)\\sthe\\sweekend';
/** "today", "yesterday", "last night", "this morning", "earlier today". */
const DAY_WORD = '(?:(?:earlier|later)\\s)?(?:today|yesterday|tonight)|last\\snight|this\\s(?:morning|afternoon|evening)|right\\snow';
/** What the removed words leave: a word, or a comma, full stop or the like after them (not an "'s", which makes them a name's). */
// Nor before the verb of a subject they end ("the interview aired at the weekend was a success": "aired was" would be left).
const AFTER = '(?=[\\s,.;:!?)—–]|$)(?![\'’]s)(?!\\s(?:was|were|is|are|has|have|had|will)\\b)';
/**
 * A verb whose news is the day itself ("Stadia launches today.", "The deadline is today."): without it the sentence says nothing
 * of when, or nothing at all; the day stays, and the sentence is kept out of a draft (STALE_TIME).
 */
const EVENT_VERB = '(?<!\\b(?:launch(?:es)?|opens?|begins?|starts?|ends?|arrives?|returns?|debuts?|premieres?|airs?|lands?|closes?|expires?|is|are|was|were|be|due|off|place|out)\\s)';
/** Words after which a time word is the object of a preposition (" since Tuesday", " of today"): removed, it leaves the preposition dangling. */
// (Nor of a verb whose object it is: "The Steelers spent Monday trying to distance themselves ...", "took Friday off".)
const NOT_AFTER = '(?<!\\b(?:since|until|till|by|from|of|before|after|through|for|every|each|next|than|between|and|or|spent|spend|spends|spending|took|take|takes|taking|marked|marks|celebrated)\\s)';

export const RELATIVE_TIME_RULES: RelativeTimeRule[] = [
  {
    id: 'leading_time',
    // "Earlier this month, NASA announced ...", "On Tuesday, the council voted ...", "Yesterday, police said ...".
    pattern: new RegExp(`^(?:(?:Earlier|Later)\\s(?:today|this\\s(?:morning|afternoon|evening))|(?:On\\s)?(?:Last\\s)?${WEEKDAY}${PART_OF_DAY}|Today|Yesterday|Tonight|Last\\s(?:night|week|weekend|month)|This\\s(?:week|weekend|morning|afternoon|evening)|Over\\sthe\\sweekend)\\s*,\\s+(?=[\\p{L}"“‘\\d])`, 'u'),
    // (Not "Earlier this month, ...", "Earlier this year, ...": what happened before the story, its background. Without the words,
    // "Lexus revealed the LC Convertible Concept" reads as the news of a story about the production car, read by an editor.)
    example: 'Earlier today, NASA announced the newest milestone in the development of its Space Launch System.',
    result: 'NASA announced the newest milestone in the development of its Space Launch System.',
    counterExample: 'Earlier this year, Lexus revealed the LC Convertible Concept, an open-top version of the LC 500 grand tourer.',
  },
  {
    id: 'earlier_this_story',
    // "Earlier this week, state engineers closed the Harbor Bridge to trucks ..." under "Harbor Bridge closed to trucks": the story
    // itself, a few days back. Before another story it is background ("Earlier this year, Lexus revealed the LC Convertible
    // Concept" under the production car's launch): the words stay, and the sentence is kept out (STALE_WORDS).
    pattern: /^(?:Earlier|Later)\sthis\s(?:week|month|year)\s*,\s+(?=[\p{L}"“‘\d])/u,
    beforeStory: true,
    pageWords: ['harbor', 'bridge', 'closed', 'trucks', 'cracks'],
    example: 'Earlier this week, state engineers closed the Harbor Bridge to trucks after inspectors found cracks in two steel supports.',
    result: 'State engineers closed the Harbor Bridge to trucks after inspectors found cracks in two steel supports.',
    counterExample: 'Earlier this year, the city reopened the old ferry line across the harbor.',
  },
  {
    id: 'leading_clause_ago',
    // "After debuting the all-new Juke two months ago, Nissan has taken the covers off the eighth-generation Sentra.": what came
    // before the news, dated from the day it was written; the news stands without it. Only a clause that runs to "ago" and its
    // comma, after "After", "Since", "Following" or "Weeks/Months after".
    pattern: /^(?:After|Since|Following|(?:Days|Weeks|Months|Years)\s+after)\s[^,;:—–]{3,80}\s(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|\d+)\s(?:days?|weeks?|months?|years?)\sago\s*,\s+(?=\p{Lu}|\p{Ll}[\p{L}\d]*[\d\p{Lu}])/u,
    example: 'After debuting the all-new Juke two months ago, Nissan has taken the covers off the eighth-generation Sentra.',
    result: 'Nissan has taken the covers off the eighth-generation Sentra.',
    counterExample: 'After two years of delays, the bridge opened to traffic in the spring.',
  },
  {
    id: 'news_weekday',
    // " on Tuesday", " Monday" after a verb ("pleaded guilty Monday", "released Monday"), " on Tuesday night"; not a day of a name
    // ("Black Friday", "Cyber Monday": a capital before it), nor one with its date (" on Tuesday, November 19" says the day itself).
    pattern: new RegExp(`(?:\\s(?:on|last)\\s|(?<=\\s\\p{Ll}[\\p{L}'’-]*|\\s\\d[\\d-]*,?)\\s${NOT_AFTER})${WEEKDAY}(?!(?:\\s(?:morning|afternoon|evening|night))?['’]s)${PART_OF_DAY}(?!,?\\s${MONTH})${AFTER}`, 'gu'),
    example: 'Oil prices fell sharply on Tuesday on oversupply concerns.',
    result: 'Oil prices fell sharply on oversupply concerns.',
    counterExample: 'Black Friday deals start at midnight, and every store opens until Sunday.',
  },
  {
    id: 'news_weekday_named',
    // "after Monday night’s loss to the Chiefs" -> "after the loss to the Chiefs": the event stays, its day goes.
    pattern: new RegExp(`(?<=\\s\\p{Ll}+\\s)(?:last\\s)?${WEEKDAY}${PART_OF_DAY}['’]s(?=\\s\\p{Ll})`, 'gu'),
    replacement: 'the',
    example: 'Chargers coach Anthony Lynn knows his team’s playoff hopes are slim after Monday night’s loss to the Chiefs.',
    result: 'Chargers coach Anthony Lynn knows his team’s playoff hopes are slim after the loss to the Chiefs.',
    counterExample: 'Cyber Monday’s deals started at midnight in every store of the chain.',
  },
  {
    id: 'leading_weekday_named',
    // The same at the sentence's start: "Monday’s best deals include ..." -> "The best deals include ...". Not a name that is a
    // day's ("Sunday’s Best", "Cyber Monday’s deals": a capital follows, or stands before).
    pattern: new RegExp(`^(?:Last\\s)?${WEEKDAY}${PART_OF_DAY}['’]s\\s(?=\\p{Ll})`, 'u'),
    replacement: 'The ',
    example: 'Monday’s best deals include various MacBook models from $700 at Amazon.',
    result: 'The best deals include various MacBook models from $700 at Amazon.',
    counterExample: 'Sunday’s Best is a gospel singing competition that aired on BET.',
  },
  {
    id: 'news_day_word',
    pattern: new RegExp(`\\s${NOT_AFTER}${EVENT_VERB}(?:${DAY_WORD})${AFTER}`, 'giu'),
    example: 'Kepa Arrizabalaga will undergo a medical at Stamford Bridge today ahead of his move to Chelsea.',
    result: 'Kepa Arrizabalaga will undergo a medical at Stamford Bridge ahead of his move to Chelsea.',
    counterExample: 'Stadia, Google’s streaming platform, launches today.',
  },
  {
    id: 'news_week',
    // (Not after an opening "Earlier" or "Later": the sentence is the story's background, kept out whole by STALE_WORDS.)
    pattern: new RegExp(`(?<!^(?:Earlier|Later))\\s${NOT_AFTER}(?:${WEEK})${AFTER}`, 'giu'),
    example: 'A case of bubonic plague was reported in China over the weekend, health officials said.',
    result: 'A case of bubonic plague was reported in China, health officials said.',
    counterExample: 'The clinic is open every weekend of the month from nine until noon.',
  },
];

/**
 * What still says a relative day once the rules have run (tomorrow, next week, "today only", a weekday's or today's name on an
 * event): the sentence cannot go into a description without saying something else or nothing.
 */
const STALE_WORDS = new RegExp(`(?<![\\p{L}\\p{N}])(?:today|yesterday|tomorrow|tonight|(?:earlier|later)\\sthis\\syear|(?:this|last|next)\\s(?:week|weekend|month)|next\\s${WEEKDAY})(?![\\p{L}\\p{N}])`, 'iu');
/** (Case-sensitive: under the i flag \\p{Ll} would take capitals too.) */
const STALE_DAY = new RegExp(`(?<=(?:^|\\s)(?:[Oo]n|[Ll]ast|[Tt]his|[Nn]ext)\\s)${WEEKDAY}(?!\\p{L})(?!,?\\s${MONTH})|(?<=\\s\\p{Ll}+\\s|^)${WEEKDAY}${PART_OF_DAY}['’]s\\s(?=\\p{Ll})`, 'u');
export const staleTime = (sentence: string) => STALE_WORDS.test(sentence) || STALE_DAY.test(sentence);

/** The sentence without the relative-time words the rules remove, and the ids of those that removed some. */
export function withoutRelativeTime(sentence: string, pageWords: ReadonlySet<string> = new Set()): { text: string; rules: string[] } {
  let text = sentence;
  const rules: string[] = [];
  for (const rule of RELATIVE_TIME_RULES) {
    if (rule.beforeStory && !tellsStory(text.replace(rule.pattern, ''), pageWords)) continue;
    const next = text.replace(rule.pattern, (m) => (rule.replacement === undefined ? '' : `${/^\s/u.test(m) ? ' ' : ''}${rule.replacement}`));
    if (next !== text) {
      rules.push(rule.id);
      text = next;
    }
  }
  if (rules.length === 0) return { text, rules };
  // The sentence's first letter written as a sentence's ("NASA announced ...", "the council voted" -> "The council voted").
  text = text.replace(/\s+([,.;:!?])/gu, '$1').replace(/,(?=[.;:!?])/gu, '').replace(/\s{2,}/gu, ' ').trim();
  return { text: asSentenceStart(text), rules };
}
