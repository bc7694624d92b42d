import { LATIN_WORK_TITLE } from './mends.ts';
import { metadataRule } from '../../crawler/metadata-blocks.ts';
import { sentencesOf } from '../sentences.ts';
import { inLanguage } from '../text-language.ts';
import { openingWords, type OpeningWords } from './opening-words.ts';
import { staleTime, withoutRelativeTime } from './relative-time.ts';

/**
 * The rules each sentence of a description meets, as named data: SENTENCE_RULES (complete
 * prose, readable, in the page's language, about the page rather than about the article or
 * elsewhere) and OPENING_RULES (what may open a description), each with an id, the words a
 * refusal says, a sentence it refuses and one it lets through (sentence-rules.test.ts). The
 * expressions below are what the rules read; description-writer.ts drafts with them.
 */
export const REPLACEMENT = '\uFFFD';
/** Sentence ends in any script the segmenter knows ("." "!" "?" and the CJK full stops). */
export const SENTENCE_END = /[.!?。！？]["'”’)\]]*$/u;
export const ELLIPSIS = /(\.\.\.|…)["'”’)\]]*$/u;
/** Markup or code inside a sentence: not text a searcher should read. */
const CODE_LIKE = /[<>{}]|[;=]\S|\w\(\S*\)\s*¶|¶/u;
/** A generic type's name ("Vec<T>", "HashMap<K, V>", "Rc<RefCell<T>>"): how a reader names the type, not code. */
const GENERIC_NAME = /(?<![\p{L}\p{N}_])[\p{L}_][\p{L}\p{N}_:]*<[^<>{};\s][^<>{};]{0,40}>/gu;
function withoutGenericNames(text: string): string {
  let out = text;
  for (let previous = ''; previous !== out;) [previous, out] = [out, out.replace(GENERIC_NAME, 'T')];
  return out;
}
/** A work's title in angle brackets, as Korean and Chinese print them ("MBC <숨바꼭질>", "《红楼梦》"): no markup. */
const CJK_TITLE = /<([^<>]*[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][^<>]*)>/gu;
export const CJK_END = /[。！？]$/u;
/** Words (characters in Chinese, Japanese, Korean) from which a sentence ending in "!" is a statement, not a cry. */
const EXCLAIMED_STATEMENT_WORDS = 14;
const EXCLAIMED_STATEMENT_CHARS_CJK = 30;
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** "This" used as a pronoun, before a verb ("This leaves all your files ..."): it stands for what came before. */
// "This comes after police said ...": a news story's next paragraph, the event before it unnamed.
const THIS_AS_PRONOUN = /^this\s+(comes|came|follows|followed|leaves|makes|lets|allows|does|did|will|would|can|could|may|might|means|gives|keeps|also|causes|results|ensures|requires|has|had|should|must)\b/iu;
/** "This page ...", "This chapter ...": the page speaking of itself, wherever it stands. */
export const PAGE_ITSELF = new RegExp(`^((this|these)\\s+(${[
  'page', 'article', 'document', 'guide', 'tutorial', 'chapter', 'section', 'manual', 'book', 'handbook', 'post', 'site', 'website', 'faq', 'how-?to',
  'lesson', 'course', 'appendix', 'part', 'reference', 'overview', 'introduction', 'list', 'glossary', 'index', 'release', 'specification', 'standard',
  // What a reference page is about: on its own page, "this module" is the page's subject wherever it is named.
  'module', 'package', 'library', 'program', 'command', 'utility', 'tool', 'extension', 'plugin', 'application', 'service', 'project',
].join('|')})s?|(ce|cette|ces)\\s+(chapitre|page|section|document|guide|livre|manuel|module|article|annexe)s?|(dieses?|dieser)\\s+(kapitel|seite|abschnitt|dokument|handbuch|buch|modul|artikel|anhang)|(este|esta|estos|estas)\\s+(capítulo|página|sección|documento|guía|libro|manual|módulo|artículo|apéndice)s?)\\b`, 'iu');
/** "It is possible to ...", "Both X and Y ...": openings that name all they speak of. */
const SELF_CONTAINED = /^(it( is| was|'s|’s) (not |often |sometimes |usually |generally |always |also |very |quite )?(possible|impossible|important|recommended|necessary|useful|easy|hard|difficult|common|a good idea)\b|(both|either|neither)\b[^.]*\b(and|or|nor)\b)/iu;
/** Ordinal forms and cases named earlier: "The first form ...", "In the second case ...". */
const NAMED_EARLIER = /^((in|with|for)\s+)?(the|this|that)\s+(first|second|third|fourth|last|latter|former|other|same|above|next|previous)\s+(form|case|mode|way|variant|example|one|step|method|option|command|section)s?\b/iu;
/** "These functions ...", "Those values ...": a plural that points at things named around the sentence (not "These are ..."). */
const THESE_THING = /^(these|those)\s+(?!(is|are|was|were|has|have|had|can|could|will|would|may|might|must|should|do|does|did|include|includes|allow|let)\b)\p{L}/iu;
/** "This authentication method ...", "This option ...": a kind of thing, named by the heading the sentence stood under. */
const THIS_KIND = /^this\s+([\p{L}-]+\s+){0,2}(method|function|option|parameter|setting|feature|approach|technique|type|class|value|variable|field|mode|format|process|procedure|step|mechanism|behaviou?r|case|problem|issue|change|one|kind|sort|way|routine|operator|macro|flag|argument|property|attribute|method)s?\b/iu;
/**
 * A possessive that points ahead to the subject after its clause ("Their American dream shattered and savings wasted, nearly 150
 * Indians returned home broke."): the clause has no verb of its own, and a subject that is no pronoun follows it.
 */
const POINTS_AHEAD = /^(their|his|her|its)\s(?![^,]*\s(is|are|was|were|has|have|had|will|would|can|could)\s)[^,;:]{3,80},\s(?!(he|she|they|it|we|you|i|this|that|these|those)\b)[\p{L}\d]/iu;
/** A verb whose object is a pronoun ("Give them ...", "Run it ..."). */
const VERB_ON_PRONOUN = /^\p{L}+\s+(them|it|they|these|those)\b/iu;

/**
 * A sentence that sends the reader somewhere else: "the following", "in this example", "see
 * Section 19.5", "Table 9.42 summarizes", "Refer to ...", a parenthesised aside. Numbers and
 * versions next to above/below ("9.6 and below") are not pointers.
 */
const POINTS_ELSEWHERE = new RegExp([
  // Pointer phrases, not the bare words: "above 15 degrees" and "below 160 characters" point nowhere.
  '\\b(see|shown|listed|described|mentioned|discussed|explained|given|as|the example|the table|the list)\\s+(above|below)\\b',
  '\\b(above|below)[.:]?$',
  // "Following the 16-inch MacBook Pro, Apple plans ..." is "after": only "the following", "following:" and "following example" point.
  '\\b(the|these|those) following\\b(?!\\s+(day|days|week|weeks|month|months|year|years|morning|afternoon|evening|night|season|weekend|spring|summer|autumn|winter|decade)\\b)|\\bfollowing(?=\\s*:|\\s+(example|examples|table|list|section|sections|steps|code|command|commands|figure|chapter|page|pages|output|options)\\b)',
  '\\b(previous|preceding|aforementioned|ci-dessus|ci-dessous|suivant(e|s|es)?|oben|unten|folgende[nrs]?|seguintes?|siguientes?|seguenti|seguente|abaixo|acima)\\b',
  '\\b(in|from|see) (this|the|that) (example|listing|snippet|figure|diagram)\\b',
  '\\b(this|the) (example|listing|snippet|figure|diagram) (above|below|shows|illustrates|demonstrates)\\b',
  '\\b(section|chapter|table|figure|example|appendix|listing|kapitel|abschnitt|tableau)\\s+([A-Z]\\.?)?\\d+(\\.\\d+)*\\b',
  '^(refer to|see|for more (information|details)|for details|more information|voir|siehe)\\b',
  // What earlier pages of a book did: "the code we've written so far", "as always", "as we've seen".
  '\\b(so far|as always)\\b',
  // "While the former ..., the latter ...": a pair named before; not "X is the same as Y, with the latter's ..." (both in the sentence).
  // Not "Kurt Volker, the former special envoy": there "former" is an adjective.
  '^(\\S+\\s+){0,2}the (former|latter)(\'s|’s)?(?=[,.;:]|\\s+(is|are|was|were|has|have|had|can|could|will|would|should|must|may|might|does|do|did|enables|uses|takes|gives|returns|lets|makes|requires|provides|allows|means|works|runs|offers|supports|needs|keeps|adds)\\b)',
  '\\b(we|you)(\'ve|’ve| have) (already )?(seen|discussed|covered|learned|used|written|built|looked at|talked about|mentioned)\\b',
  // "In Appendix C, we discuss ...": a lettered appendix is as much a pointer as a numbered section.
  '\\b(appendix|annexe|anhang|apéndice)\\s+[A-Z]\\b',
  // "refer to the guide" sends the reader away; "X refers to Y" and "the term doesn't refer to Y" define X.
  '(\\bplease |\\b(you|readers?) (can|may|should|might|could|must) (also )?|[,;:(] ?)refer to\\b|\\b(see also|, see)\\b',
  // "... work on these CPU architectures": these/those inside a sentence point at a list or text around it (so do ces, diese, estos).
  // Not "those that best match", "files such as those uploaded by a user" (a relative clause says which).
  // Letter-aware boundaries: \\b would find "ces" inside "espèces".
  '^.+(?<![\\p{L}\\p{N}])(these|those|ces|ceux-ci|celles-ci|diese[nmrs]?|jene[nmrs]?|estos|estas|esos|esas|questi|queste|deze)(?![\\p{L}\\p{N}])(?!\\s+(that|who|which|whose|whom|where|of|qui|que|dont|die|der|das|cuyo)(?![\\p{L}\\p{N}])|\\s+\\p{L}+(ed|en)\\s+(by|in|with|for|from|on|at|under|through)\\b'
    // A time, not a text around it: "these days", "in queste ore" (in these hours), "ces jours-ci", "estos días".
    + '|\\s+(days|hours|weeks|months|years|times|ore|giorni|settimane|mesi|anni|tempi|jours|semaines|heures|mois|années|días|semanas|horas|meses|años|dias|Tagen|Wochen|Stunden|Monaten|Jahren)(?![\\p{L}\\p{N}]))',
  '^[(\\[]',
].join('|'), 'iu');
const VERSION_NEXT_TO_POINTER = /\d[\d.x]*\s+(and|or)\s+(above|below|later|earlier|newer|older)\b/giu;
/** A call to action tells a visitor already on the page what to do next; in a search result it says nothing of the page. */
const CALL_TO_ACTION = new RegExp(`^(${[
  'ask', 'read', 'call', 'click', 'tap', 'see', 'check', 'contact', 'visit', 'e-?mail', 'phone', 'sign up', 'subscribe', 'follow', 'share', 'download',
  'order', 'buy', 'shop', 'book', 'get in touch', 'find out', 'learn more', 'back to', 'go to', 'don\'t forget', 'remember to', 'note that', 'please',
  'let\'s', 'let’s', 'let us',
  // A newsletter's or a sponsor's greeting: "Start your day with the Opening Bell powered by ...".
  '(start|begin|kick off) your (day|morning|week|weekend)',
  'cliquez', 'contactez', 'lisez', 'voir', 'klicken sie', 'lesen sie', 'kontaktieren sie', 'haga clic', 'contáctenos', 'lea',
].join('|')})\\b`, 'iu');
/** Words of a heading that name nothing: a paragraph opening with "The" does not speak of a page titled "The ...". */
export const FUNCTION_WORDS = new Set((
  // (And the pronouns a headline speaks with: "Why you just can't trust ..." does not make "You shouldn't ..." the page's subject.)
  'the and for with from into onto this that these those your our their its how what why when where who which about over under using you they she him his her '
  + 'les des une pour avec dans sur der die das den dem des und für mit von los las una para con por del'
).split(' '));
/** The author's opinion ("I think learning a system is like ..."): not what the page is. */
const FIRST_PERSON = /^I\s+(think|believe|feel|guess|suppose|hope|personally)\b/u;
/**
 * The author speaking of themself in an English sentence ("nice for console lovers like me",
 * "in my experience"): an aside. A manual's "I provide some pointers ..." says what it offers, and stays.
 */
const AUTHOR_SELF = /(^|[\s(])(me|my|myself)(?=[\s,.;:!?)])/iu;
/**
 * Text for the document's editors rather than its readers, in the languages manuals are
 * written in: a marker of unfinished work ("FIXME: More content needed"), who wrote or
 * translated a section.
 */
const EDITORIAL = /\b(was|were|has been|have been) (contributed|written|translated|provided|kindly provided) by\b|^(contributed|written|translated) by\b/iu;
/**
 * A notice that the page itself is out of date ("So this page is outdated.", "... are not applicable
 * any more"): the whole paragraph is a notice about the page, not what the page is about.
 */
export const STALE_NOTICE = /\b(this|the) (old |present |current )?(document|page|section|chapter|manual|guide|article)( is| was| has become)? (now )?(outdated|obsolete|deprecated|out of date)\b|\b(no longer|not) (applicable|accurate|up to date)\b|\b(aren't|are not|isn't|is not) applicable any ?more\b/iu;
/** Written in capitals, as editors write them: "todo" is Spanish and Portuguese for "all". */
const UNFINISHED = /\b(FIXME|TODO|XXX|TBD)\b/u;
/**
 * An admonition's label ("Note: This does not apply ...", "Hinweis: ..."): what follows is an
 * aside, unless it speaks of the page itself ("Note: This document was written in 2004 as a
 * guide to ..."), which is then drafted without the label.
 */
export const ADMONITION_LABEL = /^(note|notes|nb|n\.b|hinweis|anmerkung|achtung|remarque|nota|attention|avertissement|warning|warnung|caution|important|tip|hint|astuce|consejo|aviso|advertencia|atenção|atencion|atención|attenzione|avviso|cuidado|importante)\s*:\s*/iu;
/** A web address in brackets ("TOML (Tom’s Obvious Minimal Language, https://toml.io)"): the sentence reads whole without it. */
export const ADDRESS_ASIDE = /\s*\([^()]*\b[a-z]{3,6}:\/\/[^()]*\)(?=[\s,.;:!?])/giu;
/** A web address after a colon at the end ("... the download section of our website: https://..."): the sentence ends before it. */
export const ADDRESS_AFTER_COLON = /:\s*[a-z]{3,6}:\/\/\S+?(?=[.!?]?$)/iu;
/** A shop's buttons and stock labels, in the languages shops are written in. */
const SHOP_INTERFACE = /\b(add to (cart|basket|bag)|ajouter au panier|in den warenkorb|añadir al carrito|aggiungi al carrello|adicionar ao carrinho|buy now|acheter maintenant|jetzt kaufen|out of stock|sold out|en rupture de stock|ausverkauft)\b/iu;
/** A product page's price or rating line ("$64.95", "2 499,00 € 2 299,00 €", "Rated 4.89 out of 5", "Noté 4,8 sur 5"). */
export const PRICE_OR_RATING = /[$£€]\s?\d|\d\s?[$£€]|\b(rated|noté|bewertet|valorado|valutato)\s+\d|\b\d([.,]\d+)?\s*(out of|sur|von|de|su)\s*5\b/iu;
/** A was/now pair of prices, side by side ("2 499,00 € 2 299,00 €", "$59.99 $49.99"): a product card's. */
const WAS_NOW_PRICES = /(?:[$£€]\s?\d{1,6}(?:[.,]\d{2})?|\d{1,3}(?:[\s.,]\d{3})*(?:[.,]\d{2})?\s?[€$£])\s+(?:[$£€]\s?\d{1,6}(?:[.,]\d{2})?|\d{1,3}(?:[\s.,]\d{3})*(?:[.,]\d{2})?\s?[€$£])(?!\s*(?:million|billion|bn|m)\b)/u;

/** Openings that speak to the reader or of the writer, in English: "If you're like me", "You are a couple of ...", "I am a writer". */
const HOOK = /^((if|when|whether|in case|once|as) you\b|we(?:'re|’re| are| will|'ll|’ll) (?:going to )?(?:talk|look|discuss|explore|dive|walk|share|show you)\b|in this (?:post|article|video|episode|piece),? (?:we|i)\b|you(\s+(are|were|have|probably|might|may|must|should|shouldn't|shouldn’t|can|can't|can’t|could|will|won't|won’t|would|don't|don’t|'ve|’ve|'re|’re|know|think|want|need)(?![\p{L}'’])|'re|’re|'ve|’ve)|have you\b|are you\b|do you\b|imagine\b|picture this\b|i\s+(am|was|have|had|think|love|recently|remember)\b|i'm\b|i’m\b|i've\b|i’ve\b)/iu;
/** A question ("Remember Section 3.1, ...?"), not one quoted ("... wonders, “What is it doing?”"): a description says what the page is. */
export const QUESTION = /[?？]$/u;
/**
 * "... is supported by NSS too.": in addition to something said before it, unless the sentence
 * names that itself ("Just like generic types can be bounded, lifetimes use bounds as well.");
 * after the draft's first sentence, what came before is in the draft.
 */
const ADDS_TO_BEFORE = /^(?!.*\b(like|as with|similar(ly)? to|just as)\b).*\s(too|as well)[.!?]$/iu;
/**
 * Words that build on the text before ("This is not a problem though ...", "To try to answer
 * this, we ran ..."): a draft cannot open with them.
 */
const LEANS_ON_BEFORE = /\s(though|anyway)[,.!?]|\b(answer|do|achieve|solve|fix|avoid|handle|accomplish) (this|that)[,.;]/iu;
/** "Israeli courts, however, have declared ...": a word set off by commas that answers the sentence before it. */
const ANSWERS_BEFORE = /^[^,;:]{2,60},\s(however|therefore|meanwhile|instead|nevertheless|nonetheless|though|in turn|too|then|also|in fact|by contrast|in contrast|for their part|for his part|for her part),\s/iu;
/** A greeting that opens a post ("Welcome to the new 16-inch MacBook Pro.", "Welcome to IGN's Daily Deals"): the page's voice, not its news. */
const GREETING = /^(welcome (to|back)\b|hello and welcome\b|good (morning|afternoon|evening)\b|hi (everyone|all|there|guys|folks)\b|hey (everyone|all|there|guys|folks)\b)/iu;
/**
 * A scene set before the news, in English ("It was a cold morning in Kabul when ...", "Picture the scene: ...", "Once upon a
 * time ..."): a feature's way in, not what the story is.
 */
const SCENE = /^(it was (a|an|the|just|late|early|still)\b[^.!?]{0,40}\b(morning|afternoon|evening|night|day|week|weekend|summer|winter|spring|autumn|fall)\b|it was (just )?(after|before|past) (\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|midnight|noon|dawn|dusk)|once upon a time\b|picture the scene\b)/iu;
/** One or two words in capitals and a colon at a sentence's start, then a capital: a speaker or a part of the page. */
const SPEAKER_LABEL = /^\p{Lu}[\p{L}.'’-]*(?:\s\p{Lu}[\p{L}.'’-]*)?:\s+[\p{Lu}\d“"]/u;
/** A time stamp's label ("JANIE HAR Nov. 20, 2019 Updated: Nov. 20, 2019 1:35 a.m."): a line about the article that the crawl kept. */
/** A publishing label and the date or time it labels ("Updated: Nov. 20, 2019"); not a sentence's "created and updated: both are set ..." */
const TIME_STAMP = /(?<!\p{L})(updated|published|posted|last modified|aktualisiert|mis à jour|actualizado|atualizado)\s*:\s[^!?\d]{0,24}\d/iu;
/** "libpq is also the engine of ...": after the lead's first paragraph, "also" adds to what came before; as the page's first words it adds to the page's title ("PostgreSQL also has native support for GSSAPI"). */
export const ALSO = /^(?!.*\bnot only\b)(\S+\s+){1,4}also\b/iu;
/** "In these cases, Rust has the panic! macro.": what the sentence before it described, so only after that sentence. */
const ABOUT_THE_SENTENCE_BEFORE = /^(in|for|with|under) (these|those|such) (cases|situations|circumstances|reasons|scenarios),\s+/iu;
/** A footnote marker glued into the text ("[17]"). */
// And a citation's number in brackets at a sentence's end ("... in the United States (1)."), not an age ("Anna Schmidt (34), a teacher").
export const FOOTNOTE = /\s?\[\d{1,3}\]|\s\(\d{1,2}\)(?=[.!?]\s|[.!?]$)/g;
/**
 * A cross-reference a sentence carries at its end or in brackets ("(see Section 26.3)", ";
 * see Table 8.3", ", shown in Table 8.9"): it points at the manual, not the page's subject,
 * and goes before the sentence is judged; the rest usually says what the page is.
 */
export const CROSS_REFERENCE = /\s*\((see|cf\.?|refer to)\s[^()]{1,80}\)|[,;]\s*(see|shown in|listed in|described in|summarized in|as shown in|as described in)\s+(section|chapter|table|figure|example|appendix)\s+[A-Z]?\.?\d+(\.\d+)*((,\s*|,?\s+and\s+)((section|chapter|table|figure|example|appendix)\s+)?[A-Z]?\.?\d+(\.\d+)*)*(?=[.!?]$)/giu;
/**
 * A sentence whose main clause is its pointer ("For information about new features in major release 15, see Section E.20."):
 * without "see Section E.20" it is a fragment, so it keeps its pointer and reads as one (points_elsewhere).
 */
const POINTER_SENTENCE = /^(?:for (?:more |further )?(?:information|details|an? (?:overview|explanation|description|list|example))|to (?:learn|find out|read) more)\b/iu;
const withoutCrossReference = (segment: string) => (POINTER_SENTENCE.test(segment) ? segment : segment.replace(CROSS_REFERENCE, ''));

/**
 * A note in brackets about the page, not the story: "(all times local)" on a live-updates page, "(video)", "(photos)",
 * "(updated)", "(sponsored)". A description carries no such tag. Not words in brackets that belong to the sentence
 * ("the video (shot in 2019) shows ...").
 */
export const PAGE_NOTE_ASIDE = /\s*\((?i:all times local|updated?(?: \d{1,2})?|sponsored|paid post|live updates|opinion|analysis)\)(?=[\s,.;:!?]|$)|\s*\(all times [A-Z]{2,4}\)(?=[\s,.;:!?]|$)/gu;
/** On an article only: a shop's "Stream every match (live) or on demand" means it. */
export const ARTICLE_NOTE_ASIDE = /\s*\((?i:video|videos|photos?|pictures|pics|gallery|watch|live|exclusive)\)(?=[\s,.;:!?]|$)/gu;
const withoutPageNotes = (text: string, article: boolean) => {
  const plain = text.replace(PAGE_NOTE_ASIDE, '');
  return (article ? plain.replace(ARTICLE_NOTE_ASIDE, '') : plain).trim();
};

/**
 * A space a CMS or a typist left before a comma or a full stop ("Senate President Bukola Saraki , read 16 letters", "its annual
 * recess ."): no language sets one there (French spaces only before ; : ! ?), and a draft is written without it.
 */
export const SPACE_BEFORE_STOP = /(?<=[\p{L}\p{N}"”’)])\s+(?=[,.](?:\s|$))/gu;

export interface Sentence {
  text: string;
  /** Usable in a description at all (complete prose, readable, long enough to say something, in the page's language). */
  usable: boolean;
  /** The id of the first SENTENCE_RULES entry it breaks (absent when usable). */
  rule?: string;
  undecodable: boolean;
  /** In another language than the page (asked when read). */
  readonly foreign: boolean;
}

/**
 * A sentence that starts in lower case is a fragment ("are used to create ...") unless its
 * first word is a name: one the page's heading or title carries ("dict_xsyn is ...",
 * "mod_sed est ..."), or one written like an identifier ("cProfile", "pg_dump", "ls2").
 */
function startsWithName(text: string, pageWords: ReadonlySet<string>): boolean {
  const word = /^[\p{L}\d_.-]+/u.exec(text)?.[0] ?? '';
  return pageWords.has(word.toLowerCase()) || /[_\d.]|\p{Ll}\p{Lu}/u.test(word);
}

/** What a sentence rule reads: the sentence (its admonition label gone), as written, where it stands, the page's language and name. */
interface SentenceFacts {
  text: string;
  labelled: string;
  index: number;
  /** The sentence after it in its paragraph, when there is one. */
  next?: string;
  lang: string | null;
  pageWords: ReadonlySet<string>;
  /** The block it is in says the page is out of date. */
  notice: boolean;
  /** The page is an article (a news story, a blog post): its opening may be a hook. */
  article: boolean;
  /** Whether it is in another language than the page (computed once, when asked). */
  foreign: () => boolean;
}

/** A sentence that opens with a quotation and ends with who said it: "“...,” says Jack Buser, director for games." */
const QUOTED_SPEECH = /^["“„«‘][^"”“«»]{10,}[,.!?]["”»’]\s+(?:[^.!?]{0,60}\s)?(?:says|said|told|tells|added|adds|explained|explains|wrote|writes|according to)\b[^"“”]*$/u;

/**
 * "These" before a word of the page's own name points at nothing elsewhere: "Each of these coffees comes from a single farm" on
 * the collection "Single origin coffees" speaks of the page's own products (read as "the coffees" for the pointer test).
 */
const withoutOwnDemonstrative = (text: string, pageWords: ReadonlySet<string>) =>
  text.replace(/(?<![\p{L}\p{N}])(these|those)(\s+)(\p{L}+)/giu, (m, _d: string, space: string, word: string) => (pageWords.has(word.toLowerCase()) ? `the${space}${word}` : m));

/** A rule a sentence of a description must meet, with a sentence it refuses and one it lets through (sentence-rules.test.ts). */
export interface SentenceRule {
  id: string;
  /** What it says of a sentence it refuses, in a refusal's words. */
  says: string;
  fires: (s: SentenceFacts) => boolean;
  example: string;
  counterExample: string;
  /** The sentence after the example and the counter-example, for a rule that reads it (SentenceFacts.next). */
  next?: string;
}

/** Each sentence of a draft: complete prose, readable, in the page's language, standing alone. The first rule that fires names the refusal. */
export const SENTENCE_RULES: SentenceRule[] = [
  { id: 'not_a_sentence', says: 'does not end as a sentence ends', fires: (s) => !SENTENCE_END.test(s.text) || ELLIPSIS.test(s.text),
    example: 'Read the rest of the story in our app', counterExample: 'The story is told in full in the second part.' },
  { id: 'undecodable', says: 'did not decode cleanly', fires: (s) => s.text.includes(REPLACEMENT),
    example: 'The caf\uFFFD opens at nine every morning.', counterExample: 'The café opens at nine every morning.' },
  { id: 'code', says: 'is code or markup', fires: (s) => CODE_LIKE.test(withoutGenericNames(s.text).replace(CJK_TITLE, '$1').replace(LATIN_WORK_TITLE, '$1')),
    example: 'Set x=1 in config.h before the loop runs.', counterExample: 'A Vec<T> holds any number of values of one type.' },
  { id: 'fragment', says: 'starts in the middle of a sentence', fires: (s) => /^\p{Ll}/u.test(s.text) && !startsWithName(s.text, s.pageWords),
    example: 'are used to create new files in the directory.', counterExample: 'pg_dump is a utility for backing up a database.' },
  { id: 'too_short', says: 'is too short to say what the page is',
    fires: (s) => (CJK.test(s.text) ? s.text.length < 12 : s.text.split(/\s+/).length < 4),
    example: 'It works well.', counterExample: 'The garden opens at nine every morning.' },
  { id: 'call_to_action', says: 'tells a visitor what to do next', fires: (s) => CALL_TO_ACTION.test(s.text),
    example: 'Click here to read the full report on the election.', counterExample: 'Clicking a link opens the report in a new tab.' },
  { id: 'opinion', says: 'is the author\'s opinion', fires: (s) => FIRST_PERSON.test(s.text),
    example: 'I think learning a system is like learning a language.', counterExample: 'I started the project in 2004 to teach myself Rust.' },
  { id: 'foreign', says: 'is in another language than the page', fires: (s) => s.foreign(),
    example: 'Это предложение написано на другом языке, чем сама страница.', counterExample: 'This is a sentence in the language of the page itself.' },
  { id: 'builds_on_before', says: 'builds on a sentence before it', fires: (s) => s.index === 0 && (ADDS_TO_BEFORE.test(s.text) || LEANS_ON_BEFORE.test(s.text)),
    example: 'This is not a problem though, because the trait can be implemented.', counterExample: 'Just like generic types can be bounded, lifetimes use bounds as well.' },
  { id: 'stale_notice', says: 'is a notice that the page is out of date', fires: (s) => s.notice,
    example: 'This page is outdated and nobody maintains it.', counterExample: 'The page lists every package in the archive.' },
  { id: 'editorial', says: 'is a note for the document\'s editors', fires: (s) => EDITORIAL.test(s.text) || UNFINISHED.test(s.text),
    example: 'This section was contributed by Francois Bayart.', counterExample: 'The section covers firewalls for bridges.' },
  { id: 'admonition', says: 'is an admonition (a note or a warning), an aside', fires: (s) => s.text !== s.labelled && !PAGE_ITSELF.test(s.text),
    example: 'Note: This does not apply to the kernels provided for Debian 3.1.', counterExample: 'Note: This document was written in 2004 as a guide to SQLite version 3.' },
  { id: 'question', says: 'is a question', fires: (s) => QUESTION.test(s.text),
    example: 'What does the new service offer its players?', counterExample: 'The new service offers games streamed to any screen.' },
  { id: 'author_aside', says: 'is the author speaking of themself', fires: (s) => /^en\b/iu.test(s.lang ?? 'en') && AUTHOR_SELF.test(s.text),
    example: 'It is a nice tool for console lovers like me.', counterExample: 'It is a nice tool for lovers of the console.' },
  { id: 'points_elsewhere', says: 'points elsewhere (another section, something above or below)',
    fires: (s) => POINTS_ELSEWHERE.test(withoutOwnDemonstrative((s.index > 0 ? s.text.replace(ABOUT_THE_SENTENCE_BEFORE, '') : s.text).replace(VERSION_NEXT_TO_POINTER, ''), s.pageWords)),
    example: 'The details of each setting are given in Section 19.5 of the manual.', counterExample: 'The settings are read when the server starts.' },
  // A quotation and who said it ("\"Scooter is frustrated ...,\" an insider told the outlet."): someone's words about the story, not
  // what the story is (read by an editor: a Google executive's promise drafted in place of the news that Stadia launched).
  { id: 'quoted_speech', says: 'is someone\'s words quoted, not what the page is', fires: (s) => QUOTED_SPEECH.test(s.text),
    example: '"Scooter is frustrated because his name is being dragged in the mud," an insider told the outlet.',
    counterExample: '"Dancing with the Stars" eliminated James Van Der Beek in a tight race against singer Ally Brooke.' },
  // (A statement a blog ends with "!" says what the page is all the same: "With notes of cinnamon, nutmeg, ginger, and clove, this
  // honey pear jam recipe will have you spreading Yuletide cheer in no time!", read by an editor as publishable, when it names what
  // the page's heading names. A short one is a cry, and one that names nothing of the page tells a moment of it: "Preparation work is
  // still ongoing and it’s 6PM, before the start of the performance!")
  { id: 'exclamation', says: 'is an exclamation', fires: (s) => /[!！]["'”’)\]]*$/u.test(s.text) && !/\b(Yahoo|Jeopardy|Wham|Oklahoma|Mamma Mia)!$/u.test(s.text)
    && (/[!！]{2}/u.test(s.text) || (CJK.test(s.text) ? s.text.length < EXCLAIMED_STATEMENT_CHARS_CJK : s.text.split(/\s+/u).length < EXCLAIMED_STATEMENT_WORDS)
      || !s.text.toLowerCase().split(/[^\p{L}\p{N}]+/u).some((w) => w.length >= 3 && s.pageWords.has(w))),
    example: 'Korea’s beauty was revealed at the Welcome Daehak-ro Festival!', counterExample: 'Korea’s beauty was revealed at the Welcome Daehak-ro Festival.' },
  // Not an article's: "Tickets sold out within minutes", "Revenue rose to $12.5 billion from $10.1 billion" are news.
  { id: 'shop_interface', says: 'is a shop\'s interface (prices, a cart button), not prose', fires: (s) => !s.article && (SHOP_INTERFACE.test(s.text) || WAS_NOW_PRICES.test(s.text)),
    example: 'Vélo électrique Voltera Urban 500 2 499,00 € 2 299,00 € Ajouter au panier.', counterExample: 'Revenue rose to $12.5 billion in the quarter from $10.1 billion a year earlier.' },
  { id: 'text_rule', says: 'is plain text laid out with dashes or equals signs, not prose', fires: (s) => /[-=_*~]{4,}/u.test(s.text),
    example: 'Supported platforms ------------------- MIPS32 and MIPS64 platforms are currently supported.', counterExample: 'MIPS32 and MIPS64 platforms are currently supported.' },
  // An article's opening that speaks to the reader or of its writer ("In case you are living in Delhi, ...", "I am a writer, ...") is a hook, not what the story is.
  { id: 'hook', says: 'opens an article by speaking to the reader or of its writer (a hook)', fires: (s) => s.article && s.index === 0 && HOOK.test(s.text),
    example: 'In case you are living in Delhi-NCR, chances are you have an app or two to find out the air quality.', counterExample: 'Residents of Delhi-NCR check the air quality index on an app or two.' },
  // "The Corrs' song "Breathless" probably doesn't refer to a duvet. However, it was this bedding that ...": a set-up the next
  // sentence turns against, not the news. Not a lead the next sentence merely qualifies ("... rose 3%. But analysts ...": no hedge).
  { id: 'foil', says: 'sets up what the next sentence turns against (a foil, not the news)',
    fires: (s) => s.article && s.index === 0 && s.next !== undefined && openingWords(s.lang).contrast.test(s.next) && openingWords(s.lang).hedge.test(s.text),
    example: 'The Corrs’ song “Breathless” probably doesn’t refer to a duvet.', next: 'However, it was this bedding that left a man with a serious lung condition.',
    counterExample: 'Shares of Apple rose 3% on Tuesday after the company reported record sales.' },
  // An article's "These findings ...", "Those talks ..." at its start: the story's subject is named above it (in the headline, a
  // caption); a description starting there names nothing. (On a manual's page "These functions provide ..." reads under its title.)
  { id: 'points_back_plural', says: 'opens an article with "These ..." or "Those ...", which point at something named before it',
    fires: (s) => s.article && s.index === 0 && !PAGE_ITSELF.test(s.text) && !openingWords(s.lang).now.test(s.text) && THESE_THING.test(s.text),
    example: 'These findings suggest the virus spread earlier than officials had thought.', counterExample: 'The findings suggest the virus spread earlier than officials had thought.' },
  { id: 'answers_before', says: 'answers the sentence before it (", however,")', fires: (s) => s.index === 0 && ANSWERS_BEFORE.test(s.text),
    example: 'Israeli courts, however, have declared most major settlements legal.', counterExample: 'Israeli courts have declared most major settlements legal, however small.' },
  { id: 'greeting', says: 'greets the reader (a post\'s voice, not its news)', fires: (s) => s.article && s.index === 0 && GREETING.test(s.text),
    example: 'Welcome to the new 16-inch MacBook Pro.', counterExample: 'Welcome packs were handed to every new student at the gate.' },
  // A footnote's mark at its start ("*Somente os 12 primeiros disputam o título ..."): a note under a table or a list, not the page's prose.
  { id: 'footnote_mark', says: 'is a footnote (it opens with a footnote\'s mark)', fires: (s) => /^[*†‡]/u.test(s.text),
    example: '*Only the first twelve drivers compete for the title in the last ten races.', counterExample: 'Only the first twelve drivers compete for the title in the last ten races.' },
  // A speaker's label ("Prof. Carlos: Estou aqui ao lado do Eugênio Tadeu ...", "Summary: ..."): an article's transcript or a section's
  // label, each one voice or one part of the page; its news is told in prose. (A dateline in capitals is a lead prefix, gone before.)
  { id: 'speaker_label', says: 'opens with a speaker\'s or a section\'s label (a transcript, a part of the page)', fires: (s) => s.article && s.index === 0 && SPEAKER_LABEL.test(s.text),
    example: 'Prof. Carlos: Estou aqui ao lado do Eugênio Tadeu, que já é de casa.', counterExample: 'Prof. Carlos visited the school to meet the parents of his new pupils.' },
  { id: 'scene', says: 'sets a scene before the news (a feature\'s way in)', fires: (s) => s.article && s.index === 0 && SCENE.test(s.text),
    example: 'It was a cold morning in Kabul when the first convoy left the base.', counterExample: 'It was the first time the convoy had left the base since the attack.' },
  { id: 'time_stamp', says: 'is a time stamp (when the article was published or updated)', fires: (s) => TIME_STAMP.test(s.text),
    example: 'JANIE HAR Nov. 20, 2019 Updated: Nov. 20, 2019 1:35 a.m.', counterExample: 'The list was updated on Monday with the names of the new members.' },
  // What relative-time.ts could not remove without breaking the sentence ("launches tomorrow", "today only", "Tuesday's game").
  { id: 'relative_time', says: 'says when relative to the day it was written ("tomorrow", "today only"), which a description outlives',
    fires: (s) => s.article && english(s.lang) && staleTime(s.text),
    example: 'Google Stadia launches tomorrow and early reviews are mixed.', counterExample: 'Google Stadia launched on November 19 and early reviews were mixed.' },
  { id: 'metadata_line', says: 'is about the article (a byline, a date, a promotion), not of it', fires: (s) => metadataRule(s.text) !== undefined,
    example: 'By Matthew Digby , Minh Do on Monday, November 18th, 2019 at 11:08 a.m.', counterExample: 'By Monday, November 18th, the river had risen two metres.' },
];
/** A page in English, or in no declared language (read as English, as elsewhere). */
const english = (lang: string | null) => lang === null || /^en\b/iu.test(lang);
/** An article's sentence without the words that say when relative to its day (relative-time.ts); other pages' as they are. */
const timeless = (text: string, lang: string | null, article: boolean, pageWords: ReadonlySet<string>) => (article && english(lang) ? withoutRelativeTime(text, pageWords).text : text);

export const SENTENCE_RULE_SAYS = new Map(SENTENCE_RULES.map((r) => [r.id, r.says]));

/** Every rule the first sentence of a text breaks, not only the first (for the rules' own tests). */
export function sentenceRulesOf(text: string, lang: string | null, article: boolean, pageWords: ReadonlySet<string> = new Set()): string[] {
  const segment = sentencesOf(text, lang)[0] ?? '';
  const labelled = timeless(withoutPageNotes(withoutCrossReference(segment).replace(ADDRESS_ASIDE, '').replace(ADDRESS_AFTER_COLON, '')
    .replace(SPACE_BEFORE_STOP, ''), article), lang, article, pageWords);
  const plain = labelled.replace(ADMONITION_LABEL, '');
  let foreign: boolean | undefined;
  const facts: SentenceFacts = { text: plain, labelled, index: 0, lang, pageWords, notice: STALE_NOTICE.test(text), article, foreign: () => (foreign ??= !inLanguage(plain, lang)) };
  return SENTENCE_RULES.filter((r) => r.fires(facts)).map((r) => r.id);
}

/** The sentences of a block, each with the first rule it breaks (sentencesOf, then the cross-references, addresses and labels it carries removed). */
/** A quotation closed with an opening mark (“I Cavalieri dello Zodiaco“, ...): the page's typo, which would leave every cut "open". */
const OPENING_MARK_AS_CLOSING = /“([^“”\n]{1,80}?\S)“(?=[\s,.;:!?)]|$)/gu;

export function readSentences(block: string, lang: string | null, pageWords: ReadonlySet<string>, article = false): Sentence[] {
  const notice = STALE_NOTICE.test(block);
  const segments = sentencesOf(block.replace(FOOTNOTE, ''), lang).map((segment) => withoutCrossReference(segment).replace(ADDRESS_ASIDE, '').replace(ADDRESS_AFTER_COLON, '')
    .replace(SPACE_BEFORE_STOP, '').replace(OPENING_MARK_AS_CLOSING, '“$1”')).map((segment) => withoutPageNotes(segment, article));
  return segments.map((segment, index, all) => {
    const labelled = timeless(segment, lang, article, pageWords);
    const text = labelled.replace(ADMONITION_LABEL, '');
    const next = all[index + 1];
    // Whether it is in the page's language is asked once (franc is the costliest of the rules), and only when a rule asks.
    let foreign: boolean | undefined;
    const facts: SentenceFacts = { text, labelled, index, ...(next === undefined ? {} : { next }), lang, pageWords, notice, article, foreign: () => (foreign ??= !inLanguage(text, lang)) };
    const rule = SENTENCE_RULES.find((r) => r.fires(facts))?.id;
    // (foreign is asked when read: franc is the costliest check, and most sentences never need its answer.)
    return { text, usable: rule === undefined, ...(rule ? { rule } : {}), undecodable: text.includes(REPLACEMENT), get foreign() { return facts.foreign(); } };
  });
}

/**
 * Whether a sentence can open a description: at the page's very start it may name the page
 * ("This module ..."), elsewhere nothing before it. Each rule that keeps a sentence from
 * opening one is named (OPENING_RULES), with a sentence it stops and one it lets open.
 */
/**
 * A step to follow ("Install ports for autoconf, automake, libtool and gmake.", "Preheat the oven to 180 degrees."): an instruction
 * on the page, not what the page is. The verb and its object both, so that a noun ("Run times vary", "Set in 1920s Paris, ...",
 * "Select members of the board ...") does not read as one.
 */
const INSTRUCTION = /^(?:(?:Install|Add|Remove|Delete|Enable|Disable|Configure|Compile|Create|Preheat|Stir|Whisk|Unzip|Extract|Uninstall|Upgrade|Restart|Reboot)\s+(?:the|a|an|your|this|these|those|it|them|all|each|every|one|some|any|\p{Ll}{3,}s)\b|(?:Run|Open|Type|Press|Select|Set|Copy|Download|Mix|Make sure|Ensure|Click|Go to|Navigate to|Log in|Sign in)\s+(?:the|a|an|your|this|these|those|it|them|that)\b)/u;

/** "Enter" and a name in capitals, then what it comes to do or nothing: a story's stage direction (English). */
const STAGE_ENTRANCE = /^Enter\s(?:the\s)?\p{Lu}[\p{L}.'’-]*(?:\s\p{Lu}[\p{L}.'’-]*){0,3}(?:\s*[,:.!—–]|\sto\s)/u;

export const OPENING_RULES: Array<{ id: string; says: string; fires: (sentence: string, atPageStart: boolean, words: OpeningWords) => boolean; example: string; counterExample: string }> = [
  { id: 'connective', says: 'opens with a word that ties it to the sentence before ("However", "For example")', fires: (t, _, w) => w.connective.test(t),
    example: 'However, the server must be restarted first.', counterExample: 'The server must be restarted first.' },
  // (Not at the page's very start: a command's reference opens with what it does, in the imperative: "Create a new commit ...".)
  { id: 'instruction', says: 'is a step to follow ("Install ...", "Run the ..."), not what the page is', fires: (t, start) => !start && INSTRUCTION.test(t),
    example: 'Install ports for autoconf, automake, libtool and gmake.', counterExample: 'Installing Valgrind from ports needs autoconf, automake, libtool and gmake.' },
  // "The first step is to install Rust": at a page's start, the first of what the page itself goes through.
  { id: 'named_earlier', says: 'speaks of a form or case named before it ("The second form ...")', fires: (t, start) => NAMED_EARLIER.test(t) && !(start && /^the\s+first\b/iu.test(t)),
    example: 'The second form of the command takes a list of files.', counterExample: 'The command takes a list of files in its second form.' },
  { id: 'pronoun_object', says: 'acts on something named before it ("Give them ...", "This leaves ...")', fires: (t) => VERB_ON_PRONOUN.test(t) || THIS_AS_PRONOUN.test(t),
    example: 'Give them a name that says what they hold.', counterExample: 'Give each variable a name that says what it holds.' },
  // (Not a possessive that points ahead to the subject after its clause: POINTS_AHEAD.)
  { id: 'pronoun', says: 'opens with a pronoun that stands for something named before it', fires: (t, start, w) => !SELF_CONTAINED.test(t) && !PAGE_ITSELF.test(t) && !POINTS_AHEAD.test(t)
      && !(start && /^(it is|it's|es ist|c'est|c’est|il est|es un|es una)\b/iu.test(t)) && (w.pronoun.test(t) || /^(both|either|neither)\b/iu.test(t)),
    example: 'They were released on Tuesday in a prisoner swap.', counterExample: 'It is possible to run the server without a configuration file.' },
  // Even at a page's start, "These functions ...", "This authentication method ..." point at what the page's heading or the text
  // around names; in a search result, read by the owner on 20 drafts, they mean nothing. "This module", "This chapter" name the
  // page itself (PAGE_ITSELF), and "This wall-mounted reel" on a product's page names the product: they open.
  { id: 'names_nothing', says: 'opens with "This method ..." that names nothing out of the page\'s context',
    fires: (t, _, w) => !PAGE_ITSELF.test(t) && !w.now.test(t) && THIS_KIND.test(t),
    example: 'This authentication method operates similarly to password except that it uses LDAP to verify the password.',
    counterExample: 'This wall-mounted reel rewinds 30 m of hose automatically with a gentle tug.' },
  // A story's turn, as a stage direction brings in a player: "Enter South Dakota to throw down the gauntlet." follows an aside
  // about New Jersey's slogan, and says nothing standing alone (read by an editor as wrong). Not "Enter your email ...", an instruction.
  { id: 'stage_entrance', says: 'brings its subject in after what came before ("Enter South Dakota ...")', fires: (t) => STAGE_ENTRANCE.test(t),
    example: 'Enter South Dakota to throw down the gauntlet.', counterExample: 'Enter your email address to get the newsletter every Friday.' },
  // At the very start of a page a demonstrative names the page's own subject ("This module provides ...", "These routines allow ...").
  // "This year ..." names the time the page is written in, not something before it.
  { id: 'refers_back', says: 'opens with a word that points back ("This", "These", "The same")',
    fires: (t, start, w) => !start && !SELF_CONTAINED.test(t) && !PAGE_ITSELF.test(t) && !POINTS_AHEAD.test(t) && !w.now.test(t) && w.refersBack.test(t),
    example: 'These settings are read when the server starts.', counterExample: 'This year the fair is held in Berlin, for the first time since 2019.' },
];
export const OPENING_RULE_SAYS = new Map(OPENING_RULES.map((r) => [r.id, r.says]));

/** The first opening rule a sentence breaks, or undefined when it can open a description. */
export const openingRule = (sentence: string, atPageStart: boolean, lang: string | null = null) => {
  const words = openingWords(lang);
  return OPENING_RULES.find((r) => r.fires(sentence, atPageStart, words))?.id;
};
export const canOpen = (sentence: string, atPageStart: boolean, lang: string | null = null) => openingRule(sentence, atPageStart, lang) === undefined;
