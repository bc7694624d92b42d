import { DESCRIPTION_MAX, DESCRIPTION_MIN } from '../../checks/page-checks.ts';
import { displayWidth } from '../../../lib/strings.ts';
import type { PageContent } from '../page-content.ts';
import { isCommonWord } from './common-words.ts';
import { PRICE_OR_RATING } from './sentence-rules.ts';

/**
 * A description composed from what a page lists, for a page whose prose gives none: a services page whose lead is a slogan
 * ("Everything your smile needs, all under one roof.") but whose sections name each service, a features page, a pricing page's
 * plans, a team page, a product whose bullets under the price say what it is: "BrightSmile Dental services: general dentistry,
 * teeth whitening, implants, and emergency care." (read by shop and landing-page owners: 12 of 21 refusals of such pages were
 * wrong, and a composed description better than none). Only the page's own words: its name, its title's site name and the items
 * as written (in English, a Title Case list written small when a dictionary holds its words), joined as its language joins a
 * list (Intl.ListFormat), in a language whose words for it are known. Never on an article's story (its sections are its parts)
 * nor from a reference page's parts (numbered sections, "Synopsis", "Options"), nor a list of names on a page that does not
 * say whose they are (a portfolio's projects).
 */
export type Composed = { text: string; from: 'sections' | 'list' | 'specs' };

/** Fewest items that make a page's list say what it offers: two is a pair, not a range. */
const MIN_ITEMS = 3;
/** An item longer than this is a sentence or a tagline, not a name of something the page offers. */
const ITEM_MAX_CHARS = 48;
const ITEM_MAX_WORDS = 7;
/**
 * A page with more prose than this says what it is in prose, or is a text (a manual's chapter, an article): its sections are
 * parts of a text, not offerings. (A services or team page's lines and bios stay under it.)
 */
const PROSE_MAX_CHARS = 1200;
/** A paragraph this long is a story's: a page marked as an article that has one is read as one. */
const ARTICLE_PARAGRAPH_CHARS = 160;
/** Of the headings at the level listed, at least this share must make items: else the sections are not one list. */
const ITEMS_SHARE = 0.6;

/**
 * Section headings that name a part of every such page, not what this one offers: named data, an example each.
 * (Lower case, whole heading, in the languages shops are written in.)
 */
export const GENERIC_SECTIONS = {
  id: 'generic_section',
  names: new Set([
    // A shop's tabs and boxes: "Description", "Additional information", "Customer Reviews", "You may also like".
    'description', 'additional information', 'reviews', 'customer reviews', 'related products', 'you may also like', 'specifications',
    'product details', 'details', 'shipping', 'shipping & returns', 'delivery & returns', 'brewing guide', "what's in the box", 'what’s in the box',
    'dimensions', 'beschreibung', 'zusätzliche informationen', 'bewertungen', 'avis', 'avis clients', 'informations complémentaires',
    'produits similaires', 'vous aimerez aussi', 'descripción', 'información adicional', 'valoraciones', 'productos relacionados',
    // A landing page's furniture: "Why choose us", "Testimonials", "Contact", "FAQ", "Newsletter".
    'why choose us', 'testimonials', 'what our customers say', 'faq', 'faqs', 'frequently asked questions', 'contact', 'contact us', 'get in touch',
    'newsletter', 'follow us', 'about', 'about us', 'our story', 'share', 'share this', 'comments', 'leave a reply', 'leave a comment',
    'related posts', 'recent posts', 'categories', 'tags', 'archives', 'search', 'menu', 'navigation', 'quick links', 'useful links',
    'nous contacter', 'contactez-nous', 'kontakt', 'über uns', 'contacto', 'sobre nosotros',
    // A reference page's parts: "Synopsis", "Options", "See also".
    'synopsis', 'options', 'examples', 'example', 'notes', 'see also', 'parameters', 'return value', 'usage', 'overview', 'introduction',
    'installation', 'configuration', 'environment', 'diagnostics', 'compatibility', 'bugs', 'author', 'authors', 'files', 'exit status', 'table of contents', 'contents',
    'classes', 'functions', 'methods', 'constants', 'properties', 'attributes', 'types', 'modules', 'packages', 'exceptions', 'variables',
    // A home page's sections, named for what kind they are: "Features", "How it works", "Pricing", "Latest news".
    'features', 'how it works', 'pricing', 'plans', 'products', 'our products', 'services', 'our services', 'shop', 'blog', 'news',
    'latest news', 'latest posts', 'featured', 'featured products', 'popular', 'best sellers', 'bestsellers', 'new arrivals', 'our team',
    'team', 'partners', 'our partners', 'clients', 'our clients', 'gallery', 'events', 'upcoming events', 'resources', 'support', 'help',
  ]),
  example: 'Customer Reviews',
  counterExample: 'Teeth Whitening',
};

/** What makes a heading or a list item no name of something offered: each with the item it catches. */
export const NOT_AN_ITEM: Array<{ id: string; fires: (item: string) => boolean; example: string; counterExample: string }> = [
  { id: 'sentence', fires: (item) => /[.!?…]$/u.test(item) && !/\b\p{Lu}\p{L}{0,3}\.$/u.test(item), example: 'Not sure what you need?', counterExample: 'Dr. Sarah Chen' },
  { id: 'key_value', fires: (item) => /\S:\s/u.test(item), example: 'Origin: Huehuetenango, Guatemala', counterExample: 'Fillings & Crowns' },
  // (A comma inside an item makes the list unreadable: "Dr. Sarah Chen, DMD, Dr. Raj Patel, DDS".)
  { id: 'comma', fires: (item) => /[,;]/u.test(item), example: 'Dr. Sarah Chen, DMD', counterExample: 'Receipts & bills' },
  { id: 'price_or_rating', fires: (item) => PRICE_OR_RATING.test(item), example: '$219.00 $189.00', counterExample: 'Free trial for 14 days' },
  { id: 'numbered', fires: (item) => NUMBERED.test(item), example: 'J.3.1. HTML', counterExample: '4 ft × 8 ft × 11 in' },
  // (A heading that asks the reader to act names nothing the page offers: "Send us a message", "Book a visit".)
  { id: 'call_to_action', fires: (item) => CALL_TO_ACTION.test(item), example: 'Send us a message', counterExample: 'Emergency Care' },
  // (A clause is a motto, not a name: "Boring is good", "Earn trust daily" on an about page's values.)
  { id: 'clause', fires: (item) => CLAUSE.test(item), example: 'Boring is good', counterExample: 'Bank feeds' },
  { id: 'emoji', fires: (item) => EMOJI.test(item), example: 'Invoicing 🚀', counterExample: 'Invisalign®' },
  { id: 'stock', fires: (item) => /\b(?:in stock|left in stock|en stock|auf lager|sku)\b/iu.test(item), example: 'Only 4 left in stock', counterExample: 'Ships flat-packed' },
  { id: 'generic', fires: (item) => GENERIC_SECTIONS.names.has(item.toLowerCase().replace(/\s+/gu, ' ')), example: 'Customer Reviews', counterExample: 'Teeth Whitening' },
  { id: 'too_long', fires: (item) => item.length > ITEM_MAX_CHARS || (item.match(/[\p{L}\p{N}]+/gu) ?? []).length > ITEM_MAX_WORDS, example: 'The friendly faces behind your smile every day of the week', counterExample: 'Tool-free slot-together assembly' },
  // (An index's entries and code names start in lower case: "dataclasses", "hash()", "__main__"; what a shop offers does not.)
  { id: 'code_or_index', fires: (item) => /^[\p{Ll}_]|[()_<>{}=]/u.test(item), example: 'hash()', counterExample: 'Invisalign®' },
  { id: 'too_short', fires: (item) => item.length < 3, example: 'FR', counterExample: 'Lock' },
];
/** An emoji (not the ®, © and ™ a brand's name carries: "Invisalign®"). */
const EMOJI = /(?![©®™])\p{Extended_Pictographic}/u;
/** A manual's section number: "5.4.1. Check Constraints", "J.3. Building the Documentation", "IV. Client Interfaces" (not "4 ft × 8 ft"). */
const NUMBERED = /^[A-Z\d]+\.(?:\d+\.?)*\s/u;
/** Verbs a button or a heading asks the reader with, in the languages shops are written in. */
const CALL_TO_ACTION = /^(?:send|book|call|contact|get|request|sign up|subscribe|join|shop|buy|order|learn|see|view|discover|explore|find|visit|start|try|download|read|write|message|email|ask|envoyez|réservez|appelez|contactez|découvrez|demandez|rufen|kontaktieren|buchen|entdecken|reserva|llama|contacta|descubre)\b/iu;
/** A copula or an imperative's object makes a heading a clause: "Boring is good", "Earn trust daily", "Nous sommes là". */
// (Whole words by letters of any script: "è" is a word, "créées" holds none; not "es" or "son", words of names too: "Father and Son".)
const CLAUSE = /(?<!\p{L})(?:is|are|was|were|be|earn|est|sont|sommes|ist|sind|è)(?!\p{L})/iu;

export const itemRule = (item: string) => NOT_AN_ITEM.find((rule) => rule.fires(item))?.id;

/** "Services at BrightSmile Dental": the word a language puts between what a page is and whose it is. */
const AT_SITE: Record<string, string> = { en: 'at', fr: 'chez', de: 'bei', nl: 'bij', es: 'en', it: 'da' };
/** A page about the site itself, whose headings are mottos: composed, "About us at Ledgerly: Owners first, ..." says nothing. */
const ABOUT_PAGE = /^(?:about(?: us)?|our story|who we are|à propos(?: de nous)?|qui sommes-nous\s*\??|über uns|sobre nosotros|chi siamo)$/iu;
/** A home page's own name in its title: "Home | ShiftBeacon", "Accueil – Cycles Rivière". */
const HOME_WORD = /^(?:home|homepage|accueil|startseite|inicio|home page)$/iu;
/** What a list cut short ends with: "..., and more". */
const MORE: Record<string, string> = { en: 'more', fr: 'plus encore', de: 'mehr', nl: 'meer', es: 'más', it: 'altro' };
/** A site that is a document: "Python 3.11.2 documentation", "The Rust Book", "ArchWiki". */
const DOCUMENT_SITE = /\b(?:documentation|docs|manual|handbook|guide|wiki|reference|book)$/iu;
/** The separators of a title's site name: "Services — BrightSmile Dental", "Features | Ledgerly". */
const TITLE_PARTS = /\s+[|–—-]\s+/u;

/** The page's name for a composed description: "Services at BrightSmile Dental", or its title as written. */
function nameOf(content: PageContent, home: boolean, lang: string, known: boolean, names: ReadonlySet<string>): string | undefined {
  const parts = content.title.split(TITLE_PARTS).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0 || parts.some((p) => EMOJI.test(p))) return undefined;
  // An about page's sections are its values or its story, not what it offers: "Owners first", "Our story".
  if (ABOUT_PAGE.test(parts[0]!) || NUMBERED.test(parts[0]!)) return undefined;
  // A home page's title is the site's name and what it is: "Cycles Rivière – Magasin et atelier vélo à Lyon" ("Home | ShiftBeacon":
  // the site's name alone).
  if (home && parts.length === 2 && HOME_WORD.test(parts[0]!)) return parts[1];
  if (home || parts.length === 1) return parts.length <= 2 ? parts.join(' – ') : undefined;
  if (parts.length !== 2) return undefined;
  // (Without the page's address, which part names the site is not known: the page's own part alone.)
  // (A manual is no place one is "at": "Queues – Python 3.11 documentation".)
  const at = DOCUMENT_SITE.test(parts[1]!) ? '–' : AT_SITE[lang];
  if (!at || !known) return parts[0];
  // A product has features, a practice services: "Ledgerly features", not "Features at Ledgerly" (read by an owner). In English,
  // a page named by one common word (no name the page's prose writes in capitals) follows the site's name.
  if (lang === 'en' && at !== '–' && /^\p{Lu}\p{Ll}+$/u.test(parts[0]!) && !names.has(parts[0]!)) return `${parts[1]} ${parts[0]!.toLowerCase()}`;
  return `${parts[0]} ${at} ${parts[1]}`;
}

/**
 * The words the page's prose writes with a capital inside a sentence: names ("a certified Invisalign provider", "Dr. Chen"),
 * which a list keeps as they are. (A sentence's first word tells nothing: every word is capitalised there.)
 */
function namesOf(content: PageContent): ReadonlySet<string> {
  const names = new Set<string>();
  for (const block of content.paragraphs) {
    // (Not a line in Title Case, a button's "Book Your Teeth Whitening Today": every word has its capital there.)
    const words = block.split(/\s+/u).filter((w) => /^\p{L}{4}/u.test(w));
    if (words.length >= 3 && words.filter((w) => /^\p{Lu}/u.test(w)).length >= 0.6 * words.length) continue;
    for (const match of block.matchAll(/(?<=[\p{L}\p{N},;:)]\s+)\p{Lu}[\p{L}'’-]*/gu)) names.add(match[0]);
  }
  return names;
}

/** A capitalised word of a heading (not one with a brand's mark, a dot or a hyphen after it, nor in capitals). */
const TITLE_WORD = /(?<![\p{L}\p{N}'’.-])\p{Lu}\p{Ll}+(?:['’]s)?(?![\p{L}\p{N}®™.-])/gu;

/**
 * Items a site heads in sentence case ("Bank feeds", "Smart categorisation") read in a sentence with their first word in lower
 * case ("bank feeds, smart categorisation and reports"), unless that word is a name (the page's prose writes it with a capital,
 * or it is a brand's: "BrightSmile", "LIFO", "Invisalign®"). A list headed in Title Case ("General Dentistry") is kept as
 * written, except in English, where a dictionary tells which of its words are names (common-words.ts).
 */
function inSentence(items: string[], names: ReadonlySet<string>, english: boolean, german = false): string[] | { items: string[]; ofNames: true } {
  // (The words after an item's first that tell its case: "of", "ft" and "& " are written small either way.)
  const telling = (item: string) => item.split(/\s+/u).slice(1).filter((w) => /^\p{L}{4}/u.test(w));
  const titleCase = items.some((item) => telling(item).length > 0 && telling(item).every((w) => /^\p{Lu}/u.test(w)));
  const sentenceCase = items.some((item) => telling(item).some((w) => /^\p{Ll}/u.test(w)));
  // In English, a dictionary tells the common words of a Title Case list from names: "General Dentistry, Invisalign®" ->
  // "general dentistry, Invisalign®" (read by an owner: headings pasted in Title Case read as machine-made).
  // (All or none: one word no dictionary holds, "Tidewater Coffee Rebrand", says the list's items are names: kept as written. A
  // brand's own mark, "Invisalign®", and a word in capitals, "LIFO", stay.)
  if (titleCase && english) {
    const words = items.flatMap((item) => [...item.matchAll(TITLE_WORD)].map((m) => m[0]));
    // (The page's prose writing a word with a capital keeps it so, "Apple" repairs, but does not make the list one of names.)
    if (words.every((word) => isCommonWord(word))) return items.map((item) => item.replace(TITLE_WORD, (word) => (names.has(word) ? word : word.toLowerCase())));
    return { items, ofNames: true };
  }
  // (German writes its nouns with a capital inside a sentence too: "Reparatur aller Marken" stays.)
  if (titleCase || !sentenceCase || german) return items;
  return items.map((item) => {
    const first = /^\p{Lu}[\p{Ll}'’-]*(?=[\s]|$)/u.exec(item)?.[0];
    return first && !names.has(first) ? `${first.toLowerCase()}${item.slice(first.length)}` : item;
  });
}

/** A page whose list of names says what they are: its people ("Meet the Team", "Our people", "Notre équipe"). */
const PEOPLE_PAGE = /\b(?:team|people|staff|doctors|dentists|lawyers|attorneys|partners|leadership|équipe|equipo|mitarbeiter)\b/iu;

/** The kinds of the page's blocks and headings in order (PageContent.order), each with its text. */
function blocksOf(content: PageContent): Array<{ kind: string; text: string }> {
  const out: Array<{ kind: string; text: string }> = [];
  let h = 0;
  let b = 0;
  for (const kind of content.order ?? '') {
    if (kind >= '1' && kind <= '6') out.push({ kind, text: content.headings[h++]?.text ?? '' });
    else if (kind !== '0' && b < content.paragraphs.length) out.push({ kind, text: content.paragraphs[b++]! });
  }
  return out;
}

/** A person's letters after their name ("Dr. Sarah Chen, DMD"): the list names the person. */
const CREDENTIALS = /,\s*(?:\p{Lu}[\p{Lu}.]{1,5})(?:,\s*\p{Lu}[\p{Lu}.]{1,5})*$/u;
const itemText = (text: string) => text.trim().replace(CREDENTIALS, '');

/** A section of a shop's reasons to buy from it: "Why choose us", "Pourquoi Cycles Rivière ?", "Our promise". */
const PERKS_HEADING = /^(?:why\b|pourquoi\b|warum\b|por qu[ée]\b|perch[ée]\b|waarom\b|our promise|our guarantee|nos engagements|unsere versprechen)/iu;

/** A price alone on its line ("$12", "29 €", "£8.50") and its period on the next ("/month", "per user"). */
const PRICE_ONLY = /^(?:[$£€]\s?\d[\d.,]*|\d[\d.,]*\s?[$£€])$/u;
const PRICE_PERIOD = /^(?:\/\s?\p{L}+|per\s\p{L}+(?:\s\p{L}+)?|par\s\p{L}+|pro\s\p{L}+)$/u;
/** The price a section gives in its first blocks, in brackets after its name; '' when none (or more than one: a range). */
function priceUnder(section: Array<{ kind: string; text: string }>): string {
  const head = section.slice(0, 4);
  const prices = head.flatMap((b, i) => (b.kind !== 'p' || !PRICE_ONLY.test(b.text.trim()) ? [] : [i]));
  if (prices.length !== 1) return '';
  const period = head[prices[0]! + 1]?.text.trim() ?? '';
  return ` (${head[prices[0]!]!.text.trim()}${PRICE_PERIOD.test(period) ? (period.startsWith('/') ? period : ` ${period}`) : ''})`;
}

/**
 * The page's blocks after its main heading (all of them without an h1), the heading level its sections are listed at (the one
 * with most headings, the deeper on a tie: sections' names, not the page's parts) and where each heading of it stands.
 */
function listedSections(blocks: ReadonlyArray<{ kind: string; text: string }>) {
  const own = blocks.slice(blocks.findIndex((b) => b.kind === '1') + 1);
  const levels = new Map<string, number>();
  for (const b of own) if (b.kind >= '2' && b.kind <= '6') levels.set(b.kind, (levels.get(b.kind) ?? 0) + 1);
  const [level, count] = [...levels].sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]))[0] ?? ['', 0];
  return { own, level, count, at: own.flatMap((b, i) => (b.kind === level ? [i] : [])) };
}

/** The items a page lists: its sections' headings at one level, else the first run of list items under its main heading. */
function itemsOf(blocks: ReadonlyArray<{ kind: string; text: string }>): { items: string[]; from: Composed['from'] } | undefined {
  const { own, level, count, at } = listedSections(blocks);
  // (Not a section's perks under "Why us?", "Pourquoi Cycles Rivière ?": what makes the shop good, not what it offers.)
  const parent = own.slice(0, at[0] ?? 0).findLast((b) => b.kind >= '1' && b.kind < level);
  const perks = parent !== undefined && (/[?？]\s*$/u.test(parent.text) || PERKS_HEADING.test(parent.text));
  if (count >= MIN_ITEMS && !perks) {
    const headings = at.map((i) => itemText(own[i]!.text));
    // (A plan's or a product's price under its name goes with it: "Starter ($12/month)".)
    const items = headings.flatMap((text, k) => (itemRule(text) === undefined ? [`${text}${priceUnder(own.slice(at[k]! + 1, at[k + 1] ?? own.length))}`] : []));
    if (items.length >= MIN_ITEMS && items.length >= ITEMS_SHARE * headings.length) return { items, from: 'sections' };
  }
  // The first run of list items before the main heading's first section: a product's bullets under its price.
  const run: string[] = [];
  for (const b of own) {
    if (b.kind >= '2' && b.kind <= '6') break;
    if (b.kind === 'l') run.push(itemText(b.text));
    else if (run.length > 0) break;
  }
  const items = run.filter((text) => itemRule(text) === undefined);
  if (items.length >= MIN_ITEMS && items.length === run.length) return { items, from: 'list' };
  // (A product's specifications as "Key: value" lines, "Origin: Huehuetenango, Guatemala", "Process: Washed": kept as written.)
  return run.length >= MIN_ITEMS && run.every((text) => SPEC_LINE.test(text) && !WEEKDAY.test(text)) ? { items: run, from: 'specs' } : undefined;
}
/** A specification line: a short name, a colon, a short value ("Altitude: 1,750 m"). */
export const SPEC_LINE = /^\p{Lu}[\p{L}]*(?: [\p{L}]+)?:\s+\S.{0,39}$/u;
/** Opening hours are no specification of what the page offers ("Sat: 8am–1pm"). */
export const WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim|mo|di|mi|do|fr|sa|so)[\p{L}]*[.:]/iu;

/**
 * Whether a draft comes from the page's lead: the blocks under its main heading (its h1, else its first heading, else its start)
 * before the next heading. A draft from further down speaks for one section of the page.
 */
export function fromLead(content: PageContent, draft: string): boolean {
  const blocks = blocksOf(content);
  const main = blocks.findIndex((b) => b.kind >= '1' && b.kind <= '6');
  const start = blocks.some((b) => b.kind === '1') ? blocks.findIndex((b) => b.kind === '1') + 1 : main > 0 ? 0 : main + 1;
  const end = blocks.findIndex((b, i) => i >= start && b.kind >= '1' && b.kind <= '6');
  // (Five of its words past its first two, as written: a cut changes its end, and naming a reference page's subject its first
  // words, "This command displays ..." -> "EXPLAIN displays ...".)
  const words = draft.split(/\s+/u);
  const middle = (words.length > 6 ? words.slice(2, 7) : words).join(' ');
  return blocks.slice(start, end === -1 ? blocks.length : end).some((b) => b.text.replace(/\s+/gu, ' ').includes(middle));
}

/** Sections this short are entries of a list (an event, a product, a person), not chapters of a text. */
const ENTRY_MAX_CHARS = 400;
/** What keeps a heading from naming an entry of a list: a manual's parts ("Options", "5.4. Constraints"), code, an index's words. */
const NOT_AN_ENTRY = new Set(['generic', 'numbered', 'code_or_index', 'too_short']);
/**
 * The headings of the like entries a page lists, when it is such a list: at least three headings at one level below its main
 * heading, each over a short section, most of them naming an entry (not a manual's "Options" or "5.4. Constraints"): an events
 * page's "An Evening with Helen Armitage — Thursday 11 April" and its date, place and blurb. A sentence under the first entry
 * describes that entry, not the page. Undefined for a page of chapters, or of fewer entries.
 */
export function listedEntries(content: PageContent): string[] | undefined {
  const { own, count, at } = listedSections(blocksOf(content));
  if (count < MIN_ITEMS) return undefined;
  // (Each with text under it: sections left empty are a contents list, or past the crawl's text budget.)
  const texts = at.map((i, k) => own.slice(i + 1, at[k + 1] ?? own.length).filter((b) => !(b.kind >= '1' && b.kind <= '6')));
  const short = texts.every((section) => section.length > 0 && section.reduce((n, b) => n + b.text.length, 0) <= ENTRY_MAX_CHARS);
  const named = at.filter((i) => !NOT_AN_ITEM.some((rule) => NOT_AN_ENTRY.has(rule.id) && rule.fires(own[i]!.text.trim()))).length;
  return short && named >= ITEMS_SHARE * at.length ? at.map((i) => own[i]!.text) : undefined;
}

/**
 * A description composed of the page's name and the items it lists, as many as fit (at least three, in the page's order, "and
 * more" after them when some do not); undefined when the page lists nothing that names what it offers, or is an article's story.
 */
export function composeDescription(content: PageContent, url: string): Composed | undefined {
  if (content.order === undefined) return undefined;
  const blocks = blocksOf(content);
  const prose = blocks.filter((b) => b.kind === 'p');
  if (prose.reduce((sum, b) => sum + b.text.length, 0) > PROSE_MAX_CHARS) return undefined;
  // An article's sections are its story's parts. (A page only marked one, as WordPress's SEO plugins mark every page with
  // og:type "article", but written as a list of short lines, is no story: "Nos prestations" and its services.)
  if (content.article && prose.some((b) => b.text.length >= ARTICLE_PARAGRAPH_CHARS)) return undefined;
  const lang = (content.lang ?? 'en').toLowerCase().split(/[-_]/u)[0]!;
  // (Only in a language whose words for a list's end are known: "and more", "et plus encore".)
  if (MORE[lang] === undefined) return undefined;
  const home = /^[a-z]+:\/\/[^/]+\/?(?:index\.html?)?$/iu.test(url);
  const listed = itemsOf(blocks);
  if (!listed) return undefined;
  const names = namesOf(content);
  const name = nameOf(content, home, lang, url !== '', names);
  if (!name) return undefined;
  const list = (items: string[]) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);
  // French sets its colon apart: "Cycles Rivière – Magasin et atelier vélo à Lyon : livraison offerte ...".
  const colon = lang === 'fr' ? '\u00a0: ' : ': ';
  // (Specifications are joined as a spec sheet is, after the product's own name and a dash: their values hold commas of their
  // own, and each says more than the shop's name would.)
  if (listed.from === 'specs') {
    const product = content.title.split(TITLE_PARTS)[0]!.trim();
    for (let n = listed.items.length; n >= MIN_ITEMS; n--) {
      const text = `${product} – ${listed.items.slice(0, n).join('; ')}.`;
      if (displayWidth(text) <= DESCRIPTION_MAX) return displayWidth(text) >= DESCRIPTION_MIN ? { text, from: 'specs' } : undefined;
    }
    return undefined;
  }
  // (Not a manual's: its headings are its classes' and functions' names, "Lock, Event, Condition".)
  const english = lang === 'en' && !DOCUMENT_SITE.test(content.title.split(TITLE_PARTS).at(-1) ?? '');
  const cased = inSentence([...new Map(listed.items.map((item) => [item.toLowerCase(), item])).values()], names, english && !PEOPLE_PAGE.test(`${content.title} ${content.h1}`), lang === 'de');
  // A list of names says nothing of the page unless the page says whose they are: a portfolio's project titles ("Tidewater Coffee
  // Rebrand, Harbor Arts Festival ...") do not say what the studio does (read by its owner: rejected); a team's names do.
  if (!Array.isArray(cased) && !PEOPLE_PAGE.test(`${content.title} ${content.h1}`)) return undefined;
  const unique = Array.isArray(cased) ? cased : cased.items;
  for (let n = unique.length; n >= MIN_ITEMS; n--) {
    // (A list cut short says so: "... and more", not a range that reads as complete, read by an owner.)
    const more = n < unique.length ? [MORE[lang]!] : [];
    const text = `${name}${colon}${list([...unique.slice(0, n), ...more])}.`;
    if (displayWidth(text) <= DESCRIPTION_MAX) return displayWidth(text) >= DESCRIPTION_MIN ? { text, from: listed.from } : undefined;
  }
  return undefined;
}
