import { displayWidth, saysName } from '../../../lib/strings.ts';
import { FUNCTION_WORDS } from './sentence-rules.ts';
import { asSentenceStart } from './sentence-start.ts';

/**
 * A sentence over a description's limit made to fit without changing what it says, as an
 * editor shortens a news lead: what it says in passing goes (an aside in brackets, an
 * appositive between commas, a clause that sets the scene before the subject), and then what
 * it adds at the end (", after ...", ", according to ...", ", officials said"). Each cut is a
 * named rule with an example and the sentence it leaves (shorten.test.ts checks both), and a
 * counter-example it leaves alone. Of the shortened forms within the limit, the longest is
 * taken: it keeps the most of the sentence.
 */
export interface ClauseCut {
  id: string;
  /** Every shorter form of the sentence this cut allows (each a whole sentence ending as the original does). */
  variants: (sentence: string) => string[];
  example: string;
  result: string;
  counterExample: string;
  /**
   * Drops what may be the story itself (what a participle, a purpose or a time clause adds: "..., stating they had checked on
   * Jeffrey Epstein ..."): used only where the sentence shares a name with the page's headline and keeps every name it shares
   * (shortenSentence), so that what is left is still the headline's story; off an article, trailing_story also without one.
   */
  keepsHeadline?: true;
  /** The languages (base tags) whose words the cut reads; absent: any. A page without a declared language is read as English. */
  langs?: readonly string[];
}

/** The sentence cut before `at`, closed with a full stop (what the sentence exclaimed or asked is in the part cut: "..., according to E! News"). */
const cutAt = (sentence: string, at: number) => {
  // (A comma a quotation closes over becomes its full stop: ... diagnosed with "feather-duvet lung," according to ... -> "... lung.")
  const head = sentence.slice(0, at).replace(/[\s,;:—–-]+$/u, '').replace(/,(["”’']+)$/u, '.$1');
  // "... moves to the U.S." already ends with its full stop.
  return /[.!?]["”’']*$/u.test(head) ? head : `${head}.`;
};
/** Every match of `pattern` removed at once: the one variant, or none when nothing matches. */
const withoutAll = (sentence: string, pattern: RegExp) => {
  const all = sentence.replace(pattern, '');
  return all === sentence ? [] : [all];
};
/** Each match of `pattern` removed on its own. */
const withoutEach = (sentence: string, pattern: RegExp) =>
  [...sentence.matchAll(pattern)].map((m) => `${sentence.slice(0, m.index)}${sentence.slice(m.index + m[0].length)}`.replace(/\s{2,}/gu, ' '));

/** Words that say "in passing" after a comma: an appositive ("Kurt Volker, the former envoy, ...") or a relative clause. */
// Not when a name follows with a comma of its own ("Prince Andrew, the brother of the heir, Charles, has told ..."): the aside goes on.
// A participle's only before "that", "by", "with" ("A group of physicians, alarmed that ..., is urging"): ", decided to weigh in
// on the fight," is the sentence's own verb (read on 125 news drafts).
const APPOSITIVE = /,\s(?:(?:the|a|an|who|which|whose|one of|both|now|then|once|formerly|currently|best known for|known for)\s|\p{Ll}{3,}ed\s(?=(?:that|by|with|about|over|at|from)\s))[^,;:()“”"]{2,90},(?=\s)(?!\s[\p{L}'’.-]+(?:\s[\p{L}'’.-]+)?,)/giu;
/**
 * An appositive whose adjectives a comma joins ("my6sense, a comprehensive, white label programmatic native ad platform and exchange,
 * is adding ..."): only where the sentence's verb follows it, so that a clause of the sentence ("Kurt Volker, a diplomat, testified
 * before the committee, officials said") is never read as one.
 */
const COORDINATE_APPOSITIVE = /,\s(?:a|an|the)\s\p{Ll}{3,},\s[^,;:()“”"]{2,90},(?=\s(?:is|are|was|were|has|have|had|will|would|can|could|may|might)\s)/gu;
/** An aside between paired dashes ("Two hostages — an American and an Australian — were released"). */
const DASH_ASIDE = /\s[—–]\s[^—–]{2,90}\s[—–](?=\s)/gu;
/** A clause before the subject: "While Anglophiles watched The Crown, the real Prince Andrew ...", "In July 2018, we recommended ...". */
const LEADING_CLAUSE = /^(?:(?:While|Though|Although|As|After|Before|With|Following|Despite|Since|When|Once|Amid|In|On|During|In the wake of|For the first time)\b|\p{Lu}\p{Ll}{2,}ing\s+(?=\p{Ll}))[^,;:—–]{3,120},\s+(?=[\p{L}\d"“])/u;
/**
 * What a sentence's subject went through, said before it in participles ("Their American dream shattered and huge savings wasted,
 * nearly 150 Indians returned home ..."): an absolute phrase, whose possessive the subject after it answers. Not a clause of the
 * sentence's own ("Their children visited, and the house was full": a conjunction follows).
 */
const ABSOLUTE_PHRASE = /^(?:Their|His|Her|Its|Our)\s[^,;:—–]{2,80}?\s\p{Ll}{3,}(?:ed|en)(?:\s(?:and|or)\s[^,;:—–]{2,60}?\s\p{Ll}{3,}(?:ed|en))?,\s+(?!(?:and|but|or|so|yet)\s)/u;
/** A person's title before their full name opening the sentence ("Ambassador Gordon Sondland is ..."): the name says who. */
const LEADING_TITLE = /^(?:Ambassador|Senator|Sen\.|Representative|Rep\.|Governor|Gov\.|Mayor|Judge|Justice|General|Gen\.|Professor|Prof\.|Dr\.)\s(?=\p{Lu}\p{Ll}+(?:\s\p{Lu}\.)?\s\p{Lu}\p{Ll}+)/u;
/** The day of a news story ("on Wednesday", "on Tuesday night", "last week"): stale the day after, and a description does without it. */
const NEWS_DAY = /\s(?:last|this|on)\s(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:\s(?:morning|afternoon|evening|night))?(?=[\s,.;])|\s(?:last|this)\s(?:week|weekend|month)(?=[\s,.;])/gu;
/** What a sentence adds after its main clause, each a place to end it. */
// Read on 142 news drafts: a clause after "when", "after" or a participle without a comma ("... may have occurred | after the
// attacker tried to steal ...", ", stating they had checked on Jeffrey Epstein ...") is the news itself, and is never cut.
const TRAILING = [
  /,\s(?=(?:after|as|amid|while|before|until|following|despite|according to|in a|in an|in what|including|citing|with)\b)/giu,
  // The same in the other languages sites are most written in: ", pour une autonomie de ...", ", mit ...", ", con ...".
  /,\s(?=(?:pour|afin de|grâce à|selon|dont|avec|mit|wobei|sodass|um|para|con|gracias a|donde|per|grazie a|com|onde)\s)/giu,
  /\s(?=(?:amid|according to|in an attempt|in a bid|as part of|such as|including|because)\s)/giu,
  // A sentence end the segmenter joined past ("... commands (every hour, etc.). atd deals with ..."): the first sentence alone.
  /(?<=(?:\)|\p{Ll}{3})[.!?])\s+(?=\p{Ll})/gu,
  // A relative clause that runs to the end ("..., which it bought in 2019."); not one the sentence goes on after
  // ("The merger of Gannett and GateHouse, which became final Tuesday, will create ...": the subject alone would be left).
  /,\s(?=(?:which|who|where)\b[^,;—–]*$)/giu,
  // The attribution at the end: ", Austria's interior minister said on Tuesday", ", executives of both companies announced Wednesday".
  /,\s(?=[^,;]{3,80}\s(?:said|says|announced|reported|told|confirmed|wrote|added)\b[^,;]{0,40}[.!?]?$)/giu,
  // A dash that opens no aside closed later ("NASA said the five companies — Blue Origin, ..., SpaceX — will ...": not there).
  // Not a concession (", though officials say the risk is low"): without it the story says more than it does (read by an owner).
  /\s[—–-]\s(?![^—–]*\s[—–]\s)|[;؛]\s|,\s(?=(?:such as|that is|notably)\b)|,\s(?=(?:and|but|so|yet)\s(?:the|this|that|these|it|we|they|you|he|she|there|its|our|their|his|her)\b)/gu,
];
/** A finite verb: a clause that has one is a sentence's main clause, not one that sets the scene. */
const FINITE_VERB = /\s(is|are|was|were|has|have|had|will|would|can|could|does|do|did|must|should|may|might)\s/iu;
/** Names in a clause (words in capitals not opening it): "Hong Kong", "The Crown", "Milan Design Week". */
const namesIn = (text: string) => [...text.matchAll(/(?<=\s)\p{Lu}[\p{L}'’.-]+/gu)].map((m) => m[0].replace(/['’]s$|[.,]$/u, ''))
  .filter((name) => !CALENDAR.test(name));
/** Months and days are no names a sentence is about ("In July 2018, we recommended ..."). */
const CALENDAR = /^(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\.?$/u;

/**
 * An aside in brackets ("(allocated on the heap)", "(version 2.100)"): the sentence reads whole
 * without it. Not a hedge ("(almost) all systems" is not "all systems") nor a name searchers
 * use ("abstract base classes (ABCs)").
 */
const ASIDE = /\s\((?!(almost|mostly|usually|often|sometimes|nearly|roughly|partly|partially|largely|generally|typically)\))(?![\p{Lu}][\p{L}\d]{1,7}\))[^()]{1,80}\)(?=[\s,.;:!?])/gu;

/**
 * A name's abbreviation in brackets right after the name ("South Korea’s Ministry of Trade, Industry and Energy (MOTIE) has
 * unveiled ..."): the name is said whole before it. Not a term's ("abstract base classes (ABCs)"): a searcher may know only that.
 */
const NAME_ACRONYM = /(?<=\s\p{Lu}[\p{L}'’.-]+)\s\(\p{Lu}[\p{Lu}\d&.-]{1,9}\)(?=[\s,.;:!?])/gu;

/** An aside, and a pause ("...") the writer left after it before the sentence goes on in lower case. */
const ASIDE_AND_PAUSE = new RegExp(`${ASIDE.source}(?:\\s(?:\\.\\.\\.|…)(?=\\s\\p{Ll}))?`, 'gu');

/** A town and its state or country after a name ("NASA's Goddard Space Flight Center in Greenbelt, Maryland, has ..."): the name says where. */
// (A name within the sentence, not its first word: "Protests in Hong Kong, China, and ..." are no name's place; nor a list's "..., and".)
const PLACE_ASIDE = /(?<=\s\p{Lu}[\p{L}'’.-]*)\sin\s\p{Lu}[\p{L}'’.-]+(?:\s\p{Lu}[\p{L}'’.-]+){0,2},\s\p{Lu}[\p{L}.]+(?:\s\p{Lu}[\p{L}.]+){0,2},(?=\s(?!and\s|or\s))/gu;
/** The end of a sentence: what a trailing clause runs to (no clause of its own after it). */
const TO_END = '[^,;:—–]*[.!?]["\'”’)]*$';
/**
 * What a sentence adds after its news, to its end: a participle's clause (", pricing its shares at a discount"), a purpose
 * (", to integrate its software with ..."), a summing-up appositive (", a group that ranges from ..."), the moment around it
 * (" during a televised debate ...", " in the hours before he ...").
 */
const TRAILING_STORY = [
  new RegExp(`,\\s(?=(?!(?:including|according|following|regarding|concerning|bring|thing|something|nothing|everything|morning|evening)\\s)\\p{Ll}{3,}ing\\s${TO_END})`, 'gu'),
  new RegExp(`,\\s(?=to\\s\\p{Ll}{2,}\\s${TO_END})`, 'gu'),
  // Not a list's last item ("apples, a pie and pears"): with "and" or "or", only a relative clause makes it an appositive.
  new RegExp(`,\\s(?=(?:a|an|the|one of|acclaimed|renowned|celebrated|award-winning|well-known|famed|prominent|veteran|longtime)\\s(?:(?![^,;]*\\s(?:and|or)\\s)|[^,;]*\\s(?:that|who|which|whose)\\s)${TO_END})`, 'gu'),
  // " in a protest that closed more than half of the state’s school districts": what the event it names did besides.
  new RegExp(`\\s(?=in (?:a|an) [\\p{Ll}-]+ (?:that|which)\\s${TO_END})`, 'gu'),
  // " as the first stage of his annual physical", " as part of a wider shake-up": what the event was taken for.
  new RegExp(`\\s(?=as (?:the|a|an|part of)\\s${TO_END})`, 'gu'),
  new RegExp(`\\s(?=(?:during|in the (?:hours|days|weeks|months|minutes|moments) (?:before|after|since|leading up to))\\s${TO_END})`, 'gu'),
];

/**
 * An appositive after a name in French, Italian, Spanish, Portuguese or German: an article and a lower-case word ("Netflix, il
 * servizio di streaming a pagamento, ospiterà ...") or a German relative clause ("Merkel, die gestern sprach, ..."). Not an item
 * of a list ("la Francia, la Germania, la Spagna": a name follows the article), nor an aside the sentence goes on after with "e".
 */
const ROMANCE_APPOSITIVE = /(?<=\p{Lu}[\p{L}'’.-]*),\s(?:(?:il|lo|la|i|gli|le|un|una|uno|o|os|as|um|uma|el|los|las|une|les|der|die|das|ein|eine)\s|l['’]|un['’])(?=\p{Ll})[^,;:()“”"]{2,90},(?=\s)(?!\s(?:e|y|et|und|ou|o|oder|and)\s)(?!\s[\p{L}'’.-]+(?:\s[\p{L}'’.-]+)?,)/gu;
/**
 * Where or when, said in passing between commas ("The company, in a statement, said ...", "O prof. Carlos apresenta, neste
 * vídeo, uma loja ..."): short, and not one place of a list (", in Paris, and in Rome").
 */
const PASSING_ASIDE = /,\s(?:in|on|at|neste|nesta|nestes|nestas|nel|nella|nei|in questo|in questa|en este|en esta|dans ce|dans cette|in diesem|in dieser)\s[^,;:()“”"]{2,28},(?=\s)(?!\s(?:and|or|but|e|y|et|und|ou|o|oder)\s)/giu;
/** A word that only says "very" ("looking absolutely stunning"), in English; not "the very first", where it points. */
const INTENSIFIER = /(?<!\bthe)\s(?:absolutely|really|extremely|incredibly|truly|totally|very)(?=\s\p{Ll})/giu;

/** Examples after the point is made, in German, Italian, Spanish, Portuguese, French: ", sei es im Finanzbereich, der Industrie oder ...". */
const EXAMPLES_AFTER = /,\s(?=(?:sei es|darunter|beispielsweise|etwa|zum Beispiel|tra cui|ad esempio|per esempio|por ejemplo|entre otros|incluyendo|incluindo|por exemplo|notamment|par exemple)\s)/giu;
/** How a thing is done, to the end (" by prototyping, testing, and scaling programs which ..."): what is done comes before it. */
const MEANS_CLAUSE = /\s(?=by\s\p{Ll}{3,}ing[\s,][^;:—–]*[.!?]["'”’)]*$)/gu;
/** Who made it, in Italian, Spanish, Portuguese or French, to the end: ", prodotta da Toei Animation ...", ", produzido por ...". */
const MADE_BY = new RegExp(`,\\s(?=(?:\\p{Ll}{3,}(?:at|it|ut|tt|ss|st|ad|id)[oaie]s?\\s(?:da|dal|dallo|dalla|dai|dagli|dalle|por|pela|pelo|pelos|pelas)|\\p{Ll}{2,}é(?:e|s|es)?\\spar)\\s${TO_END})`, 'gu');

/**
 * What a participle adds between the news and a concession (", sparking widespread fears about the spread of the disease, though
 * officials say the risk is low"): the concession weighs the news and stays (cutting it would say more than the story), the
 * participle's aside goes.
 */
const PARTICIPLE_BEFORE_CONCESSION = /,\s(?!(?:including|according|following|regarding|concerning)\s)\p{Ll}{3,}ing\s[^,;:—–]{3,100}(?=,\s(?:though|although|even though|while|whereas)\s)/gu;

/**
 * An appositive that names someone in its turn ("Prince Andrew, the younger brother of the heir to the throne, Charles, has told
 * ..."): the whole of it goes, both names' commas with it. Not a list's ("Paris, the capital, Lyon, and Marseille": "and" follows).
 */
const NAMED_APPOSITIVE = /,\s(?:the|a|an)\s[^,;:()“”"]{2,90}\s[\p{L}'’-]+,\s\p{Lu}[\p{L}'’.-]+(?:\s\p{Lu}[\p{L}'’.-]+){0,2},(?=\s(?!(?:and|or|but)\s)\p{Ll})/gu;
/**
 * " as " and a clause of its own to the end (" as the region faces extreme fire weather that has lasted since October"): why or
 * while, said after the news. A subject and its verb must follow ("as weapons in a trade war" is how, and stays), and not "as a
 * result" nor "such as", "as well as".
 */
const AS_CLAUSE = /(?<!\b(?:such|well|so|same|just))\s(?=as\s(?!a result\b|part of\b|well\b)(?:the|a|an|his|her|its|their|some|many|more|most|officials|police|investors|prices|\p{Lu}[\p{L}'’-]+)\s(?:[\p{L}'’-]+\s){0,3}?(?:is|are|was|were|has|have|had|(?!his\b|its\b|this\b|us\b|as\b)\p{Ll}{2,}(?:s|ed))\s[^;:—–]*[.!?]["'”’)]*$)/gu;

/**
 * When or why, at the end of a second clause ("..., while a gauge of stocks across the globe rose for a seventh straight session |
 * after large overnight gains in Asia."): the news is the first clause, whole before the comma, and the second says what it does
 * without it. Not in a first clause ("Three people died | after clashes ..." is the news) nor one that goes on after it.
 */
const SECOND_CLAUSE_CIRCUMSTANCE = /(?<=,\s(?:while|whereas|and|but)\s[^,;:—–]{12,}?)\s(?=(?:after|amid|following|ahead of|on the back of|thanks to)\s[^,;:—–]*[.!?]["'”’)]*$)/gu;

/**
 * A second purpose at the end, after one the sentence already says (" capped a frantic comeback to lift the Islanders over the
 * Penguins 5-4 | to extend their unbeaten streak to 15 games.", " a plan to help the PV industry reduce costs | and to increase
 * product efficiency."): the first is what was done for. "to" and a word that is no determiner nor pronoun ("to the", "to all",
 * "to them" are where or to whom).
 */
const NOT_A_VERB = '(?:the|a|an|his|her|its|their|our|my|your|this|that|these|those|all|some|any|every|each|both|no|more|most|many|much|one|two|three|four|five|ten|date|me|him|them|us|you|it|whom|which|what|where)\\s';
const SECOND_PURPOSE = new RegExp(`(?<=\\sto\\s(?!${NOT_A_VERB})\\p{Ll}{2,}\\s[^,;:—–]*?)\\s(?=(?:and\\s)?to\\s(?!${NOT_A_VERB})\\p{Ll}{2,}\\s${TO_END})`, 'gu');

/**
 * A second object at the end, after a preposition's first ("questions about his evolving accounts of the Trump administration’s
 * dealings with Ukraine | and a newly revealed summertime phone call with President Donald Trump."): what is left says less, and
 * nothing else. Not a clause ("... and the board named a successor": a verb and its object), nor a pair "between" or "both" opens
 * (closed() keeps those).
 */
const SECOND_OBJECT = /(?<=\s(?:of|about|with|on|over|for|into|from|against)\s[^,;:—–]{3,80}?)\s(?=and\s(?:a|an|the|his|her|its|their|other)\s[^,;:—–]*[.!?]["'”’)]*$)/gu;
/** A verb and its object in what follows "and" ("the board named a successor"): a clause of its own, not a second object. */
const VERB_AND_OBJECT = /\s\p{Ll}{2,}(?:ed|s)\s(?:a|an|the|to|his|her|its|their|that|them|him|it)\s/u;

/**
 * Where or through whom, at the end, naming what the sentence already named ("Visitors who booked their tickets through KLOOK ...
 * have left their reviews of the show | on KLOOK!"): said twice, it goes the second time.
 */
const REPEATED_NAME_END = /\s(?:on|at|in|via|through|from|with|by)\s(?:the\s)?(\p{Lu}[\p{L}\p{N}.'’&-]*(?:\s\p{Lu}[\p{L}\p{N}.'’&-]*){0,3})(?=[.!?]["'”’)]*$)/u;

/** A name after a comma at the end of a text (", Kate Henshaw"): the comma after it closes an appositive, it opens no clause. */
const NAME_SET_OFF = /,\s\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*){0,3}$/u;
/** A town and its state or country ("a roaster in Duluth, Minnesota"): the comma between them closes no appositive. */
const PLACE_SET_OFF = /\s(?:in|at|from|near|outside)\s\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*){0,2},\s\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*){0,2}$/u;

/**
 * Words an item of a list does not open with: a clause or a phrase that goes with the item before ("pruner, with hardened steel
 * blades that cut green or dry branches", "alive, then Marcel Granollers and Feliciano Lopez completed ..."), not an item of its own.
 */
const NOT_AN_ITEM = /^(?:with|without|then|which|who|whom|whose|that|where|when|while|after|before|as|but|so|yet|for|because|since|though|although|if|in|on|at|by|from|into|of|said|says|he|she|it|they|we|you|i|this|these|those|there|here|not|also|however|including|such|like)\b/iu;
/** An item of a list: a short phrase without a verb of its own, a clause, a dash or a full stop in it. */
const listItem = (item: string) => item.length >= 2 && item.length <= 70 && !NOT_AN_ITEM.test(item) && !FINITE_VERB.test(` ${item} `)
  && !/\b(?:which|who|that|and|or)\b|[.!?—–]|\s-\s/iu.test(item);
/** What kind of phrase an item is, by its first word: items of one list are of one kind ("to break ..., to combine ..."). */
const itemKind = (item: string) => (/^to\s/iu.test(item) ? 'to' : /^\p{L}{3,}ing\b/iu.test(item) ? 'ing' : 'phrase');

/**
 * A list's middle items dropped ("A, B, C, D and E are among ..." -> "A and E are among ..."; "to trace ..., generate ..., print
 * ... and list ..." -> "to trace ... and list ..."): what the list says of its first and last items stays true of them. Four
 * items at least ("A, B, C and D"), or three and a serial comma ("A, B, and C"), all of one kind; every item but the last is
 * short and opens no clause; the list opens the sentence and goes on to its verb (its subject), or ends it (what is done,
 * what is had), so that no list inside an aside ("my6sense, a comprehensive, white label platform and exchange, is adding
 * ...") is read as one. Not a list the sentence counts, completes or joins ("in four languages: ...", "on Mondays, ...
 * and Sundays", "Apple, Google, Meta and Amazon together"): without its middle it says something else. Each variant keeps the
 * first items and the last (the longest that fits is taken).
 */
function listVariants(sentence: string): string[] {
  const variants: string[] = [];
  for (const conj of sentence.matchAll(/(,?)\s(?:and|or)\s/gu)) {
    const before = sentence.slice(0, conj.index);
    const commas = [...before.matchAll(/,\s/gu)].map((m) => m.index);
    // The items between commas, read back from the "and" while each is one.
    let starts: number[] = [];
    let end = before.length;
    for (let k = commas.length - 1; k >= 0; k--) {
      if (!listItem(before.slice(commas[k]! + 2, end))) break;
      starts.unshift(commas[k]!);
      end = commas[k]!;
    }
    // The first item runs back to the sentence's start (a subject, or the clause whose last words it is: "The trace module allows
    // you to trace program execution") or to the comma before it (a short phrase); one that is neither leaves the list shorter.
    let first = before.slice(0, starts[0] ?? 0).split(/[,;:(]\s/u).at(-1)!.trim();
    const opensSentence = () => before.slice(0, starts[0]).trim() === first;
    // (After a comma, an item as the others are: "a bypass pruner, with hardened steel blades, a folding saw and gloves" has none.)
    const firstItem = () => !FINITE_VERB.test(` ${first} `) && !/[.!?—–]|\s-\s/u.test(first)
      && (opensSentence() ? first.length <= 120 : first.split(/\s+/u).length <= 8 && listItem(first));
    while (starts.length > 0 && !firstItem()) {
      first = before.slice(starts[0]! + 2, starts[1] ?? before.length);
      starts = starts.slice(1);
    }
    // (Middle items: "A, B, C and D" has two, "A, B, and C" one and its serial comma.)
    const serial = conj[1] === ',';
    if (starts.length < (serial ? 1 : 2)) continue;
    const tail = sentence.slice(conj.index + conj[0].length);
    const last = tail.split(/[,;:]\s|[.!?]["'”’)]*$/u)[0]!;
    const endsSentence = /^[^,;:—–]*[.!?]["'”’)]*$/u.test(tail);
    // (A subject list goes on to its verb: "A, B and C are among ..."; one a comma closes soon after is an aside's.)
    const subject = opensSentence() && !/^[^,;:]{1,60},\s/u.test(tail);
    if (!subject && !endsSentence) continue;
    const items = [first, ...starts.map((at, i) => before.slice(at + 2, starts[i + 1] ?? before.length)), last];
    const kind = itemKind(last);
    if (items.some((item) => itemKind(item) !== kind)) continue;
    // What the sentence says of the list as a whole: a count before it, a whole (days, months), or the items together.
    const lead = before.slice(Math.max(0, starts[0]! - first.length - 30), starts[0]! - first.length);
    if (COUNTED.test(lead) || JOINT.test(sentence) || items.some((item) => CALENDAR.test(item.trim().replace(/s$/u, '')))) continue;
    const and = conj[0].replace(/^,/u, '');
    for (const at of starts) variants.push(`${sentence.slice(0, at)}${and}${tail}`.replace(/\s{2,}/gu, ' '));
  }
  return variants;
}

/** A clause that limits what the sentence claims: ", with a few restrictions", ", except ...", ", in most cases". */
const QUALIFICATION = /^,?\s(?:with|but with|albeit with)\s(?:a few|some|several|certain|minor|a number of|few)\s(?:restrictions|exceptions|limitations|caveats|differences)\b/iu;

/** A count just before a list ("in four languages: ...", "its 3 models, ..."): the list is all of them. */
const COUNTED = /(?:\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|both|all)\s+[\p{L}-]+\s*:?\s*|:\s*)$/iu;
/** Words that make a list's items one whole ("Apple, Google, Meta and Amazon together spent ..."). */
const JOINT = /\b(?:together|jointly|combined|between|each other|one another|respectively|only)\b/iu;

/** Whether a position is inside a quotation ("..." or “...”): its marks before it are open. */
const insideQuote = (text: string, at: number) => {
  const before = text.slice(0, at);
  return (before.match(/“/gu)?.length ?? 0) > (before.match(/”/gu)?.length ?? 0) || (before.match(/"/gu)?.length ?? 0) % 2 === 1;
};

/** A person's age set off by commas after their name or title ("Patrick Carlineo Jr., 55, could face ..."): not a list's number. */
// (Not one of several: "John Smith, 42, Mary Jones, 38, were charged", "Windows XP, 7, Vista and 10": a lower-case word follows.)
const AGE_ASIDE = /(?<=[\p{L}.’'"”])(?<!,\s\d{1,3},\s[^,]{1,40}),\s\d{1,3},(?=\s(?!and\b|or\b)\p{Ll})(?![^,]{1,40},\s\d{1,3},)/gu;
/** Country names news style writes short (AP): "United States" -> "U.S."; not inside a longer name ("United States Steel"). */
export const COUNTRY_NAMES = /\b(?:United States|United Kingdom|United Nations)\b(?!\s\p{Lu}|\s+of\b)/gu;
export const COUNTRY_SHORT: Record<string, string> = { 'United States': 'U.S.', 'United Kingdom': 'U.K.', 'United Nations': 'U.N.' };

export const CLAUSE_CUTS: ClauseCut[] = [
  {
    id: 'aside',
    // (With the writer's pause after it: "Scooter Braun (which owns her former label) ... and private equity giant The Carlyle Group".)
    variants: (sentence) => {
      const all = sentence.replace(ASIDE_AND_PAUSE, '');
      return all === sentence ? [] : [all, ...withoutEach(sentence, ASIDE_AND_PAUSE)];
    },
    example: 'Each value (allocated on the heap when the program starts) is freed once its owner goes out of scope.',
    result: 'Each value is freed once its owner goes out of scope.',
    counterExample: 'Abstract base classes (ABCs) define interfaces that other classes implement.',
  },
  {
    id: 'appositive',
    variants: (sentence) => [...withoutEach(sentence, APPOSITIVE), ...withoutEach(sentence, COORDINATE_APPOSITIVE), ...withoutEach(sentence, DASH_ASIDE)],
    example: 'Kurt Volker, the former special envoy to Ukraine, testified before the House Intelligence Committee on Tuesday.',
    result: 'Kurt Volker testified before the House Intelligence Committee on Tuesday.',
    counterExample: 'Prince Andrew, the younger brother of the heir to the throne, Charles, has told friends the interview was a success.',
  },
  {
    id: 'appositive_other_language',
    variants: (sentence) => withoutEach(sentence, ROMANCE_APPOSITIVE),
    example: 'È stato annunciato che Netflix, il servizio di streaming a pagamento, ospiterà il remake della serie.',
    result: 'È stato annunciato che Netflix ospiterà il remake della serie.',
    counterExample: 'La Francia, la Germania, la Spagna e l’Italia hanno firmato l’accordo.',
    langs: ['it', 'es', 'pt', 'fr', 'de'],
  },
  {
    id: 'passing_aside',
    variants: (sentence) => withoutEach(sentence, PASSING_ASIDE),
    example: 'O prof. Carlos Nadalim apresenta, neste vídeo, uma loja incrível nos EUA.',
    result: 'O prof. Carlos Nadalim apresenta uma loja incrível nos EUA.',
    counterExample: 'The band played in Lisbon, in Porto, and in Faro that summer.',
  },
  {
    id: 'intensifier',
    variants: (sentence) => withoutAll(sentence, INTENSIFIER),
    example: 'New photos show the actress looking absolutely stunning in her make-up.',
    result: 'New photos show the actress looking stunning in her make-up.',
    counterExample: 'The very first train leaves at six.',
    langs: ['en'],
  },
  {
    id: 'news_day',
    variants: (sentence) => withoutAll(sentence, NEWS_DAY),
    example: 'U.S. Defense Secretary Mark Esper on Wednesday accused China of coercion in the South China Sea.',
    result: 'U.S. Defense Secretary Mark Esper accused China of coercion in the South China Sea.',
    counterExample: 'The market is open every day but Sunday, from eight in the morning.',
  },
  {
    id: 'leading_clause',
    variants: (sentence) => {
      const match = LEADING_CLAUSE.exec(sentence);
      if (!match) return [];
      const rest = sentence.slice(match[0].length);
      // Not when the clause names what the rest does not ("With Hong Kong protests exploding, President Xi is likely to
      // deploy forces onto the former British colony's streets": without it, nothing says where).
      if (namesIn(match[0]).some((name) => !rest.includes(name))) return [];
      // Nor a clause that is the sentence's own ("Making backups is one of the main responsibilities ..., but it is ..."):
      // after a participle or a preposition a verb of its own makes it the main clause (a "While ..." clause has one), and a
      // conjunction after it says so.
      const subordinate = /^(While|Though|Although|As|After|Before|Since|When|Once)\b/u.test(match[0]);
      if ((!subordinate && FINITE_VERB.test(match[0])) || /^(and|but|or|so|yet|nor)\b/iu.test(rest)) return [];
      return [asSentenceStart(rest)];
    },
    example: 'In a statement released late last night, the company said its chief executive would step down at the end of the year.',
    result: 'The company said its chief executive would step down at the end of the year.',
    counterExample: 'While Anglophiles spent the weekend watching The Crown, the real Prince Andrew was busy distancing himself from royal drama.',
  },
  {
    id: 'absolute_phrase',
    variants: (sentence) => {
      const match = ABSOLUTE_PHRASE.exec(sentence);
      return match && !FINITE_VERB.test(` ${match[0]} `) ? [asSentenceStart(sentence.slice(match[0].length))] : [];
    },
    example: 'Their American dream shattered and huge savings wasted, nearly 150 Indians returned home broke after being deported from the United States.',
    result: 'Nearly 150 Indians returned home broke after being deported from the United States.',
    counterExample: 'Their children visited, and the house was full for the first time in years.',
    langs: ['en'],
  },
  {
    id: 'leading_title',
    variants: (sentence) => (LEADING_TITLE.test(sentence) ? [sentence.replace(LEADING_TITLE, '')] : []),
    example: 'Ambassador Gordon Sondland is likely to be unpredictable when he faces questions about his accounts of the dealings with Ukraine.',
    result: 'Gordon Sondland is likely to be unpredictable when he faces questions about his accounts of the dealings with Ukraine.',
    counterExample: 'Ambassador Hotel owners said on Monday the building would be sold.',
    langs: ['en'],
  },
  {
    id: 'trailing_clause',
    // Not a qualification (", with a few restrictions"): without it the sentence claims more than the page (read by an owner).
    variants: (sentence) => TRAILING.flatMap((pattern) => [...sentence.matchAll(pattern)].filter((m) => !QUALIFICATION.test(sentence.slice(m.index)))
      .map((m) => cutAt(sentence, m.index))),
    example: 'Three people have died during protests in Bolivia, after violent clashes erupted between supporters and security forces.',
    result: 'Three people have died during protests in Bolivia.',
    counterExample: 'The merger of Gannett and GateHouse, which became final Tuesday, will create a larger local news company.',
  },
  {
    id: 'place_aside',
    variants: (sentence) => withoutEach(sentence, PLACE_ASIDE),
    example: "A team led by researchers out of NASA's Goddard Space Flight Center in Greenbelt, Maryland, has confirmed traces of water vapor on Europa.",
    result: "A team led by researchers out of NASA's Goddard Space Flight Center has confirmed traces of water vapor on Europa.",
    counterExample: 'Protests in Hong Kong, China, and Santiago, Chile, went on through the weekend.',
  },
  {
    id: 'trailing_story',
    // Not at the comma that closes a name set off by commas ("show Nigerian actress, Kate Henshaw, looking stunning ..."): what is left would end mid-appositive.
    variants: (sentence) => TRAILING_STORY.flatMap((pattern) => [...sentence.matchAll(pattern)].filter((m) => !NAME_SET_OFF.test(sentence.slice(0, m.index)) || PLACE_SET_OFF.test(sentence.slice(0, m.index))).map((m) => cutAt(sentence, m.index))),
    example: 'Alibaba is set to raise up to $12.9bn from its record-breaking second listing in Hong Kong, pricing its shares at a 2.8 per cent discount to their New York close.',
    result: 'Alibaba is set to raise up to $12.9bn from its record-breaking second listing in Hong Kong.',
    counterExample: 'The shop sold apples, a pie and a cake to the first customers of the morning.',
    keepsHeadline: true,
  },
  {
    id: 'participle_before_concession',
    variants: (sentence) => withoutEach(sentence, PARTICIPLE_BEFORE_CONCESSION),
    example: 'Three cases of plague have been diagnosed in China, sparking widespread fears about the spread of the disease, though officials say the risk of an outbreak is low.',
    result: 'Three cases of plague have been diagnosed in China, though officials say the risk of an outbreak is low.',
    counterExample: 'Three cases of plague have been diagnosed in China, sparking widespread fears about the spread of the disease.',
    langs: ['en'],
  },
  {
    id: 'examples_after',
    variants: (sentence) => [...sentence.matchAll(EXAMPLES_AFTER)].map((m) => cutAt(sentence, m.index)),
    example: 'Die Digitalisierung zieht sich durch fast alle Branchen, sei es im Finanzbereich oder in der Industrie.',
    result: 'Die Digitalisierung zieht sich durch fast alle Branchen.',
    counterExample: 'Die Digitalisierung zieht sich durch fast alle Branchen und Anwendungsgebiete.',
    langs: ['de', 'it', 'es', 'pt', 'fr'],
  },
  {
    id: 'named_appositive',
    variants: (sentence) => withoutEach(sentence, NAMED_APPOSITIVE),
    example: 'Prince Andrew, the younger brother of the heir to the throne, Charles, has told friends the interview was a success.',
    result: 'Prince Andrew has told friends the interview was a success.',
    counterExample: 'Visitors from Paris, the capital of France, Lyon, and Marseille filled the hall.',
  },
  {
    id: 'name_acronym',
    variants: (sentence) => withoutAll(sentence, NAME_ACRONYM),
    example: 'South Korea’s Ministry of Trade, Industry and Energy (MOTIE) has unveiled a plan to cut the cost of solar modules.',
    result: 'South Korea’s Ministry of Trade, Industry and Energy has unveiled a plan to cut the cost of solar modules.',
    counterExample: 'Abstract base classes (ABCs) define interfaces that other classes implement.',
  },
  {
    id: 'second_purpose',
    variants: (sentence) => [...sentence.matchAll(SECOND_PURPOSE)].map((m) => cutAt(sentence, m.index)),
    example: 'Brock Nelson’s goal in overtime capped a frantic comeback to lift the New York Islanders over the Pittsburgh Penguins 5-4 to extend their unbeaten streak to 15 games.',
    result: 'Brock Nelson’s goal in overtime capped a frantic comeback to lift the New York Islanders over the Pittsburgh Penguins 5-4.',
    counterExample: 'The council voted on Tuesday to close the old bridge to all traffic until the spring.',
    keepsHeadline: true,
    langs: ['en'],
  },
  {
    id: 'second_object',
    variants: (sentence) => [...sentence.matchAll(SECOND_OBJECT)].filter((m) => {
      const tail = sentence.slice(m.index);
      return !FINITE_VERB.test(`${tail} `) && !VERB_AND_OBJECT.test(tail);
    }).map((m) => cutAt(sentence, m.index)),
    example: 'Gordon Sondland is likely to face questions about his evolving accounts of the administration’s dealings with Ukraine and a newly revealed phone call with President Donald Trump.',
    result: 'Gordon Sondland is likely to face questions about his evolving accounts of the administration’s dealings with Ukraine.',
    counterExample: 'The chief executive of the company resigned on Monday and the board named a successor within hours.',
    keepsHeadline: true,
    langs: ['en'],
  },
  {
    id: 'repeated_name_end',
    variants: (sentence) => {
      const match = REPEATED_NAME_END.exec(sentence);
      if (!match || !saysName(sentence.slice(0, match.index), match[1]!)) return [];
      return [`${sentence.slice(0, match.index)}${sentence.slice(match.index + match[0].length)}`];
    },
    example: 'Visitors who booked their tickets through KLOOK came to the theater to watch the show and have left their reviews on KLOOK!',
    result: 'Visitors who booked their tickets through KLOOK came to the theater to watch the show and have left their reviews!',
    counterExample: 'Visitors who booked their tickets through KLOOK came to the theater to watch the show at Jeongdong Theater.',
  },
  {
    id: 'as_clause',
    variants: (sentence) => [...sentence.matchAll(AS_CLAUSE)].map((m) => cutAt(sentence, m.index)),
    example: 'Pacific Gas & Electric Co. began shutting off power to some 375,000 people in 18 California counties as the region faces extreme fire weather.',
    result: 'Pacific Gas & Electric Co. began shutting off power to some 375,000 people in 18 California counties.',
    counterExample: 'President Donald Trump has pursued an agenda favoring tariffs as weapons in a widening trade war.',
    langs: ['en'],
  },
  {
    id: 'second_clause_circumstance',
    variants: (sentence) => [...sentence.matchAll(SECOND_CLAUSE_CIRCUMSTANCE)].map((m) => cutAt(sentence, m.index)),
    example: 'Oil prices fell sharply on oversupply concerns, while a gauge of stocks across the globe rose for a seventh straight session after large overnight gains in Asia.',
    result: 'Oil prices fell sharply on oversupply concerns, while a gauge of stocks across the globe rose for a seventh straight session.',
    counterExample: 'Three people have died in Bolivia after violent clashes erupted between supporters and security forces.',
    langs: ['en'],
  },
  {
    id: 'means_clause',
    variants: (sentence) => [...sentence.matchAll(MEANS_CLAUSE)].map((m) => cutAt(sentence, m.index)),
    example: 'We recommended a grant to Evidence Action Beta to develop potential top charities by prototyping, testing, and scaling programs.',
    result: 'We recommended a grant to Evidence Action Beta to develop potential top charities.',
    counterExample: 'The council was run by a board of seven members until 2019.',
    keepsHeadline: true,
    langs: ['en'],
  },
  {
    id: 'made_by',
    variants: (sentence) => [...sentence.matchAll(MADE_BY)].map((m) => cutAt(sentence, m.index)),
    example: 'Netflix ospiterà il remake della serie animata degli anni ottanta, prodotta da Toei Animation sulla base del manga originale.',
    result: 'Netflix ospiterà il remake della serie animata degli anni ottanta.',
    counterExample: 'Netflix ospiterà il remake della serie animata prodotta da Toei Animation.',
    keepsHeadline: true,
    langs: ['it', 'es', 'pt', 'fr'],
  },
  {
    id: 'age_aside',
    variants: (sentence) => withoutEach(sentence, AGE_ASIDE),
    example: 'The former “Dawson’s Creek” star, 42, was voted off the popular dance competition in a tight race against singer Ally Brooke.',
    result: 'The former “Dawson’s Creek” star was voted off the popular dance competition in a tight race against singer Ally Brooke.',
    counterExample: 'The council kept rooms 12, 14, and 16 open for the weekend.',
    langs: ['en'],
  },
  {
    id: 'country_abbreviation',
    variants: (sentence) => {
      // (Not inside a quotation: a speaker's words are quoted as said.)
      const short = sentence.replace(COUNTRY_NAMES, (name: string, at: number) => (insideQuote(sentence, at) ? name : COUNTRY_SHORT[name] ?? name))
        .replace(/\.\.(?=["'”’)]*$)/u, '.');
      return short === sentence ? [] : [short];
    },
    example: 'Breaking with decades of United States policy favoring free trade, President Donald Trump has pursued an agenda favoring tariffs.',
    result: 'Breaking with decades of U.S. policy favoring free trade, President Donald Trump has pursued an agenda favoring tariffs.',
    counterExample: 'The United States Steel Corporation opened its first mill in 1901.',
    langs: ['en'],
  },
  {
    id: 'list_items',
    variants: listVariants,
    example: 'The trace module allows you to trace program execution, generate annotated statement coverage listings, print caller/callee relationships and list functions executed during a program run.',
    result: 'The trace module allows you to trace program execution and list functions executed during a program run.',
    counterExample: 'Rafael Nadal kept Spain’s hopes alive, then Marcel Granollers and Feliciano Lopez completed the comeback in the doubles.',
  },
];

/** Brackets and quotation marks closed as often as opened, and paired dashes kept in pairs: a cut must not leave one open. */
export function closed(text: string): boolean {
  // Nor a pair of words without its second half: "This includes both the useful space." (", and the overhead" was cut).
  if (PAIRS.some(([first, second]) => first.test(text) && !second.test(text.slice(text.search(first))))) return false;
  const count = (pattern: RegExp) => (text.match(pattern) ?? []).length;
  return count(/\(/g) === count(/\)/g) && count(/\[/g) === count(/\]/g) && count(/“/g) === count(/”/g) && count(/"/g) % 2 === 0
    && count(/«/g) === count(/»/g);
}

/** Paired dashes stay paired: "the airline — the largest carrier in the world — said ..." is not cut after the first. */
const DASH = /\s[—–]\s/gu;
const dashesPaired = (sentence: string, cut: string) => (sentence.match(DASH)?.length ?? 0) % 2 === 1 || (cut.match(DASH)?.length ?? 0) % 2 === 0;
/**
 * An English cut keeps a verb: "Sondland’s appearance at Wednesday morning’s hearing." (cut at ", and his closeness to Trump,
 * is ...") is a subject alone. A verb here is a finite auxiliary or a word with a verb's ending, a rough test (a plural noun
 * passes it) that only keeps out a phrase with neither; a cut in another language is judged by the other rules only.
 */
const saysSomething = (text: string) => FINITE_VERB.test(` ${text} `) || /\b\p{Ll}{2,}(?:ed|es|s)\b/u.test(text);

/** Words that announce a second half: both ... and, either ... or, neither ... nor, between ... and, not only ... but. */
const PAIRS: Array<[RegExp, RegExp]> = [
  [/\bboth\b(?!\s+(of|are|were|is|have|had|can|will)\b)/iu, /\band\b/iu], [/\beither\b(?!\s+(of|way|side|case)\b)/iu, /\bor\b/iu],
  [/\bneither\b(?!\s+(of|way|side|case)\b)/iu, /\bnor\b/iu], [/\bbetween\b/iu, /\band\b/iu], [/\bnot only\b/iu, /\bbut\b/iu],
];

/** The names a sentence shares with its page's headline ("NASA", "Jupiter", "Europa"): a cut that may drop the story keeps each. */
function headlineNames(sentence: string, headline: string): string[] {
  const words = new Set(headline.toLowerCase().split(/[^\p{L}\p{N}.]+/u).map((w) => w.replace(/\.$/u, '')).filter((w) => w.length >= 2 && !FUNCTION_WORDS.has(w)));
  return [...sentence.matchAll(/(?<=^|[\s“"‘(])\p{Lu}[\p{L}\p{N}'’.-]*/gu)].map((m) => m[0].replace(/['’]s$|[.,]$/u, ''))
    .filter((name) => words.has(name.toLowerCase()) && !CALENDAR.test(name));
}

/**
 * A sentence that is a subordinate clause with no main clause after it (no comma): a fragment, what a cut must not leave
 * ("When President Trump's advisers suggested that Beijing resume buying $20 billion in farm products." without ", China balked").
 */
// (Only the words that open nothing but a clause: "Since 2010 the firm has opened 40 stores" is a sentence; a number's comma is no clause's.)
export const SUBORDINATE_ALONE = /^(?:When|If|Although|Though|Because|While|Unless|Whether)\b(?:[^,;:]|,(?=\d))*[.!?]["'”’)]*$/u;

/** The words a cut must keep: a sentence of fewer says too little to be a description ("Two hostages were released."). */
const MIN_WORDS = 6;

/** The cuts that must keep the headline's names. */
const GUARDED = new Set(CLAUSE_CUTS.filter((c) => c.keepsHeadline).map((c) => c.id));

/**
 * The longest form of `sentence` within [min, max] (display width) that the cuts allow, up to
 * three of them in a row (an appositive, then a leading clause, then the end), or undefined. `article`: the page is a story,
 * whose sentence's end may be its news (the cuts that may drop it need the headline's names).
 */
export function shortenSentence(sentence: string, min: number, max: number, lang: string | null = null, headline = '', article = true): { text: string; cuts: string[] } | undefined {
  const english = lang === null || /^en\b/iu.test(lang);
  const base = lang === null ? 'en' : lang.toLowerCase().split(/[-_]/u)[0]!;
  const cuts = CLAUSE_CUTS.filter((cut) => cut.langs === undefined || cut.langs.includes(base));
  const names = headlineNames(sentence, headline);
  let frontier = [{ text: sentence, cuts: [] as string[] }];
  const found: Array<{ text: string; cuts: string[] }> = [];
  const seen = new Set([sentence]);
  for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const state of frontier) {
      for (const cut of cuts) {
        // (Off an article, what a sentence adds after its main clause is no story of the day: "Northbound Coffee Roasters is a
        // family-run roaster in Duluth, Minnesota, buying green coffee directly from growers ..." says who they are before the comma.)
        if (cut.keepsHeadline && names.length === 0 && (article || cut.id !== 'trailing_story')) continue;
        for (const variant of cut.variants(state.text)) {
          const text = variant.trim();
          if (seen.has(text) || text.length >= state.text.length) continue;
          seen.add(text);
          const result = { text, cuts: [...state.cuts, cut.id] };
          const width = displayWidth(text);
          const keepsNames = !result.cuts.some((id) => GUARDED.has(id)) || names.every((name) => text.includes(name));
          if (width >= min && width <= max && keepsNames && closed(text) && text.split(/\s+/).length >= MIN_WORDS && dashesPaired(sentence, text) && (!english || (saysSomething(text) && !SUBORDINATE_ALONE.test(text)))) found.push(result);
          if (width >= min && seen.size < 200) next.push(result);
        }
      }
    }
    frontier = next;
  }
  return found.sort((a, b) => b.text.length - a.text.length || a.cuts.length - b.cuts.length)[0];
}
