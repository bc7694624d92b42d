import { collapseWhiteSpace, detach } from '../../lib/strings.ts';

/**
 * What a page says of itself in a sentence or two, where its editors put it: the standfirst (dek,
 * subtitle) under its headline, the description of its JSON-LD article or product, its
 * og:description. A description drafted from these reads as the editors' own; from the lead it
 * is only the first thing the article says. Read while the page is parsed (main-content.ts).
 */
export type SummarySource = 'standfirst' | 'json_ld' | 'og';
export type PageSummary = [SummarySource, string];

/** White space made single (main-content's collapse, without its CJK rule: a summary is compared, not segmented). */
const collapse = collapseWhiteSpace;

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
  { id: 'summary', pattern: /(^|[-_\s])(summary|abstract|excerpt|article-?description|heading-?des)([-_\s]|$)/i, example: 'article__summary summary', counterExample: 'summarystats' },
  // Not the lead's picture ("lead-image", "lead-media"): its caption is no standfirst.
  { id: 'lead', pattern: /(^|[-_\s])(lede|lead|lead-?text|leader|intro)(?![-_](image|img|photo|media|art|video|asset|figure|picture))([-_\s]|$)/i, example: 'article__content--intro', counterExample: 'lead-image' },
];
/**
 * Boxes whose summary is not the page's: an author's bio ("Zac covers Apple news for 9to5Mac ..."),
 * another story featured or related beside this one (its dek: "Scandinavia's Sami have been herding reindeer ...").
 */
// Not layout words ("sidebar", "card": a theme's grid cell may hold the page's own header), nor the html and body (their classes
// name the page), nor a post's taxonomy classes (WordPress's "category-featured", "tag-popular" on the post's own <article>).
const OTHER_BOX = /(^|[-_])(author|authors|bio|profile|featured|related|promo|teaser|recommended|trending|popular|newsletter)([-_]|$)/i;
const TAXONOMY = /^(category|tag|post|format|type|status|hentry)(-|$)/i;
// (The whole string first: most elements name no box, and this runs for every element of every page crawled.)
const OTHER_WORD = /author|bio|profile|featured|related|promo|teaser|recommended|trending|popular|newsletter/i;
const otherBox = (names: string) => OTHER_WORD.test(names) && names.split(/\s+/).some((token) => token !== '' && !TAXONOMY.test(token) && OTHER_BOX.test(token));
/** Elements that hold a card, a row, a caption or the page's chrome: nothing in them is the page's standfirst. */
const NOT_STANDFIRST = new Set(['li', 'tr', 'td', 'th', 'table', 'figure', 'figcaption', 'nav', 'aside', 'footer', 'form', 'button', 'a']);
/** Past a subheading after the h1, the article's text has begun: a standfirst stands before. */
const BODY_STARTS = /^h[2-6]$/;
/** Schema.org properties microdata marks a box about the writer with. */
const AUTHOR_PROP = /(^|\s)(author|creator)(\s|$)/;
/** Schema.org properties microdata marks a summary with. */
const SUMMARY_PROPS = /(^|\s)(description|abstract|alternativeHeadline)(\s|$)/;

/** JSON-LD types that say the page is an article (a news story, a post, a report); not TechArticle, a manual's page. */
export const ARTICLE_TYPES = /^(?!TechArticle$)(\w*Article|BlogPosting|Report|LiveBlogPosting)$/;

/** JSON-LD types whose description is the page's own (an organisation's or a website's is the whole site's). */
const OWN_TYPES = /^(\w*Article|BlogPosting|Report|Review|Product|Recipe|Event|Course|HowTo|VideoObject|Book|Movie|JobPosting|Service|SoftwareApplication)$/;

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
 * (itemprop), opened after the page's h1 and before its text begins (a subheading, a second
 * block of text), and not inside a link, a list, a table, a caption or another box
 * (an author's bio, a featured story). htmlparser2 reports a close for every open (void and
 * implied ones included), so the element stack below stays balanced.
 */
export function createSummaryCollector() {
  const summaries: PageSummary[] = [];
  let og: string | undefined;
  let ogType: string | undefined;
  let h1Opened = false;
  /** Done looking: a standfirst was read, or the article's text began. */
  let standfirstDone = false;
  /** For each open element, whether it or an ancestor is another box or no place for a standfirst. */
  const inOther: boolean[] = [];
  /** The standfirst being read: its tag, how many of that tag are open inside it, its text so far. */
  let open: { name: string; depth: number; text: string } | null = null;
  const add = (source: SummarySource, text: string) => {
    const value = collapse(text);
    if (value.length >= MIN_CHARS && value.length <= MAX_CHARS && !summaries.some(([, t]) => t === value)) summaries.push([source, detach(value)]);
  };
  return {
    /** `blocksSinceH1`: blocks of the page's text since the h1 opened; `inLink`: inside an <a>. */
    onopentag(name: string, attrs: Record<string, string>, state: { skipped: boolean; inLink: boolean; blocksSinceH1: () => number }) {
      if (name === 'meta') {
        const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
        if ((key === 'og:description' || key === 'twitter:description') && attrs.content) og ??= attrs.content;
        if (key === 'og:type') ogType ??= (attrs.content ?? '').trim().toLowerCase();
      }
      // Done looking, and nothing being read: no element after this one can be the standfirst (standfirstDone stays, and only
      // a new standfirst reads the stack), so its names are not weighed; the stack only stays balanced for onclosetag.
      if (standfirstDone && !open) {
        inOther.push(true);
        return;
      }
      const names = name === 'html' || name === 'body' || (attrs.id === undefined && attrs.class === undefined) ? '' : `${attrs.id ?? ''} ${attrs.class ?? ''}`;
      const other = (inOther.at(-1) ?? false) || NOT_STANDFIRST.has(name) || (names !== '' && otherBox(names)) || (attrs.itemprop !== undefined && AUTHOR_PROP.test(attrs.itemprop));
      inOther.push(other);
      if (open) {
        // Words of two elements are two words ("night.</li><li>Thousands"); a heading inside makes the box a card or a section.
        open.text += ' ';
        if (name === open.name) open.depth += 1;
        if (/^h[1-6]$/.test(name)) open = null;
        return;
      }
      if (state.skipped) return;
      if (name === 'h1') h1Opened = true;
      if (!h1Opened || name === 'h1' || standfirstDone) return;
      if (state.blocksSinceH1() > 1) standfirstDone = true;
      else if (!other && !state.inLink && (standfirstName(names) !== undefined || SUMMARY_PROPS.test(attrs.itemprop ?? ''))) open = { name, depth: 1, text: '' };
      // A subheading that is no standfirst ("<h2 class="sub-head">" is one) starts the article's text.
      else if (BODY_STARTS.test(name)) standfirstDone = true;
    },
    ontext(chunk: string, skipped: boolean) {
      // Not what a hidden element or another box inside it holds (an author's line within the dek's box).
      if (open && !skipped && !inOther.at(-1) && open.text.length < MAX_CHARS * 2) open.text += chunk;
    },
    onclosetag(name: string) {
      inOther.pop();
      if (!open) return;
      open.text += ' ';
      if (name !== open.name || --open.depth > 0) return;
      const text = open.text;
      open = null;
      // A label the size of a word ("Opinion") is not the standfirst: the next such element may be.
      if (collapse(text).length < MIN_CHARS) return;
      standfirstDone = true;
      add('standfirst', text);
    },
    /**
     * Whether the page says it is an article: og:type "article". (Yoast marks a WordPress site's pages "article" too; asking for
     * a publication time as well left 49 of 181 news pages unmarked, which matters more: read on the benchmark's pages.)
     */
    ogArticle: () => ogType === 'article',
    /** The summaries found, standfirst first, then JSON-LD's, then og's. */
    end(jsonLd: string | undefined): PageSummary[] {
      if (jsonLd) add('json_ld', jsonLd);
      if (og) add('og', og.replace(/&amp;/g, '&'));
      return summaries;
    },
  };
}
