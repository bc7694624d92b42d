import { DESCRIPTION_MAX, DESCRIPTION_MIN } from '../checks/page-checks.ts';
import { displayWidth } from '../../lib/strings.ts';
import type { BlockKind } from '../crawler/main-content.ts';
import type { PageContent } from './page-content.ts';
import { sentencesOf } from './sentences.ts';
import { significantWords } from '../../lib/query-words.ts';
import { metadataRule } from '../crawler/metadata-blocks.ts';
import { languageName } from './text-language.ts';
import { withoutLeadPrefix } from './drafting/lead-prefixes.ts';
import { shortenSentence, SUBORDINATE_ALONE } from './drafting/shorten.ts';
import { withoutCaptions } from './drafting/captions.ts';
import { headlineText, namesHeadline, retellsHeadline, speaksOfHeadline, tellsMoreThan } from './drafting/names-headline.ts';
import {
  ALSO, canOpen, CJK_END, ELLIPSIS, FUNCTION_WORDS, OPENING_RULE_SAYS, openingRule, PAGE_ITSELF, PRICE_OR_RATING, QUESTION, readSentences,
  REPLACEMENT, SENTENCE_END, SENTENCE_RULE_SAYS, type Sentence,
} from './drafting/sentence-rules.ts';

/**
 * The meta description writer: whole sentences of the page's own lead, as an editor writes
 * one (the sentence and opening rules it applies are in drafting/sentence-rules.ts). Read on real documentation sites (the Python, PostgreSQL and Apache manuals, a book
 * in 26 languages), drafts failed in a few recurring ways; each rule below answers one:
 *
 * - Only prose speaks for the page. A list item, a definition (an API entry's text), a table
 *   cell or a quotation describes one thing on the page, not the page.
 * - The lead first. The section right after the page's main heading is where a page says
 *   what it is; a later section is used only when the lead has no usable sentence at all,
 *   and then only its own prose (never a sentence picked from further down).
 * - A draft starts at the start of a paragraph. A sentence in the middle of one leans on
 *   the sentences before it ("For example, ...", "The other three levels ...").
 * - Every sentence of the draft stands alone: none opens by pointing back ("However",
 *   "These commands"), none points elsewhere ("see Section 19.5", "the following", "in this
 *   example"), none is code or a fragment.
 * - A lead sentence over the limit is trimmed at a clause boundary (" — ", "; ", ", such
 *   as"), not skipped for a lesser sentence.
 * - Refuse rather than guess, and say truly why.
 */

/** A draft (and where on the page it came from, when not the lead), or the true reason none meets the rules (recorded as the refusal). */
/**
 * A draft, or a refusal with the id of the rule that decided it; a refusal for length alone carries the sentence
 * (`tooLong`), which a configured language model may shorten (planners/meta.ts): extractive cuts found no boundary.
 */
export type Draft = { text: string; from?: string } | { reason: string; rule?: string; tooLong?: string };

// What other modules read from here, kept where they always were.
export { ELLIPSIS, REPLACEMENT, SENTENCE_END };

/** A description should say enough: with what follows the first sentence, aim for this width. */
const TARGET = 110;
/** The shortest cut of a long opening sentence that another sentence may complete ("The Felco 2 is the classic Swiss bypass pruner."). */
const SHORT_CUT_MIN = 30;

/** Sections headed by a question that make a page a list of questions and answers (an FAQ). */
const FAQ_QUESTIONS = 3;

/**
 * The page's prose blocks by section: the lead (after the main heading) first, then each later
 * section; on an FAQ, not its answers: each is one thing the page covers ("Make sure your DEBUG
 * setting is set to True."), not what the page is. A howto's one "What is curses?" defines its topic.
 */
export function proseBySection(content: Pick<PageContent, 'paragraphs' | 'order' | 'shared'> & Partial<Pick<PageContent, 'headings'>>): string[][] {
  const { paragraphs, order } = content;
  const headings = content.headings ?? [];
  let h = 0;
  // Boilerplate other pages repeat says nothing of this page in particular.
  const shared = new Set(content.shared ?? []);
  // Content stored before block kinds were kept: every block is one section of prose.
  if (order === undefined) return [paragraphs.filter((_, i) => !shared.has(i))];
  const sections: Array<{ heading: string; text?: string; blocks: Array<{ text: string; kind: BlockKind }> }> = [{ heading: '', blocks: [] }];
  let b = 0;
  for (const item of order) {
    if (item >= '0' && item <= '6') sections.push({ heading: item, blocks: [], ...(item === '0' ? {} : { text: headings[h++]?.text }) });
    else if (b < paragraphs.length) {
      const index = b++;
      sections.at(-1)!.blocks.push({ text: paragraphs[index]!, kind: (shared.has(index) ? 'shared' : item) as BlockKind });
    }
  }
  // The main heading: the first h1. Without one, a page's text before its first heading is its lead
  // (an intro above its sections), else the first heading kept leads (a generated manual's h2 title).
  let main = sections.findIndex((s) => s.heading === '1');
  if (main === -1) main = sections[0]!.blocks.some((b) => b.kind === 'p') ? 0 : sections.findIndex((s) => s.heading >= '1');
  const from = main === -1 ? 0 : main;
  const own = sections.slice(from);
  const faq = own.filter((s, i) => i > 0 && QUESTION.test(s.text ?? '')).length >= FAQ_QUESTIONS;
  // On an FAQ, a question goes with the sections under it (deeper headings, up to the next at its level or above).
  let answerOf = '';
  const answers = own.map((s, i) => {
    if (i === 0 || !faq) return false;
    if (answerOf !== '' && s.heading > answerOf) return true;
    answerOf = QUESTION.test(s.text ?? '') ? s.heading : '';
    return answerOf !== '';
  });
  return own
    .filter((_, i) => !answers[i])
    .map((s) => s.blocks.filter((block) => block.kind === 'p').map((block) => block.text)).filter((s) => s.length > 0);
}

/**
 * A sentence cut at its last strong clause boundary that leaves it within [min, max]: "X
 * provides Y — a, b and c." -> "X provides Y."; ", and this guide sets out ..." (a new
 * subject after the comma) ends a clause too, a list's ", and c" does not.
 */
function trimAtClause(sentence: string, min: number, max: number): string | undefined {
  // (A clause of its own after ", and" has its subject: a pronoun, a determiner's noun, or a quantifier's, "..., and most arrive
  // within 2–5 business days".)
  // Not a colon: what follows it is what the sentence is about ("X has several goals: ..." would be a teaser).
  const boundaries = [...sentence.matchAll(/\s[—–]\s|\s-\s|[;؛]\s|,\s(?=(such as|which|including|where|that is|notably|although|though|whereas)\b)|,\s(?=(and|but|so|while|whereas)\s(the|this|that|these|it|we|they|you|he|she|there|its|our|their|most|many|some|several|all|each|both)\b)/gu)].map((m) => m.index);
  for (const at of boundaries.reverse()) {
    const text = `${sentence.slice(0, at).replace(/[\s,;:]+$/u, '')}.`;
    const width = displayWidth(text);
    if (width >= min && width <= max && balanced(text)) return text;
  }
  return undefined;
}

/** A sentence over the limit made to fit at its clause boundaries (drafting/shorten.ts), or undefined. */
export function shorten(sentence: string, lang: string | null = null, headline = '', article = true): string | undefined {
  const text = shortenSentence(sentence, DESCRIPTION_MIN, DESCRIPTION_MAX, lang, headline, article)?.text;
  // What is left of a long block's first sentence may be a line about the article ("05/10/2018 - Publicado por: ..."),
  // or open as no description may ("But it is a complex subject ..."): the cut is then no draft.
  return text === undefined || metadataRule(text) !== undefined || openingRule(text, true, lang) !== undefined ? undefined : text;
}

/** Brackets closed as often as opened: a cut must not leave one open. */
export const balanced = (text: string) => (text.match(/\(/g) ?? []).length === (text.match(/\)/g) ?? []).length
  && (text.match(/\[/g) ?? []).length === (text.match(/\]/g) ?? []).length;

export const join = (text: string, next: string) => (text === '' ? next : CJK_END.test(text) ? `${text}${next}` : `${text} ${next}`);

/** An article's description is drawn from its first paragraphs only (read on 142 news drafts: from further down, it was an aside). */
const ARTICLE_LEAD_PARAGRAPHS = 2;
/** A block this long is a paragraph of the story; shorter, a line about it (a time stamp, a credit, a kicker). */
const PARAGRAPH_CHARS = 120;

/** A list's lead-in made a sentence: at least this many words, not ending on a word that needs what follows ("by:", "are:", "ways:"). */
const LIST_INTRO_WORDS = 8;
const LIST_INTRO_ENDS = new Set(('by as to of for with from in on at into are is be include includes including following below these those this that '
  + 'goals ways steps things reasons types kinds options features parts examples tasks rules cases items follows such like').split(' '));

/** How many of the lead's first blocks may open with a dateline. */
const LEAD_BLOCKS = 6;

/** The page's main heading: the first h1, else the first heading (a generated manual's h2). */
const mainHeading = (content: PageContent) => content.h1 || (content.headings[0]?.text ?? '');

/** The words of the page's own name (its main heading, its title without the site's suffix): a sentence may open with one in lower case ("pg_dump is ..."). */
export function pageWordsOf(content: PageContent): ReadonlySet<string> {
  // The title's first part: its site suffix ("- The Rust Programming Language") names the site, not the page.
  const ownTitle = content.title.split(/\s[|–—-]\s/u)[0] ?? '';
  return new Set(`${mainHeading(content)} ${ownTitle}`.toLowerCase().split(/[\s,:;()—–]+/u).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w)));
}

/**
 * A meta description from the page's lead: one or more whole sentences, from the start of
 * a prose paragraph on, 50-160 characters (wide characters twice), not already used on the
 * site. Otherwise the reason none can be written.
 */
export function draftFromLead(content: PageContent, taken: ReadonlySet<string>): Draft {
  if (content.paragraphs.length === 0) return { rule: 'no_own_text', reason: 'the crawl kept no text of the page\'s own (only the site\'s template) to draft a description from' };
  // A page with no h1 whose first heading names something its title does not: a listing's first entry ("Introducing Cohort
  // Explorer" on "Blog – Fernhollow Analytics"), whose excerpt would describe that entry, not the page.
  const entry = entryAsHeading(content);
  if (entry) return { rule: 'entry_as_heading', reason: `the page has no main heading of its own: its first heading ("${quoted(entry)}") names something its title does not, as a listing's first entry does; a description drawn from what follows would describe that entry, not the page` };
  const pageName = (mainHeading(content).split(/\s+[—–-]\s+|:\s|\(/u)[0] ?? '').trim().toLowerCase();
  const pageWords = pageWordsOf(content);
  // A photo's caption above the story (a credit line under it says so) describes the picture, not the story.
  const sections = proseBySection(content).map(withoutCaptions).filter((blocks) => blocks.length > 0);
  // "WASHINGTON (AP) — Ambassador Gordon Sondland ...": the lead's sentence starts after its dateline.
  // (Among the lead's first blocks: a credit or a kicker may stand before it.) The forms that name a subject elsewhere ("JSON: A
  // lightweight data-interchange format ...", "Django — The web framework ...") only on an article's.
  // An article whose first section is only lines about it (a byline, "Analysis by Chris Cillizza, CNN Editor-at-large") has its
  // lead after them, dateline and all: "(CNN)President Donald Trump ...".
  const leads = content.article && sections.length > 1 && sections[0]!.every((block) => block.length < PARAGRAPH_CHARS) ? 2 : 1;
  for (const section of sections.slice(0, leads)) section.slice(0, LEAD_BLOCKS).forEach((block, i) => (section[i] = withoutLeadPrefix(block, content.article === true).text));
  // A lead that introduces a list ("http is a package that collects several modules for working with the HyperText Transfer
  // Protocol:") says what the page is once its colon is a full stop; one that cannot stand without its list ("you can access
  // it by:") leaves nothing to draft from: what follows the list is a detail or an aside.
  const leadIn = sections[0]?.[0];
  // (A lead of one sentence only: in a longer one the sentences before the lead-in say what the page is.)
  if (leadIn !== undefined && /:\s*$/u.test(leadIn) && sentencesOf(leadIn, content.lang).length === 1) {
    const whole = leadIn.replace(/\s*:\s*$/u, '.');
    const last = /(\p{L}+)\.$/u.exec(whole)?.[1]?.toLowerCase() ?? '';
    if (whole.split(/\s+/).length >= LIST_INTRO_WORDS && !LIST_INTRO_ENDS.has(last)) sections[0]![0] = whole;
    else return { rule: 'list_intro_lead', reason: `the page's lead introduces a list ("${quoted(leadIn)}") and says nothing without it; what follows the list is a detail, not what the page is` };
  }
  if (sections.length === 0) {
    const faq = proseBySection({ ...content, headings: [] }).length > 0;
    return { rule: faq ? 'faq_without_lead' : 'no_prose', reason: faq
      ? 'a page of questions and answers with no lead of its own: each answer is one thing it covers, not what the page is (write one naming its questions)'
      : 'the page has no prose paragraph of its own (only lists, definitions, tables or code) to draft a description from' };
  }
  let undecodable = false;
  // Every sentence read, for the refusal that the page is mostly in another language (asked only when nothing was drafted).
  const readAll: Sentence[] = [];
  let reason: string | undefined;
  let rule: string | undefined;
  let tooLong: string | undefined;
  for (const [s, blocks] of sections.entries()) {
    // Paragraphs are read (segmented, checked) as the draft reaches them: most pages are done after their first.
    const cache: Sentence[][] = [];
    const read = (b: number): Sentence[] => {
      if (cache[b] === undefined) {
        const list = readSentences(blocks[b]!, content.lang, pageWords, content.article === true);
        undecodable ||= list.some((x) => x.undecodable);
        readAll.push(...list);
        cache[b] = list;
      }
      return cache[b];
    };
    // The page's start: the lead's first paragraph with a usable sentence (one in another language or a fragment before it does not count).
    let firstUsable = -1;
    // (Nor a newsletter's or a sponsor's box, which opens with a call to action and has another: "Start your day with the
    // Opening Bell ... Sign up for the free daily newsletter.": the story starts after it.)
    const promo = (b: number) => read(b)[0]?.rule === 'call_to_action' && read(b).filter((x) => x.rule === 'call_to_action').length >= 2;
    // (Nor a greeting's: "Welcome! We’re so glad you’ve chosen BrightSmile. 💙": what the page is follows it.)
    const greeting = (b: number) => GREETING.test(read(b)[0]?.text ?? '');
    for (let b = 0; b < blocks.length && firstUsable === -1; b++) if (read(b).some((x) => x.usable) && !promo(b) && !greeting(b)) firstUsable = b;
    // "also" only in the lead's very first paragraph (a paragraph skipped before it is what it adds to).
    const opens = (b: number) => read(b)[0]?.usable === true && canOpen(read(b)[0]!.text, s === 0 && b === firstUsable, content.lang)
      && !(ALSO.test(read(b)[0]!.text) && !(s === 0 && b === 0));
    // The sentence a paragraph's draft starts at: its first, or in an article's opening paragraph, past a hook ("When you
    // live in a state as beautiful as Colorado ...", a question to the reader), the next sentence when it names what the
    // headline is about (the news the hook leads to); -1 when neither can open a draft.
    const startOf = (b: number): number => {
      const list = read(b);
      const articleLead = content.article === true && s === 0 && b === firstUsable;
      // An article's opening sentence that speaks of nothing its headline names (a scene, background) yields to the next one that
      // names what the headline names and can open a draft ("The authorities' repression has only fuelled the crisis." under
      // "The Guardian view on Hong Kong" -> "Hong Kong is burning."). (A word in common is not enough to start there: "We'd buy a
      // game ..." goes on with the hook about gaming.)
      if (opens(b) && articleLead && !speaksOfHeadline(list[0]!.text, content)) {
        const j = list.findIndex((x, k) => k > 0 && x.usable && canOpen(x.text, false, content.lang) && !ALSO.test(x.text) && namesHeadline(x.text, content));
        return j > 0 ? j : 0;
      }
      // An article's opening that sets a scene for its headline's story, told a sentence or two later: the draft starts there
      // (headline words said, tellsMoreThan). (Not past a sentence that cannot open one: "For example, ..." leans on the scene.)
      if (opens(b) && articleLead) {
        const j = list.findIndex((x, k) => k > 0 && k <= RETOLD_WITHIN && x.usable && canOpen(x.text, false, content.lang) && !ALSO.test(x.text)
          && tellsMoreThan(x.text, list[0]!.text, content)
          // (One that makes a description, whole or shortened: else the opening is still drafted from.)
          && (displayWidth(x.text) <= DESCRIPTION_MAX || shorten(x.text, content.lang, headlineText(content), true) !== undefined));
        if (j > 0) return j;
      }
      if (opens(b)) return 0;
      // An opening that names nothing out of context ("This authentication method operates similarly to password ...") yields to
      // the next sentence of its paragraph when that one stands alone ("LDAP is used only to validate the user name/password pairs.").
      if (list[0]?.usable === true && openingRule(list[0].text, true, content.lang) === 'names_nothing') {
        const next = list[1];
        if (next?.usable === true && canOpen(next.text, false, content.lang) && !ALSO.test(next.text) && (!content.article || namesHeadline(next.text, content))) return 1;
      }
      if (!articleLead) return -1;
      let j = 0;
      while (j < list.length && HOOK_RULES.has(list[j]!.rule ?? '')) j++;
      const next = list[j];
      return j > 0 && next?.usable === true && canOpen(next.text, false, content.lang) && !ALSO.test(next.text) && namesHeadline(next.text, content) ? j : -1;
    };
    /**
     * A long opening sentence cut short of the minimum at a safe clause boundary, and the sentence after it (in its paragraph, or
     * opening the next): "The Felco 2 is the classic Swiss bypass pruner." + "Every part of the Felco 2 can be replaced, from the
     * blade to the spring, so one pair can last a lifetime." Only when the next sentence stands on its own and both fit whole.
     */
    const shortenedThenNext = (b: number, start: number): string | undefined => {
      // (Past a line or two that are no prose between them: a product's "23 in stock", "SKU: FEL-2".)
      let k = b + 1;
      while (k < blocks.length && k <= b + 2 && blocks[k]!.length < PARAGRAPH_CHARS && !read(k).some((x) => x.usable)) k++;
      // (On a product's page whose summary ends its section, the description's first sentence after it, when it names the
      // product: "Every part of the Felco 2 can be replaced, ..." under a tab of its own.)
      const nextSection = !content.article && k === blocks.length ? sections[s + 1]?.[0] : undefined;
      const opening = nextSection === undefined ? undefined : readSentences(nextSection, content.lang, pageWords, false)[0];
      const namesProduct = opening !== undefined && opening.text.toLowerCase().split(/[^\p{L}\p{N}]+/u).some((w) => pageWords.has(w));
      const next = read(b)[start + 1] ?? (k < blocks.length && opens(k) ? read(k)[0] : namesProduct ? opening : undefined);
      if (!next?.usable || !canOpen(next.text, false, content.lang) || ALSO.test(next.text)) return undefined;
      const room = DESCRIPTION_MAX - displayWidth(next.text) - 1;
      if (room < SHORT_CUT_MIN) return undefined;
      const cut = shortenSentence(read(b)[start]!.text, SHORT_CUT_MIN, Math.min(room, DESCRIPTION_MIN - 1), content.lang, headlineText(content), content.article === true)?.text;
      const joined = cut === undefined || metadataRule(cut) !== undefined ? undefined : join(cut, next.text);
      return joined !== undefined && displayWidth(joined) >= DESCRIPTION_MIN ? joined : undefined;
    };
    // The first section with usable prose is the one drafted from (a name line or a fragment alone does not make it one).
    if (firstUsable === -1) continue;
    // An article's description comes from its first paragraphs: further down, a usable sentence is an aside or a quote, not the story.
    // (Paragraphs of a sentence or more: a dateline, a time stamp or a credit before them is no paragraph of the story.)
    const paragraphsBefore = blocks.slice(0, Math.max(0, firstUsable)).filter((block) => block.length >= PARAGRAPH_CHARS).length;
    if (content.article && s === 0 && paragraphsBefore >= ARTICLE_LEAD_PARAGRAPHS) {
      return { rule: 'no_usable_lead', reason: `the article's first ${ARTICLE_LEAD_PARAGRAPHS} paragraphs have no sentence that can open a description; a sentence further down tells a detail of the story, not the story` };
    }
    // Past the lead, only from a section's opening paragraph: further in, a section's prose is a detail of it ("Each line starts with an IP address").
    // (A product's rating and price lines before it are no paragraphs: "Rated 4.89 out of 5", "$64.95".)
    const before = blocks.slice(0, firstUsable);
    const productLines = before.every((block) => block.length < PARAGRAPH_CHARS) && before.some((block) => PRICE_OR_RATING.test(block));
    if (s > 0 && firstUsable > 0 && !productLines) return { rule: 'no_usable_lead', reason: `the page's lead has no usable sentence, and the first section with prose opens with none either (its first usable one is in paragraph ${firstUsable + 1})` };
    // The section's opening paragraph; a later one only when it speaks of the page itself ("This
    // tutorial explains ...", "pg_dump is ..."): drafted from any later paragraph, descriptions read
    // on real sites were a detail rather than the page's subject nine times out of ten.
    const aboutThePage = (b: number) => {
      const opening = read(b)[0]!.text;
      const first = /^[\p{L}\d_.-]+/u.exec(opening)?.[0]?.toLowerCase() ?? '';
      return PAGE_ITSELF.test(opening) || (pageName.length >= 3 && opening.toLowerCase().startsWith(pageName)) || (first.length >= 3 && pageWords.has(first) && /[_\d.]|\p{Lu}/u.test(opening.slice(0, first.length)));
    };
    /**
     * An article's second paragraph, when its first opens with a hook, a scene or a foil (no sentence of it can open a draft,
     * or what it says names nothing of the headline or is too short): the paragraph that says what the story is (the "nut
     * graf": "An international team of scientists has created the most detailed large-scale model of the universe to date"
     * after "The formation of galaxies is a complex dance ..."), when its opening names what the headline names.
     */
    // (Not a sentence that is a subordinate clause alone, nor the writer's own voice, "As I write this review, ...": such a
    // paragraph goes on with the scene. A cut that would leave a clause alone is refused in shortenSentence.)
    const nutGraf = (b: number, start: number) => content.article === true && s === 0 && b === firstUsable + 1
      && (startOf(firstUsable) === -1 || rule === 'off_headline' || rule === 'lead_too_short' || tellsMoreThan(read(b)[start]!.text, read(firstUsable).slice(startOf(firstUsable)).map((x) => x.text).join(' '), content))
      && (namesHeadline(read(b)[start]!.text, content) || retellsHeadline(read(b)[start]!.text, content)) && !SUBORDINATE_ALONE.test(read(b)[start]!.text) && !WRITER_VOICE.test(read(b)[start]!.text);
    let longBefore = paragraphsBefore; // paragraphs of a sentence or more before block b
    for (let b = firstUsable; b < blocks.length; b++) {
      // An article's later paragraph that names its subject is a detail of the story ("Alibaba shares closed in New York on
      // Tuesday at $185.25", read on 124 news drafts), past its first two paragraphs.
      const laterInArticle = content.article === true && longBefore >= ARTICLE_LEAD_PARAGRAPHS;
      if (blocks[b]!.length >= PARAGRAPH_CHARS) longBefore += 1;
      const start = startOf(b);
      // (Nor past an article's news lead refused for its length alone: the next paragraph naming the subject is background, "Lawan
      // raised the motion after ..." under the lead that said what the motion was; the lead is the description, shortened by hand.)
      const pastLongLead = content.article === true && s === 0 && rule === 'lead_too_long';
      if (start === -1 || (b > firstUsable && !nutGraf(b, start) && (!aboutThePage(b) || laterInArticle || pastLongLead))) continue;
      const first = read(b)[start]!.text;
      let text = '';
      // Whole sentences, in order: this paragraph's, then the next paragraphs' as long as each opens cleanly.
      extend: for (let k = b; k < blocks.length; k++) {
        // A draft still too short goes on into a next paragraph that speaks of what it named ("To LeBron James, triple-doubles are
        // not a goal." + "They are only a side effect of ..."): the pronoun's subject is in the draft.
        if (k > b && !opens(k) && !(displayWidth(text) < DESCRIPTION_MIN && continuesDraft(read(k)[0], content.lang))) break;
        for (const sentence of read(k).slice(k === b ? start : 0)) {
          if (!sentence.usable) break extend;
          const next = join(text, sentence.text);
          if (displayWidth(next) > DESCRIPTION_MAX) {
            // A short opening and a long second sentence: the second's first clause may complete it ("Roses repay planning. Our team has grown them for thirty years.").
            const room = DESCRIPTION_MAX - displayWidth(text) - 1;
            const least = Math.max(1, DESCRIPTION_MIN - displayWidth(text) - 1);
            // (A draft under the minimum takes the next sentence's opening, cut where a lead's end is cut: "..., with no slowdown in
            // sight" goes. Its opening only: without its own start, "The administrator ensured it was listed" no longer follows.)
            const opening = displayWidth(text) < DESCRIPTION_MIN ? shortenSentence(sentence.text, least, room, content.lang, headlineText(content), content.article === true)?.text : undefined;
            const clause = text === '' ? undefined : trimAtClause(sentence.text, least, room)
              ?? (opening !== undefined && sentence.text.startsWith(opening.slice(0, -1)) ? opening : undefined);
            if (clause) text = join(text, clause);
            break extend;
          }
          text = next;
          if (displayWidth(text) >= TARGET) break extend;
        }
      }
      if (displayWidth(text) < DESCRIPTION_MIN) {
        const trimmed = text === '' ? shorten(first, content.lang, headlineText(content), content.article === true) ?? shortenedThenNext(b, start) : undefined;
        if (trimmed && !taken.has(trimmed.toLowerCase())) return { text: trimmed };
        if (text === '' && rule === undefined) tooLong = first;
        rule ??= text === '' ? 'lead_too_long' : 'lead_too_short';
        reason ??= text === ''
          // (Quoted as measured, its dateline and relative day left out: the page shows it longer, and a reader sees which text counts.)
          ? `the opening sentence of the page's ${s === 0 ? 'lead' : 'first section with prose'} ("${quoted(first)}") is ${displayWidth(first)} characters and has no clause boundary to shorten it at (a description is ${DESCRIPTION_MIN}-${DESCRIPTION_MAX})`
          : `the page's ${s === 0 ? 'lead' : 'first section with prose'} says it in ${displayWidth(text)} characters ("${text}"), under the ${DESCRIPTION_MIN} a description needs, and what follows cannot be joined to it`;
        continue;
      }
      // An article's draft that speaks of nothing its headline names misses the story (speaksOfHeadline): no draft.
      if (content.article && s === 0 && !speaksOfHeadline(text, content)) {
        rule ??= 'off_headline';
        reason ??= `the article's lead ("${quoted(text)}") speaks of nothing its headline names: a description drawn from it would set a scene, not say what the story is`;
        continue;
      }
      text = namedOpening(text, content);
      if (!taken.has(text.toLowerCase())) return { text };
      rule ??= 'taken';
      reason ??= `the description the page's lead gives ("${text}") is already used on the site`;
    }
    // The sentence refused, quoted: a reader of the refusal sees what the page opens with, and can judge.
    if (reason) return { reason, ...(rule ? { rule } : {}), ...(rule === 'lead_too_long' && tooLong ? { tooLong } : {}) };
    // The sentence refused, and the rule it breaks in words: a reader of the refusal sees what the page opens with, and can judge.
    const opening = read(firstUsable)[0]!;
    const broken = opening.rule ?? openingRule(opening.text, s === 0, content.lang) ?? 'no_opening';
    const why = SENTENCE_RULE_SAYS.get(broken) ?? OPENING_RULE_SAYS.get(broken) ?? 'does not stand on its own';
    return { rule: broken, reason: `no paragraph of the page's ${s === 0 ? 'lead' : 'first section with prose'} opens with a sentence that stands on its own: it opens "${quoted(opening.text)}", which ${why}` };
  }
  if (undecodable) return { rule: 'undecodable', reason: 'the page\'s text did not decode cleanly (replacement characters): no description is drafted from it' };
  const foreign = content.lang ? readAll.filter((x) => x.foreign).length : 0;
  if (content.lang && foreign > 0 && foreign >= readAll.length / 2) {
    return { rule: 'foreign', reason: `the page is in ${languageName(content.lang)} (${content.lang}) but its text is mostly in another language (an untranslated copy?): no description is drafted from it` };
  }
  const opening = sections[0]?.[0];
  return { rule: 'no_opening', reason: `no prose paragraph of the page opens with a complete sentence that stands on its own (each points back, points elsewhere, or is code or a fragment)${opening ? `; the lead opens: "${quoted(opening)}"` : ''}` };
}

/**
 * The first heading of a listing's page without an h1 when it names nothing of the page's title: its first entry ("Introducing
 * Cohort Explorer" on "Blog – Fernhollow Analytics"). Only on a page whose title names a listing (LISTING_TITLE): a landing
 * page's hero in an h2 ("Feel like yourself again") is its own heading.
 */
function entryAsHeading(content: PageContent): string | undefined {
  // (A page with text before its first heading has that text for its intro: it leads.)
  if (content.h1 || content.article || !/^[2-6]/u.test(content.order ?? '')) return undefined;
  if (!content.title.split(/\s[|–—-]\s/u).some((part) => LISTING_TITLE.pattern.test(part.trim()))) return undefined;
  const first = content.headings[0]?.text;
  // (Not a standfirst set as a heading: a sentence, or one of the page's own summaries.)
  if (!first || /[.!?]$/u.test(first) || content.summaries?.some(([, text]) => text === first)) return undefined;
  if (content.title.toLowerCase().includes(first.toLowerCase())) return undefined;
  const titleWords = significantWords(content.title);
  return [...significantWords(first)].some((word) => titleWords.has(word)) ? undefined : first;
}
/** A title's part that names a listing of posts or entries: "Blog", "News", "Tag: sourdough", "Category: Guides", "Page 2". */
export const LISTING_TITLE = {
  id: 'listing_title',
  pattern: /^(?:(?:the |our |latest )?(?:blog|news|articles|posts|stories|journal|press|insights|updates|archives?|actualités|blogue|neuigkeiten|noticias|notizie)|(?:category|tag|tagged|archive|catégorie|étiquette|kategorie|categoría|etiqueta)\s*:.*|page \d+)$/iu,
  example: 'Blog',
  counterExample: 'Feel like yourself again',
};

/**
 * A next paragraph whose only fault as an opening is a personal pronoun ("They are ..."): it stands for the subject the draft
 * just named. Not a demonstrative ("These safety issues ..." may mean what the draft left out), nor "also" (it adds to the paragraph).
 */
const continuesDraft = (sentence: Sentence | undefined, lang: string | null) =>
  sentence?.usable === true && openingRule(sentence.text, false, lang) === 'pronoun' && !ALSO.test(sentence.text);

/**
 * The writer speaking ("I", "we", "my"): a post's voice, not what the story is. Wider than sentence-rules' author_aside
 * ("me", "my", "myself" in any sentence): a nut graf in "we" or "I" is the post's own story, not the news.
 */
// ("I" not after a capitalised word within the sentence: "World War I", "Henry I" are names; "As I write ..." is the writer.)
const WRITER_VOICE = /(?<![\p{L}'’])(?:(?<!\s\p{Lu}\p{L}*\s)I(?:['’](?:m|ve|d|ll))?|[Mm]e|[Mm]y|[Ww]e(?:['’](?:re|ve|d|ll))?|[Oo]ur|us)(?![\p{L}'’])/u;

/**
 * A reference page's draft that opens "This command ..." or "This module ..." names its subject: out of the page, in a search
 * result, "This command displays the execution plan ..." names nothing (read by an owner). The page's own name, as its heading
 * writes it, takes the demonstrative's place: "EXPLAIN displays ...", "The urllib.parse module defines ...". Only a name that
 * is a command's or an identifier's (capitals, code-like words), never a prose heading.
 */
export function namedOpening(text: string, content: Pick<PageContent, 'h1' | 'headings' | 'article'>): string {
  if (content.article) return text;
  const name = (mainHeading(content as PageContent).split(/\s+[—–-]\s+|:\s|\(/u)[0] ?? '').trim().replace(/^(?:[A-Z]?\d+(?:\.\d+)*\.?\s+)/u, '');
  if (!REFERENCE_NAME.test(name)) return text;
  const opening = /^This (command|program|utility|tool|function|statement)\b|^This (module|package|library|extension|plugin)\b/u.exec(text);
  if (!opening) return text;
  const named = `${opening[1] ? name : `The ${name} ${opening[2]}`}${text.slice(opening[0].length)}`;
  return displayWidth(named) <= DESCRIPTION_MAX ? named : text;
}
/** A command's or an identifier's name: "EXPLAIN", "ALTER TABLE", "pg_dump", "urllib.parse" (not "Event Triggers"). */
const REFERENCE_NAME = /^(?:[A-Z][A-Z_]+(?: [A-Z][A-Z_]+){0,3}|[a-z][\w.:/-]*[_.:/\d][\w.:/-]*|[a-z][a-z\d]*)$/u;

/** Sentences of an article's opening paragraph past its first that may tell the story the first sets a scene for. */
const RETOLD_WITHIN = 2;

/** What makes an article's opening sentence a hook rather than its news (sentence-rules.ts): a draft may start past it. */
// (And a sentence whose relative day cannot be removed, "Google Stadia launches tomorrow ...": the next one may say the news.)
const HOOK_RULES = new Set(['hook', 'scene', 'question', 'greeting', 'relative_time', 'points_back_plural']);

/** A greeting that opens a paragraph, alone as its sentence: "Welcome!", "Hi there!", "Bienvenue !". */
const GREETING = /^(?:welcome|hello|hi|hey|greetings|howdy|bienvenue|willkommen|bienvenid[oa]s?|benvenut[oi]|bem-vind[oa]s?)(?:\s+(?:there|back|aboard|everyone|all|friends))?\s*[!.]$/iu;

/** A sentence quoted in a refusal's reason, at most 100 characters. */
const quoted = (text: string) => (text.length > 100 ? `${text.slice(0, 99).trimEnd()}…` : text);

/** The rules a reworded value (the LLM writer's) must still meet: no ellipsis, no replacement character. */
export const meetsDescriptionRules = (text: string) => !text.includes(REPLACEMENT) && !ELLIPSIS.test(text) && SENTENCE_END.test(text);
