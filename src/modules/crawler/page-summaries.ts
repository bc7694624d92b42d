import { detach } from '../../lib/strings.ts';

/**
 * What a page says of itself in a sentence or two, where its editors put it: the standfirst (dek,
 * subtitle) under its headline, the description of its JSON-LD article or product, its
 * og:description. A description drafted from these reads as the editors' own; from the lead it
 * is only the first thing the article says. Read while the page is parsed (main-content.ts).
 */
export type SummarySource = 'standfirst' | 'json_ld' | 'og';
export type PageSummary = [SummarySource, string];

/** White space made single (main-content's collapse, without its CJK rule: a summary is compared, not segmented). */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Shorter is a label ("Opinion"), longer is an article's body. */
const MIN_CHARS = 20;
const MAX_CHARS = 600;

/**
 * The names publishers give a standfirst, as a whole word of a class or id. Each with a page
 * that uses it (read on the 181 pages of the article-extraction benchmark) and a name it does
 * not match.
 */
export const STANDFIRST_NAMES: Array<{ id: string; pattern: RegExp; example: string; counterExample: string }> = [
  { id: 'dek', pattern: /(^|[-_\s])(dek|deck|standfirst|strapline)([-_\s]|$)/i, example: 'c-entry-summary p-dek', counterExample: 'deckchair-sale' },
  { id: 'subheadline', pattern: /(^|[-_\s])(sub-?head(line|ing)?|sub-?title|subline)([-_\s]|$)/i, example: 'article-subline', counterExample: 'subscribe-box' },
  { id: 'summary', pattern: /(^|[-_\s])(summary|abstract|excerpt|article-?description|heading-?des)([-_\s]|$)/i, example: 'article__summary summary', counterExample: 'summary-table-row' },
  { id: 'lead', pattern: /(^|[-_\s])(lede|lead|lead-?text|leader|intro)([-_\s]|$)/i, example: 'article__content--intro', counterExample: 'leaderboard-ad' },
];
/**
 * Boxes whose summary is not the page's: an author's bio ("Zac covers Apple news for 9to5Mac ..."),
 * another story featured or related beside this one (its dek: "Scandinavia's Sami have been herding reindeer ...").
 */
// Not layout words ("sidebar", "card": a theme's grid cell may hold the page's own header), nor the html and body (their classes name the page).
const OTHER_BOX = /(^|[-_\s])(author|authors|bio|profile|featured|related|promo|teaser|recommended|trending|popular|newsletter)([-_\s]|$)/i;
/** Schema.org properties microdata marks a summary with. */
const SUMMARY_PROPS = /(^|\s)(description|abstract|alternativeHeadline)(\s|$)/;

/** JSON-LD types that say the page is an article (a news story, a post, a report). */
export const ARTICLE_TYPES = /^(\w*Article|BlogPosting|Report|LiveBlogPosting)$/;

/** JSON-LD types whose description is the page's own (an organisation's or a website's is the whole site's). */
const OWN_TYPES = /^(\w*Article|BlogPosting|Report|Review|Product|Recipe|Event|Course|HowTo|VideoObject|Book|Movie|JobPosting|Service|SoftwareApplication)$/;

/** Elements without a closing tag: htmlparser2 reports their close at once, and they hold nothing. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export const standfirstName = (names: string) => STANDFIRST_NAMES.find((rule) => rule.pattern.test(names))?.id;

/** The description (or abstract) of the first JSON-LD node of a page's own type, or undefined. */
export function jsonLdSummary(nodes: readonly unknown[]): string | undefined {
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const types = [record['@type'] ?? []].flat().map(String);
    if (!types.some((t) => OWN_TYPES.test(t))) continue;
    const text = [record.description, record.abstract].find((v) => typeof v === 'string');
    const value = typeof text === 'string' ? collapse(text.replace(/<[^>]*>/g, ' ')) : '';
    if (value.length >= MIN_CHARS && value.length <= MAX_CHARS) return detach(value);
  }
  return undefined;
}

/**
 * Reads a page's summaries as it is parsed: og:description and twitter:description from its
 * head; the first element named like a standfirst (STANDFIRST_NAMES) or marked as a summary
 * (itemprop), opened after the page's h1 with at most one block of text between them, and not
 * inside a link (a teaser of another article).
 */
export function createSummaryCollector() {
  const summaries: PageSummary[] = [];
  let og: string | undefined;
  let ogType: string | undefined;
  let ogTitle: string | undefined;
  let h1Opened = false;
  let standfirstDone = false;
  /** For each open element, whether it or an ancestor is another box (OTHER_BOX, or microdata of an author): nothing inside is the page's standfirst. */
  const inOther: boolean[] = [];
  /** The standfirst being read: its tag, how many of that tag are open inside it, its text so far. */
  let open: { name: string; depth: number; text: string } | null = null;
  const add = (source: SummarySource, text: string) => {
    const value = collapse(text);
    if (value.length >= MIN_CHARS && value.length <= MAX_CHARS && !summaries.some(([, t]) => t === value)) summaries.push([source, detach(value)]);
  };
  return {
    /** `blocksSinceH1`: blocks of text kept since the h1 opened; `inLink`: inside an <a>. */
    onopentag(name: string, attrs: Record<string, string>, state: { skipped: boolean; inLink: boolean; blocksSinceH1: () => number }) {
      if (name === 'meta' && og === undefined) {
        const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
        if ((key === 'og:description' || key === 'twitter:description') && attrs.content) og = attrs.content;
      }
      if (name === 'meta' && ogType === undefined && (attrs.property ?? attrs.name ?? '').toLowerCase() === 'og:type') ogType = (attrs.content ?? '').trim().toLowerCase();
      if (name === 'meta' && ogTitle === undefined && (attrs.property ?? attrs.name ?? '').toLowerCase() === 'og:title' && attrs.content) ogTitle = detach(collapse(attrs.content.replace(/&amp;/g, '&')));
      // (A list item is a card or a menu entry: "astra-shop-summary-wrap" in a product grid is no standfirst.)
      const other = (inOther.at(-1) ?? false) || name === 'li' || (name !== 'html' && name !== 'body' && OTHER_BOX.test(`${attrs.id ?? ''} ${attrs.class ?? ''}`) ) || /(^|\s)(author|creator)(\s|$)/.test(attrs.itemprop ?? '');
      if (!VOID.has(name)) inOther.push(other);
      if (state.skipped || other) return;
      if (open) {
        // A box with a heading inside is a card or a section, not a standfirst (which is its headline's companion).
        if (/^h[1-6]$/.test(name)) open = null;
        else if (name === open.name) open.depth += 1;
        return;
      }
      if (name === 'h1') h1Opened = true;
      else if (h1Opened && !standfirstDone && !state.inLink && state.blocksSinceH1() <= 1
        && (standfirstName(`${attrs.id ?? ''} ${attrs.class ?? ''}`) !== undefined || SUMMARY_PROPS.test(attrs.itemprop ?? ''))) {
        open = { name, depth: 1, text: '' };
      }
    },
    ontext(chunk: string, skipped: boolean) {
      if (open && !skipped && open.text.length < MAX_CHARS * 2) open.text += chunk;
    },
    onclosetag(name: string) {
      if (!VOID.has(name)) inOther.pop();
      if (!open || name !== open.name || --open.depth > 0) return;
      const text = open.text;
      open = null;
      // A label the size of a word ("Opinion") is not the standfirst: the next such element may be.
      if (collapse(text).length < MIN_CHARS) return;
      standfirstDone = true;
      add('standfirst', text);
    },
    /** The page's og:type ("article", "website"), when it has one. */
    ogType: () => ogType,
    /** The headline the page gives for sharing (og:title), when it has one: often its editors' shorter headline. */
    ogTitle: () => ogTitle,
    /** The summaries found, standfirst first, then JSON-LD's, then og's. */
    end(jsonLd: string | undefined): PageSummary[] {
      if (jsonLd) add('json_ld', jsonLd);
      if (og) add('og', og.replace(/&amp;/g, '&'));
      return summaries;
    },
  };
}
