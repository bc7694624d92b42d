import { asSentenceStart } from './sentence-start.ts';

/**
 * What a news lead or a summary carries before its first sentence begins: a wire dateline
 * ("WASHINGTON (AP) — "), a section label ("Editorial: "), and after its last a site's name
 * (" — www.wday.ru"). A description opens with the sentence itself. Each rule is named data:
 * an example it removes, and a counter-example it leaves whole (lead-prefixes.test.ts checks both).
 */
export interface TextRule {
  id: string;
  pattern: RegExp;
  example: string;
  counterExample: string;
  /** Read on an article's lead only: elsewhere the same shape names a subject ("JSON: A lightweight format ..."). */
  articlesOnly?: true;
}

/** A news agency or broadcaster in a dateline's brackets ("(AP)", "(CNN Business)", "(HawaiiNewsNow)"). */
const AGENCY = '\\((?:AP|Reuters|AFP|UPI|dpa|PTI|IANS|ANI|Xinhua|Bloomberg|CNN[\\p{L} ]{0,20}|[\\p{L}]{0,20}News[\\p{L}]{0,20})\\)';
/** Any short name in capitals in brackets: an agency only with a dash after it ("(ECB) President" is an abbreviation). */
const ANY_AGENCY = '\\([\\p{Lu}]{2,8}\\)\\s*(?:—|–|--|-)';

export const LEAD_PREFIXES: TextRule[] = [
  {
    id: 'wire_dateline',
    // A place in capitals, its state or country, the agency, and a dash: "COLUMBIA, S.C. (AP) — ", "BERLIN -- ".
    pattern: new RegExp(`^\\p{Lu}[\\p{Lu} .'’-]{2,30}(?:,\\s*\\p{Lu}[\\p{L}.]*(?:\\s\\p{Lu}[\\p{L}.]*){0,3})?\\s*(?:${AGENCY})?\\s*(?:—|–|--|-)\\s+(?=\\p{Lu}|["“‘])`, 'u'),
    example: 'COLUMBIA, S.C. (AP) — About a dozen black female small-business owners were gathered in a shared workspace.',
    counterExample: 'NASA scientists using a telescope atop Mauna Kea have confirmed the presence of water vapor on Europa.',
    articlesOnly: true,
  },
  {
    id: 'agency_dateline',
    // A place in any case with its agency, a dash or none: "Hong Kong (CNN Business) ", "HONOLULU, Hawaii (HawaiiNewsNow) - ", "(CNN) ".
    // Any page: "NEW YORK (Reuters) - Oil prices fell ..." is a dateline wherever it stands.
    pattern: new RegExp(`^(?:\\p{Lu}[\\p{L}.'’-]*(?:[\\s,]+\\p{Lu}[\\p{L}.'’-]*){0,3}\\s+)?(?:${AGENCY}\\s*(?:(?:—|–|--|-)\\s+)?|${ANY_AGENCY}\\s+)(?=\\p{Lu}|["“‘])`, 'u'),
    example: 'Hong Kong (CNN Business) A muddled view of US-China trade talks once again seems to be weighing on investors.',
    counterExample: 'The European Central Bank (ECB) President Christine Lagarde said rates would stay where they are for now.',
  },
  {
    id: 'place_colon',
    // Not an admonition in capitals ("WARNING: Do not ..."): what follows is its own, not a story's.
    pattern: /^(?!(?:NOTE|NOTES|WARNING|CAUTION|TIP|IMPORTANT|UPDATE|FAQ|NB|TL;?DR|Q|A)\s*:)\p{Lu}[\p{Lu} .'’-]{2,30}:\s+(?=\p{Lu})/u,
    example: 'NEW DELHI: Their American dream shattered, nearly 150 Indians returned home broke on Wednesday.',
    counterExample: 'WARNING: Do not run this command on a production database without a backup of it.',
    articlesOnly: true,
  },
  {
    id: 'place_list_colon',
    // A place in ordinary case, with its state or country after commas, and a colon: "Washington, DC, United States: Getting ...".
    pattern: /^\p{Lu}[\p{L}.'’-]+(?:\s\p{Lu}[\p{L}.'’-]+)?(?:,\s\p{Lu}[\p{L}.'’-]*(?:\s\p{Lu}[\p{L}.'’-]*){0,2}){1,2}:\s+(?=\p{Lu})/u,
    example: 'Washington, DC, United States: Getting to the Moon, while not easy, has been done more than once.',
    counterExample: 'Washington, the capital, said: Nothing will change before the vote in the spring of next year.',
    articlesOnly: true,
  },
  {
    id: 'place_dash',
    // A place or a publication's name in ordinary case, then an en or em dash: "Indianapolis – Several thousand teachers ...".
    pattern: /^\p{Lu}[\p{L}.]*(?:,?\s\p{Lu}[\p{L}.]*){0,2}\s+(?:—|–|--)\s+(?=\p{Lu})/u,
    example: 'Dekalb, Ill. — Mike Glass threw for three touchdowns and Eastern Michigan rolled past Northern Illinois, 45-17.',
    counterExample: 'Several thousand teachers – most of them wearing red – surrounded the Indiana Statehouse on Tuesday.',
    articlesOnly: true,
  },
  {
    id: 'bracket_tag',
    // A column's or a series' tag in brackets before the first sentence: "[엔터미디어=정덕현의 이슈공감] ...", "[Updated] ...".
    pattern: /^\[[^\]]{2,40}\]\s*(?=\S)/u,
    example: '[엔터미디어=정덕현의 이슈공감] 엘제이의 리벤지인가, 류화영의 피해자 코스프레인가. 시작은 엘제이의 일방적인 사진 공개로부터 비롯됐다.',
    counterExample: 'Brackets [like these] in a sentence stay where the writer put them, as in every other sentence.',
    articlesOnly: true,
  },
  {
    id: 'press_tag',
    // A Korean press tag, the outlet and its writer ("[엔터미디어=정덕현의 이슈공감]"), after the column's subtitle when the page set
    // it in the same block ("엘제이의 리벤지인가, 류화영의 코스프레인가 [엔터미디어=...]"): any page, the tag is never the story.
    pattern: /^(?:[^.!?。\[\]]{2,80}\s)?\[[^\]=a-zA-Z]{1,30}=[^\]]{1,40}\]\s*(?=\S)/u,
    example: '엘제이의 리벤지인가, 류화영의 코스프레인가 [엔터미디어=정덕현의 이슈공감] 엘제이의 리벤지인가, 류화영의 피해자 코스프레인가. 시작은 엘제이의 일방적인 사진 공개로부터 비롯됐다.',
    counterExample: 'The formula [a=b] holds in every case the paper considers, as its authors show in the appendix.',
  },
  {
    id: 'section_label',
    // (The label in any case, what follows it in capitals: under an `i` flag \p{Lu} would match any letter.)
    pattern: /^(?i:editorial|opinion|analysis|review|exclusive|breaking|breaking news|update|updated|watch|live|explainer|comment|perspective|column|image|photo|video|listen|meinung|kommentar|análisis|opinión|opinião|éditorial|tribune)\s*[:|]\s+(?=\p{Lu}|["“‘])/u,
    example: 'Editorial: The authorities’ repression has only fuelled the crisis.',
    counterExample: 'Editorial independence: why the paper’s owners never see a story before it runs.',
    articlesOnly: true,
  },
  {
    id: 'interjection',
    // A newsletter's call to its readers before its news ("Brace yourself, Swifties: Taylor Swift might not ..."): the news is
    // after the colon. Imperatives and exclamations of this kind only, never a speaker's name ("Prof. Carlos: ...").
    pattern: /^(?i:(?:brace|buckle|hold on to|get ready|heads up|listen up|mark your calendars?)\b[^:.!?]{0,30}|(?:good|bad|big|great|sad) news(?:, [^:.!?]{1,20})?|spoiler alert|psa|fyi|attention(?:,\s[\p{L}]+)?|calling all [^:.!?]{1,20})\s*:\s+(?=\p{Lu})/u,
    example: 'Brace yourself, Swifties: Taylor Swift might not be able to perform her hits at the American Music Awards.',
    counterExample: 'Attention Is All You Need: The 2017 Google paper introduced the transformer.',
    articlesOnly: true,
  },
  {
    id: 'transition',
    // A nut graf's link back to the hook before it ("In search of answers, an international team of scientists has created
    // ..."): the news after it stands alone, and in a search result there is no hook to answer. Only phrases that say nothing
    // but "next" (never a time, a place or a reason: "In 2019, ...", "In Paris, ..." stay).
    pattern: /^(?:In search of (?:answers|an answer)|To find out|To answer (?:that|this|the) question|To that end|To do (?:so|that|this)|With that in mind)\s*,\s+(?=[\p{Ll}\p{Lu}])/u,
    example: 'In search of answers, an international team of scientists has created the most detailed model of the universe to date.',
    counterExample: 'In search of lost time, Proust wrote seven volumes over fourteen years of his life.',
    articlesOnly: true,
  },
  {
    id: 'comes_after',
    // A story that opens by tying itself to the last one ("This comes after police said the demonstrators ... had no option but to
    // surrender."): what it comes after is news of its own, a clause with its verb. Not a noun alone ("This comes after a week of
    // protests." says nothing once cut).
    pattern: /^(?:This|It|That|The move|The news|The decision|The announcement) comes? (?:after|as|amid|just days after|days after|weeks after|a day after)\s+(?=\p{Ll}[^.!?]*?\s(?:said|says|told|has|have|had|is|are|was|were|will|would|could|\p{Ll}{3,}ed)\s)/u,
    example: 'This comes after police said the demonstrators inside the Polytechnic University had no option but to come out and surrender.',
    counterExample: 'This comes after a week of protests in the city centre and the closure of two universities.',
    articlesOnly: true,
  },
];

export const SITE_NAME_ENDINGS: TextRule[] = [
  {
    id: 'site_name_suffix',
    // " — www.wday.ru", " | The Verge", " - Reuters": a name of at most four words, or an address, after the last sentence.
    // (A name does not end as a sentence does: "... rose 3%. – Analysts expect more." keeps its last sentence.)
    pattern: /(?<=[.!?"”’])\s+(?:[—–|]|-{1,2})\s+(?:(?:www\.)?[\p{L}\d-]+(?:\.[\p{L}\d-]+)+|\p{Lu}[\p{L}\d&'’.]*(?:\s[\p{L}\d&'’.]+){0,3}(?<![.!?]))$/u,
    example: 'Полина Поризкова рассказала, почему старение ее ужасает. — www.wday.ru',
    counterExample: 'The plan aims at module efficiencies of around 24% – up to 35% for multi-junction cells – by 2030.',
  },
];

/** The text without what stands before its first sentence, and the rule that removed it (or the text as it was). */
export function withoutLeadPrefix(text: string, article = true): { text: string; rule?: string } {
  for (const rule of LEAD_PREFIXES) {
    if (rule.articlesOnly && !article) continue;
    const match = rule.pattern.exec(text);
    // What is left must still be a sentence of some length: "BERLIN -- Yes." is not cut to "Yes."
    if (match && text.length - match[0].length >= 40) {
      // (After a transition the sentence's first word is written as a sentence's: "an international team" -> "An ...".)
      return { text: asSentenceStart(text.slice(match[0].length)), rule: rule.id };
    }
  }
  return { text };
}

/** The text without a site's name after its last sentence. */
export function withoutSiteName(text: string): { text: string; rule?: string } {
  for (const rule of SITE_NAME_ENDINGS) {
    const match = rule.pattern.exec(text);
    if (match) return { text: text.slice(0, match.index), rule: rule.id };
  }
  return { text };
}
