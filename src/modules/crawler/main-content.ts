import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { collapseWhiteSpace, detach } from '../../lib/strings.ts';
import type { CrawledPage, CrawlResult } from './crawl.types.ts';
import { pageLanguage } from './language.ts';
import { metadataRule } from './metadata-blocks.ts';
import { ARTICLE_TYPES, createSummaryCollector, jsonLdSummary, type PageSummary } from './page-summaries.ts';
import { blockHash, visibleChars } from './text-hashes.ts';

/**
 * The page's own words, kept by the crawl so the strategy agent drafts from them without
 * downloading the page again: text blocks and headings outside the site's template.
 *
 * Two signals, as a person reading the site would use them:
 * 1. HTML semantics while parsing (this collector): text inside header (outside
 *    <main>/<article>, where a header is the article's own), nav, footer (inside an
 *    article too: its tags, share bar, comments policy), aside, forms, their
 *    ARIA roles, and containers whose id or class names them so (sidebar, breadcrumbs,
 *    comments, language switchers, ...) is template; inside <main>,
 *    <article> or role=main is the page's own; blocks that are mostly link text are
 *    navigation (menus, language bars); code blocks are not prose.
 * 2. The site's own repetition after the crawl (withoutSiteTemplate): a block or heading
 *    that recurs on several pages of the crawl (3 and 5% of them: a version banner, a
 *    footer, a "See also" heading) is template wherever it stands. Notices and warnings
 *    (containers named so) are never the page's topic either.
 */

/**
 * What a text block is, from its nearest structural ancestor: a prose paragraph ('p'), a
 * list item ('l'), a definition term or description ('d'), a quotation ('q'), a caption
 * ('f', not kept) or a table's row ('t'). Only prose speaks for the whole page; a list
 * item, a definition or a row speaks for one thing on it.
 */
export type BlockKind = 'p' | 'l' | 'd' | 'q' | 'f' | 't';

export interface MainContent {
  /** Headings outside the template, in order (h1..h6), symbols such as a permalink's ¶ trimmed. */
  headings: Array<{ level: number; text: string }>;
  /** Text blocks (paragraphs, list items, definitions) of the page's own content, in order. */
  blocks: string[];
  /**
   * The document order of what was kept: a digit 1-6 for each heading of `headings` (its
   * level), 0 where a heading was dropped as the site's template (a section still starts
   * there), and a BlockKind letter for each of `blocks`. Absent on content stored before it.
   */
  order?: string;
  /** Up to 50 image sources without an alt attribute (the checks' own copy is dropped after they run). */
  imagesWithoutAlt?: string[];
  /**
   * Those of imagesWithoutAlt that are no picture of the page's: in its template (header,
   * navigation, footer, sidebar: a logo, a share button) or icon-sized (40 px or less, a
   * bullet, a tracking pixel). Absent when none.
   */
  imagesNotContent?: string[];
  /** Of imagesWithoutAlt, those inside a <figure> with a <figcaption>: [src, the caption's text]. Absent when none. */
  imageCaptions?: Array<[string, string]>;
  /** Of imagesWithoutAlt, those that are a link no words name: [src, the link's address] (the agent tells the site's own from elsewhere: an ad). */
  imageLinks?: Array<[string, string]>;
  /** The @type names of the page's JSON-LD blocks, and whether each parses. */
  jsonLd?: Array<{ valid: boolean; types: string[] }>;
  /** What the page says of itself (page-summaries.ts): its standfirst, JSON-LD description, og:description. Absent when none. */
  summaries?: PageSummary[];
  /** The page says it is an article: og:type "article", or a JSON-LD Article, NewsArticle or BlogPosting. Absent otherwise. */
  article?: true;
  /** Visible characters of the page's own code (pre blocks, blocks mostly code): a listing is not thin prose. Absent when none. */
  codeChars?: number;
  /** Indexes of `blocks` found on several pages though not the template (set by withoutTemplate): never a page's own description. */
  shared?: number[];
  /** Hashes of the blocks of the page's content that are mostly links (a table of contents, an index; a site's navigation lists repeat and are left out later). */
  linkLists?: Int32Array;
  /**
   * Once the page's checks have run, its content waits for the end of the crawl compressed
   * (packMainContent): text kept as JS strings for 20,000 pages cost ~60 MB of heap.
   */
  packed?: PackedContent;
  /**
   * Hashes of every text block and heading of the page, kept or past the budget: a footer
   * after a long article repeats across the site too, and is counted (withoutSiteTemplate).
   */
  seen?: Int32Array;
}

/** Mixed into the hash of a list of links, so that its repetition is counted apart from the same words as text. */
const LINK_LIST_SALT = 0x5bd1e995;

/** At most this many block hashes a page: 1.2 KB, whatever its length. */
const MAX_SEEN = 300;

const MAX_IMAGES = 50;
const MAX_JSON_LD_CHARS = 64 * 1024;

/** Enough for drafts and briefs; bounded so a 20,000-page crawl stays small in memory. */
const MAX_BLOCKS = 24;
const MAX_BLOCK_CHARS = 800;
const MAX_TOTAL_CHARS = 2500;
const MAX_HEADINGS = 30;
/** A block whose text is mostly link text is a menu, a language bar or a list of links. */
const MAX_LINK_SHARE = 0.5;
/**
 * A paragraph (<p>) whose own words make a sentence around its links is prose, however many names it links: a news lead
 * ("<a>James Van Der Beek</a> has been eliminated from “<a>Dancing with the Stars</a>.”"), a deals post's opening. Not a
 * line of links with a label ("Related: <a>...</a>"): its own words are too few, and it ends no sentence of its own.
 */
const PROSE_AROUND_LINKS = { maxLinkShare: 0.85, minOwnChars: 15 };
const ENDS_SENTENCE = /[.!?]["”’)]*\s*$/u;
/** A block that is mostly <code>/<kbd>/<samp> is an example or a command, not prose. */
const MAX_CODE_SHARE = 0.5;
const CODE_TAGS = new Set(['code', 'kbd', 'samp', 'tt', 'var']);
/**
 * A block or heading on this many pages of one crawl, and on at least TEMPLATE_MIN_SHARE of
 * its pages, is the site's template. The share keeps text a large site quotes on a few
 * pages (a release note on its release's page and on the changelog) with its page.
 */
export const TEMPLATE_MIN_PAGES = 3;
export const TEMPLATE_MIN_SHARE = 0.05;

/** An image whose declared width and height are both this or less is an icon, a bullet or a tracking pixel. */
const ICON_PX = 40;
const isIconSized = (attrs: Record<string, string>) => {
  const [width, height] = [Number.parseInt(attrs.width ?? '', 10), Number.parseInt(attrs.height ?? '', 10)];
  // One side of 40 px or less: an icon, a bullet, a pixel, a strip or a tab of the interface, never a picture of the page's.
  return width <= ICON_PX || height <= ICON_PX;
};
const SKIP = new Set(['head', 'title', 'script', 'style', 'noscript', 'template', 'svg', 'button', 'select', 'textarea', 'option', 'math']);
const CHROME_TAGS = new Set(['header', 'footer', 'nav', 'aside', 'form', 'dialog', 'menu']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'dialog', 'alert']);
/** id/class words that name template containers across themes and generators (Readability uses the same kind of list). */
const CHROME_NAME = new RegExp(`(^|[-_\\s])(${[
  'nav', 'navbar', 'navigation', 'menu', 'sidebar', 'breadcrumbs?', 'toc', 'comments?', 'respond', 'reply', 'replies', 'cookie', 'skip',
  'pagination', 'pager', 'related', 'share', 'social', 'topbar', 'bottombar', 'widget', 'advert', 'ads',
  // What to read next, on any page: a shop's "you-may-like", a manual's "read-next".
  'read-next', 'up-next', 'more-from', 'you-may-like',
  // Language switchers ("toplang", "lang-switcher", "languages"), not any id that contains "lang" (a section on a language).
  '(top|bottom)?langs?', 'languages', 'translations', '(lang|language)-?(switch\\w*|select\\w*|bar|menu|chooser|picker|list|nav|links)',
  // Notices, warnings and the version notes of reference pages ("Deprecated since 3.11", "Changed in version 3.3").
  'warning', 'notice', 'note', 'alert', 'admonition', 'caution', 'callout', 'deprecated', 'deprecation', 'version(added|changed|modified)',
].join('|')})([-_\\s]|$)`, 'i');
/**
 * id/class words that name what stands beside an article: its byline, the writer's box, a call to action, a newsletter's sign-up,
 * the most read. Template only on an article's page or inside an <article>: elsewhere the same words name a
 * landing page's hero ("hero cta"), a shop's "popular-products", an author's own page. (Not "meta": a standfirst stands in
 * "post__title__meta" on some themes, and drafting reads it.)
 */
const ARTICLE_FURNITURE_NAME = new RegExp(`(^|[-_\\s])(${[
  'byline', 'author', 'cta', 'newsletter', 'popular', 'trending', 'recommended',
  // Beside an article, an advertiser's or a notice's strip; on a shop's or a landing page's home, its hero: "Coffee worth getting
  // up for" and what the shop sells, in Shopify Dawn's "banner__text".
  'banner',
].join('|')})([-_\\s]|$)`, 'i');
const templateWords = (names: string, article: boolean) => CHROME_NAME.test(names) || (article && ARTICLE_FURNITURE_NAME.test(names));
/**
 * Layout words a theme puts on the article's own container too ("l-sidebar-fixed
 * l-article-body-segment", "content-with-sidebar", "elementor-widget-theme-post-content"):
 * with a word that names content, and no other template word, the container is the content.
 */
const LAYOUT_WORDS = /(^|[-_\s])(sidebar|widget|pagination)(?=[-_\s]|$)/gi;
const CONTENT_NAME = /(^|[-_\s])(article|content|entry|post|story|body)([-_\s]|$)/i;
/** A name for the article's own body or the page's main column ("entry-content", "l-article-body-segment", "main-content", "content-area"). */
const ARTICLE_BODY_NAME = /(^|[-_\s])(?:(?:article|entry|post|story|page|single)[-_]?(?:content|body|text)|main[-_]?content|content[-_]?(?:area|main))([-_\s]|$)/i;
const EMBED_NAME = /(^|[-_\s])embed(?:ded)?([-_\s]|$)/i;
/** Page builders name every box of a page after their own parts ("elementor-widget-wrap", "et_pb_module"): layout, not template. */
const BUILDER_CLASS = /(^|\s)(?:elementor|et_pb|vc|fl|wp-block)[-_]\S*/gi;
/**
 * WordPress names a post's box after its tags and categories ("post-12 hentry tag-popular category-social-media"): what it is
 * about, not what it is. Only beside WordPress's own post classes: a shop's "category-menu" is its menu.
 */
const TAXONOMY_CLASS = /(^|\s)(?:tag|category)-\S*/gi;
const WORDPRESS_POST_CLASS = /(^|\s)(?:hentry|type-[\w-]+|post-\d+)(?=\s|$)/i;
const withoutPlatformNames = (attribute: string) => {
  const names = attribute.replace(BUILDER_CLASS, ' ');
  return WORDPRESS_POST_CLASS.test(names) ? names.replace(TAXONOMY_CLASS, ' ') : names;
};
/** Named as template (`article`: on an article's page or inside an <article>, where its furniture's names count too). */
const templateByName = (written: string, article: boolean) => {
  // (Only here: a caption's or a lead's name in camel case, "embeddedMediaCaption", is read as written.)
  const attribute = withCamelWords(written);
  // Most containers' names hold no template word at all: nothing to strip or weigh.
  if (!templateWords(attribute, article)) return false;
  // A post the article quotes ("social-media-embed", "twitter-embed") is the article's, not a share button.
  if (EMBED_NAME.test(attribute)) return false;
  const names = withoutPlatformNames(attribute);
  return templateWords(names, article) && !(CONTENT_NAME.test(names) && !templateWords(names.replace(LAYOUT_WORDS, '$1'), article));
};
/**
 * A name written in camel case ("relatedContent alignRight", "shareBar") with its words apart as well, so that the word lists
 * read it as they read "related-content"; the name as written stays for the names read whole ("storyBody").
 */
const CAMEL_JOIN = /(?<=\p{Ll})(?=\p{Lu})/gu;
const HAS_CAMEL = /\p{Ll}\p{Lu}/u;
const withCamelWords = (names: string) => (HAS_CAMEL.test(names) ? `${names} ${names.replace(CAMEL_JOIN, '-')}` : names);
/** Named as template only by its layout words ("container penci_sidebar"), not by what it holds ("comments", "related"). */
const layoutOnly = (attribute: string, article: boolean) => !templateWords(withoutPlatformNames(withCamelWords(attribute)).replace(LAYOUT_WORDS, '$1'), article);
/** A page-level container named footer (or copyright, in the words of a few languages: "rodape"): the site's footer, in any language. */
const PAGE_FOOTER_NAME = /(^|[-_\s])(footer|copyright|colophon|rodape|rodapé|pie-de-pagina|pied-de-page|fusszeile)([-_\s]|$)/i;
/** Three or more separators between short items: a menu or a language bar written as text ("Modules | FAQ | Glossary"). */
const SEPARATED_ITEMS = /(?:\s+[|·•]\s+[^|·•]{1,40}){3,}/;
const MAIN_TAGS = new Set(['main', 'article']);
const BLOCK_TAGS = new Set([
  'p', 'div', 'li', 'dd', 'dt', 'blockquote', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside',
  'ul', 'ol', 'dl', 'table', 'tr', 'caption', 'figure', 'figcaption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'center', 'body', 'form',
]);
/** A heading's element and its level (a lookup: this is asked of every block of every page). */
const HEADING_LEVEL = new Map([['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6]]);
/** An item of MainContent.order that is a heading (its level). */
const HEADING_ITEM = /^[0-6]$/;
/** A heading this long or longer, held by the page's <title>, is the page's headline (not "News" or "Video"). */
const MIN_HEADLINE_CHARS = 15;
/** ...and at least this share of the title's (the rest of it is the site's name, a section's). */
const HEADLINE_SHARE = 0.4;
/** Of several articles on a page, none holding its headline, one with this many times the text of any other is the page's. */
const ARTICLE_OUTWEIGHS = 3;

/** Where a headline stands: its list (inside <main>/<article> or not), and how many blocks, headings and items of order it held before it. */
interface Headline {
  list: 'main' | 'other';
  blocks: number;
  headings: number;
  order: number;
}

/** Counts at the opening of a box, to weigh what it held when it closes. */
interface Mark {
  chars: number;
  linkChars: number;
  blocks: { main: number; other: number };
  keptChars: { main: number; other: number };
  order: { main: number; other: number };
  headings: { main: number; other: number };
}

interface Open {
  name: string;
  chrome: boolean;
  /** Template only by an id or class name (no landmark tag or role): the page's own heading inside it proves it wrong. */
  byName: boolean;
  /** Template only by a layout word of its name or an ancestor's ("penci_sidebar"): an article inside it is the article. */
  byLayout?: boolean;
  /** For a box that may be a teaser card (div, li, article, section): what was read and kept when it opened. */
  mark?: Mark;
  main: boolean;
  code: boolean;
  kind: BlockKind;
  /** The innermost <article> (or role=article) it stands in: an index of the collector's `articles`, -1 outside any. */
  article: number;
}

/** Boxes that may be a teaser card, and what makes one: short, and largely the words of its links. */
const CARD_TAGS = new Set(['div', 'article', 'section']);
const CARD = { maxChars: 400, minLinkChars: 20, linkShare: 0.35 };
const HAS_TEXT = /\S/;
/** Text outside <main>/<article> this many times what is inside: the page's article is outside them. */
const OUTWEIGHS = 4;
/** A table row this long, with a sentence's end in it, is prose (a page laid out in a table), not a row of values. */
const ROW_PROSE_CHARS = 200;
/** A figure's caption is kept up to this many characters (alt text is at most 125). */
const MAX_CAPTION_CHARS = 600;
/**
 * The metadata rules that hold in a list too: a list item that is only a date (a related story's) or a piece of the page's
 * furniture ("Share on twitter") is no point of the page.
 */
const LIST_RULES = new Set(['updated_line', 'dateline', 'relative_time', 'dated_line', 'interface_label']);
/**
 * A block that ends cut short by a program ("... may soon..."), and how long a teaser's excerpt is at most. Not a writer's
 * own trailing off ("Let's see in more detail what is in store for you…"), typeset with the ellipsis character.
 */
const TRUNCATED = /\p{L}\.\.\.\s*$/u;
const TEASER_CHARS = 300;
const KIND_OF: Record<string, BlockKind> = { li: 'l', dd: 'd', dt: 'd', blockquote: 'q', figcaption: 'f', figure: 'f', tr: 't', caption: 'f' };
/** Elements that hold a page or its parts, never a caption (a body's "f_caption_muted_videos_on" is a feature flag). */
const CONTAINERS = new Set(['html', 'body', 'main', 'article', 'section']);
/** Names of a picture's caption or credit where a page does not use <figcaption>. */
const CAPTION_NAME = /(^|[-_\s])(caption|credit|cutline|photo-?credit|image-?credit|wp-caption-text)([-_\s]|$)/i;
/**
 * The card a hover or a click opens beside a name ("rollover-people-block", "tooltiptext", "popover-body", "hovercard-content"): its
 * stylesheet hides it until then. Not the name it hangs on ("rollover-people-link", "tooltip"), which the reader sees.
 */
const POPUP_NAME = /(?:^|\s)[\w-]*(?:rollover|hover-?card|tooltip|popover)(?:[-_][a-z]+)?[-_]?(?:block|content|body|text|panel|inner|card)(?:\s|$)/i;
/** The words POPUP_NAME needs: looked for first, as most elements' classes name no card (the name rule tries every start in them). */
const POPUP_WORD = /rollover|hover-?card|tooltip|popover/i;
/** An element the page does not show: the hidden attribute, an inline style that hides it, or a hover card. */
const isHidden = (attrs: Record<string, string>) =>
  (attrs.hidden !== undefined && attrs.hidden !== 'until-found') || (attrs.style !== undefined && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attrs.style))
  || (attrs.class !== undefined && POPUP_WORD.test(attrs.class) && POPUP_NAME.test(attrs.class));
/** Lower case, white space collapsed: for comparing a heading with the page's title. */
const comparable = (text: string) => collapseWhiteSpace(text.toLowerCase());
/** Lower case, its words only ("Só quem se Ama…" and "Só quem se Ama... — Mensagens" compare): for finding a heading in the title. */
const wordsOf = (text: string) => ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_GAP = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}、。]) (?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;
/** White space collapsed; a line break between two CJK characters in the source is not a space in the text. */
export function collapse(text: string): string {
  const single = collapseWhiteSpace(text);
  return CJK_CHAR.test(single) ? single.replace(CJK_GAP, '') : single;
}
/** A heading's trailing permalink or anchor symbol (¶, §, #, 🔗) is not part of its text. */
const headingText = (text: string) => collapse(text).replace(/[\s¶§#🔗⚓]+$/u, '').trim();

/** Fed the parser's events for one page (by the crawl's extractor); end() returns what it kept. */
/**
 * How much of a page's own text is kept. A crawl keeps a bounded budget of every page (what
 * drafting needs, bounded memory at 20,000 pages); a page read alone (the agent reading a
 * page again, the extraction benchmark) keeps its whole article.
 */
export interface ContentBudget {
  blocks: number;
  chars: number;
  /** A block longer than this is kept cut. */
  blockChars: number;
  /** Whether a data table's rows are kept (they are the article's text; drafting never reads them). */
  rows: boolean;
}
export const CRAWL_BUDGET: ContentBudget = { blocks: MAX_BLOCKS, chars: MAX_TOTAL_CHARS, blockChars: MAX_BLOCK_CHARS, rows: false };
export const WHOLE_PAGE: ContentBudget = { blocks: 2_000, chars: 500_000, blockChars: 20_000, rows: true };

export function createMainContentCollector(budget: ContentBudget = CRAWL_BUDGET) {
  const stack: Open[] = [];
  let skip = 0;
  let text = '';
  /** Where the text stood after the last <br> (-1: none since the last block): a second one with nothing between ends a paragraph. */
  let afterBr = -1;
  let linkChars = 0;
  let inLink = 0;
  let codeChars = 0;
  let inCode = 0;
  /** The block links to the page in other languages (hreflang): a language bar. */
  let alternates = false;
  /** A heading being read; `provisional` when it stands in a container template by name only (it may prove the container the page's own). */
  let heading: { level: number; text: string; provisional: boolean } | null = null;
  let sawMain = false;
  /** The page's <title>, to recognise its main heading. */
  let title: string | null = null;
  let inTitle = false;
  /** The title's words (wordsOf), once it is read: compared with each heading. */
  let titleWords: string | undefined;
  let pageHeadingSeen = false;
  const linkLists: number[] = [];
  const kept = { main: [] as string[], other: [] as string[], mainChars: 0, otherChars: 0 };
  const headings = { main: [] as MainContent['headings'], other: [] as MainContent['headings'] };
  const order = { main: '', other: '' };
  /** For each item of order.main, the article it stands in (Open.article). */
  const orderArticle: number[] = [];
  /** The page's articles: whether each holds the page's headline (a heading its <title> holds). */
  const articles: Array<{ titled: boolean }> = [];
  /**
   * The page's headline: its first h1 that its <title> holds or, without one, its first such h2 (an h1 is the site's name
   * on some themes): its list, and what that list held before it.
   */
  const headlines: { h1?: Headline; h2?: Headline } = {};
  const codeByList = { main: 0, other: 0 };
  const top = () => stack[stack.length - 1];
  const imagesWithoutAlt = new Set<string>();
  const imagesNotContent = new Set<string>();
  /** Visible characters read so far, and those inside links: a box's share of link text, when it closes. */
  let readChars = 0;
  let readLinkChars = 0;
  /** Elements open inside a hidden one (the hidden one counted): while above 0, nothing is read. */
  let hiddenDepth = 0;
  /** Open <figure>s: the images without alt in each, and its caption's text so far. */
  const figures: Array<{ images: string[]; caption: string }> = [];
  let inCaption = 0;
  const imageCaptions = new Map<string, string>();
  /** Open links (their address, text so far and images without alt), and the addresses some link names in words. */
  const openLinks: Array<{ href: string; text: string; images: string[] }> = [];
  const namedHrefs = new Set<string>();
  const linkedImages: Array<{ src: string; href: string; named: boolean }> = [];
  /** How often each image without alt appears: one repeated three times or more is the interface's (a separator, a bullet). */
  const altlessCount = new Map<string, number>();
  const seen = new Set<number>();
  const jsonLd: Array<{ valid: boolean; types: string[] }> = [];
  let jsonLdDescription: string | undefined;
  let script: string | null = null;
  const summaries = createSummaryCollector();
  /** An article's page by what it says of itself (og:type article, a JSON-LD article): MainContent.article. */
  const isArticlePage = () => summaries.ogArticle() || jsonLd.some((j) => j.types.some((t) => ARTICLE_TYPES.test(t)));
  /** ...as its head said, read when its <body> opens (its furniture is named as such: ARTICLE_FURNITURE_NAME). */
  let articlePage = false;
  /** Blocks of the page's own text read so far, and when the page's h1 opened: a standfirst follows its headline closely. */
  let ownBlocks = 0;
  let blocksAtH1 = 0;
  const summaryState = { skipped: false, inLink: false, blocksSinceH1: () => ownBlocks - blocksAtH1 };

  /**
   * A short box whose words are largely a link's (a headline linked to another page, and its
   * excerpt), after the page's own text began: a teaser card of another article, not this
   * one's text. What it added is taken back.
   */
  const dropTeaserCard = (mark: Mark, list: 'main' | 'other') => {
    const chars = readChars - mark.chars;
    const links = readLinkChars - mark.linkChars;
    // Only after the page's own text began, in the same part of it (inside <main>/<article> or outside): a short page's one
    // box of text and links is that page. Never a box that holds the page's headline (an h1).
    if (mark.blocks[list] === 0) return;
    if (headings[list].slice(mark.headings[list]).some((h) => h.level === 1)) return;
    if (chars === 0 || chars > CARD.maxChars || links < CARD.minLinkChars || links / chars < CARD.linkShare) return;
    for (const list of ['main', 'other'] as const) {
      kept[list].length = mark.blocks[list];
      headings[list].length = mark.headings[list];
      order[list] = order[list].slice(0, mark.order[list]);
    }
    orderArticle.length = mark.order.main;
    // A headline taken back with the card was another story's.
    for (const level of ['h1', 'h2'] as const) {
      const headline = headlines[level];
      if (headline && headline.order >= order[headline.list].length) delete headlines[level];
    }
    kept.mainChars = mark.keptChars.main;
    kept.otherChars = mark.keptChars.other;
  };

  /**
   * A heading the page's <title> holds, and most of it (lower case, at least a few words' length): the page's own headline,
   * not a section's heading that repeats its first words ("How to retire early" in "How to retire early, step by step: ...").
   */
  const namesPage = (heading: string) => {
    if (title === null || inTitle || heading.length < MIN_HEADLINE_CHARS) return false;
    titleWords ??= wordsOf(title);
    const words = wordsOf(heading);
    return titleWords.includes(words) && words.length >= HEADLINE_SHARE * titleWords.length;
  };

  /**
   * Several articles on a page (its story, and teasers, related or popular posts set as <article>s too, each counted apart
   * from an article it stands in): the page's article is the one that holds its headline (a heading its <title> holds) or,
   * when none or several do, one with three times the text of any other. The others with less text than it are taken out
   * (their blocks and headings); an article longer than it (the body, after a header of its own), and text outside every
   * article, stay.
   */
  const keepOneArticle = () => {
    if (articles.length < 2) return;
    const chars = articles.map(() => 0);
    for (let i = 0, b = 0; i < order.main.length; i++) {
      if (HEADING_ITEM.test(order.main[i]!)) continue;
      const article = orderArticle[i]!;
      if (article >= 0) chars[article]! += kept.main[b]!.length;
      b += 1;
    }
    const withText = chars.flatMap((n, a) => (n > 0 ? [a] : []));
    if (withText.length < 2) return;
    const titled = withText.filter((a) => articles[a]!.titled);
    const [first, second] = withText.sort((x, y) => chars[y]! - chars[x]!);
    // (By its length only on an article's page: a changelog's or a blog index's <article>s are its entries, a long one too.)
    const page = titled.length === 1 ? titled[0]! : isArticlePage() && chars[first!]! >= ARTICLE_OUTWEIGHS * chars[second!]! ? first! : -1;
    if (page < 0) return;
    const drop = (a: number) => a >= 0 && a !== page && chars[a]! < chars[page]!;
    const blocks: string[] = [];
    const heads: MainContent['headings'] = [];
    let items = '';
    for (let i = 0, b = 0, h = 0; i < order.main.length; i++) {
      const item = order.main[i]!;
      const heading = HEADING_ITEM.test(item);
      if (!drop(orderArticle[i]!)) {
        items += item;
        if (heading) heads.push(headings.main[h]!);
        else blocks.push(kept.main[b]!);
      }
      if (heading) h += 1;
      else b += 1;
    }
    kept.main = blocks;
    headings.main = heads;
    order.main = items;
    kept.mainChars = blocks.reduce((n, block) => n + block.length, 0);
  };

  /**
   * What stands before the page's headline (a ticker of other stories, a notice, the template's date or section line) is
   * not its article: taken out when what follows the headline is longer (a headline repeated at a page's foot proves nothing).
   */
  const dropBeforeHeadline = () => {
    const headline = headlines.h1 ?? headlines.h2;
    if (!headline) return;
    const { list, blocks, order: items } = headline;
    const before = kept[list].slice(0, blocks).reduce((n, block) => n + block.length, 0);
    const after = kept[list].slice(blocks).reduce((n, block) => n + block.length, 0);
    if (before === 0 || before >= after) return;
    kept[list] = kept[list].slice(blocks);
    headings[list] = headings[list].slice(headline.headings);
    order[list] = order[list].slice(items);
    if (list === 'main') orderArticle.splice(0, items);
    kept[list === 'main' ? 'mainChars' : 'otherChars'] = after;
  };

  const flush = () => {
    const raw = text;
    const [links, code, languageBar] = [linkChars, codeChars, alternates];
    text = '';
    afterBr = -1;
    linkChars = 0;
    codeChars = 0;
    alternates = false;
    const where = top();
    // Headings are kept apart (onclosetag): a heading's text is not a paragraph.
    // Decided before the text is normalised: most of a page's blocks are template, and cost nothing more.
    if (raw === '' || where?.chrome || HEADING_LEVEL.has(where?.name ?? '')) return;
    if (where?.code) {
      codeByList[where.main ? 'main' : 'other'] += visibleChars(raw);
      return;
    }
    // Shares of the block's visible characters (white space not counted) inside links and code,
    // counted only when there are any: most prose has neither, and the count is a pass over every character.
    const visible = links > 0 || code > 0 ? visibleChars(raw) : raw.trim().length;
    if (visible < 2) return;
    const linkShare = links / visible;
    const codeShare = code / visible;
    // A block of the page's own that is mostly links: a table of contents, an index, a list of pages.
    if (linkShare > MAX_LINK_SHARE && !languageBar && linkLists.length < MAX_SEEN) {
      // Counted apart from text (salted): a menu's "File system" link must not make the page's "File system" heading template.
      const hash = (blockHash(raw) ^ LINK_LIST_SALT) | 0;
      linkLists.push(hash);
      if (seen.size < MAX_SEEN) seen.add(hash);
    }
    // A figure's caption and credits describe a picture, not the page: no block of the page's text (alt text reads the caption apart).
    if (where?.kind === 'f') return;
    const separators = raw.includes('|') || raw.includes('·') || raw.includes('•');
    const list = where?.main ? 'main' : 'other';
    if (codeShare > MAX_CODE_SHARE) codeByList[list] += visible;
    const linkList = linkShare > MAX_LINK_SHARE && !(where?.name === 'p' && linkShare <= PROSE_AROUND_LINKS.maxLinkShare
      && visible - links >= PROSE_AROUND_LINKS.minOwnChars && ENDS_SENTENCE.test(raw));
    if (languageBar || linkList || codeShare > MAX_CODE_SHARE || (separators && SEPARATED_ITEMS.test(raw))) return;
    const chars = list === 'main' ? kept.mainChars : kept.otherChars;
    if (kept[list].length >= budget.blocks || chars >= budget.chars) {
      if (seen.size < MAX_SEEN) seen.add(blockHash(raw));
      return;
    }
    const block = collapse(raw);
    if (seen.size < MAX_SEEN) seen.add(blockHash(block));
    // A byline, a dateline, a copyright line: about the article, not of it.
    // (In a list only a date or a label alone: "November 19, 2019 at 5:10 pm" under a related story's link, "Share on twitter".)
    const metadata = where?.kind === 't' ? undefined : metadataRule(block);
    if (metadata && (where?.kind !== 'l' || LIST_RULES.has(metadata))) return;
    // An excerpt cut short ("... may soon..."): another story's teaser, not this one's text.
    if (TRUNCATED.test(block) && block.length <= TEASER_CHARS) return;
    // A row of a table that holds a sentence or more is a layout table's prose: the page's paragraphs. Other rows are
    // values, kept only when the whole page is read (the crawl's budget is for what drafting reads: prose).
    const sentence = /[.!?]["”’)]?(?:\s|$)/u.test(block);
    // (A short paragraph in a cell stays a row's: a reference table's definitions speak for one thing, never for the page.)
    const rowOfProse = where?.kind === 't' && sentence && block.length >= ROW_PROSE_CHARS;
    if (where?.kind === 't' && !rowOfProse && !budget.rows) return;
    // Detached: a slice of the parsed chunk would keep the whole page's HTML alive.
    const value = detach(block.length > budget.blockChars ? block.slice(0, budget.blockChars) : block);
    kept[list].push(value);
    ownBlocks += 1; // (never taken back with a teaser card: it counts what was read)
    order[list] += rowOfProse ? 'p' : where?.kind ?? 'p';
    if (list === 'main') orderArticle.push(where?.article ?? -1);
    if (list === 'main') kept.mainChars += value.length;
    else kept.otherChars += value.length;
  };

  return {
    onopentag(name: string, attrs: Record<string, string>) {
      if (name === 'body') {
        skip = 0; // a <head> left open ends here
        // What the head says the page is (og:type, a JSON-LD article): an article's furniture is named as such.
        articlePage = isArticlePage();
      }
      if (name === 'title' && title === null) {
        title = '';
        inTitle = true;
      }
      // A <noscript> copy of a lazily loaded image is not counted: its visible twin is the image.
      if (name === 'img' && skip === 0 && attrs.alt === undefined && attrs.src && imagesWithoutAlt.size < MAX_IMAGES) {
        const src = detach(attrs.src.trim());
        imagesWithoutAlt.add(src);
        if (top()?.chrome || isIconSized(attrs)) imagesNotContent.add(src);
        figures.at(-1)?.images.push(src);
        openLinks.at(-1)?.images.push(src);
        altlessCount.set(src, (altlessCount.get(src) ?? 0) + 1);
      }
      if (name === 'a') openLinks.push({ href: (attrs.href ?? '').trim(), text: '', images: [] });
      // Pushed inside skipped elements too, so that each </figure> pops its own (no image of a skipped one is recorded).
      if (name === 'figure') figures.push({ images: [], caption: '' });
      if (name === 'figcaption' && figures.length > 0) inCaption += 1;
      if (name === 'script' && (attrs.type ?? '').toLowerCase() === 'application/ld+json') script = '';
      if (SKIP.has(name)) skip += 1;
      // What the page hides (display:none, the hidden attribute: metadata for machines, a closed dialog) is not read.
      if (hiddenDepth > 0) hiddenDepth += 1;
      // A page that hides its whole body until its scripts run is shown all the same: html and body are never hidden here.
      else if (name !== 'html' && name !== 'body' && isHidden(attrs)) {
        hiddenDepth = 1;
        skip += 1;
      }
      if (name === 'a') inLink += 1;
      if (CODE_TAGS.has(name)) inCode += 1;
      if (name === 'a' && attrs.hreflang) alternates = true;
      // A table's row is one block (its cells' words in order, 't'): a data table's rows are the article's too, never prose.
      // Two line breaks with nothing between end a paragraph: what a page without <p> writes ("<small>05/10/2018 - Publicado
      // por: ...</small><br><br>A equipe ..."), as Readability reads it too.
      if (name === 'br' && skip === 0 && afterBr !== -1 && text.slice(afterBr).trim() === '') flush();
      else if (name === 'br') afterBr = text.length + 1;
      if (name === 'br' || name === 'td' || name === 'th') text += ' ';
      if (name === 'h1' && skip === 0) {
        flush();
        blocksAtH1 = ownBlocks;
      }
      summaryState.skipped = skip > 0;
      summaryState.inLink = inLink > 0;
      summaries.onopentag(name, attrs, summaryState);
      if (!BLOCK_TAGS.has(name)) return;
      flush();
      const parent = top();
      const role = (attrs.role ?? '').toLowerCase();
      // Most blocks have neither id nor class: no name to build, and none of the name rules below can match ''.
      const names = attrs.id === undefined && attrs.class === undefined ? '' : `${attrs.id ?? ''} ${attrs.class ?? ''}`;
      const main = parent?.main === true || MAIN_TAGS.has(name) || role === 'main';
      if (main && !parent?.main) sawMain = true;
      const pageLevel = !parent?.main;
      // A <form> the body holds is an ASP.NET page's (the whole page is one form), not a search box or a sign-up.
      const pageForm = name === 'form' && (parent === undefined || parent.name === 'body' || parent.name === 'html');
      // A header inside <main>/<article> is the article's own (its headline, standfirst, byline); its footer is about it, not of
      // it (tags, share bar, comments policy, the writer's note: HTML's own definition of a footer).
      const landmark = (CHROME_TAGS.has(name) && !pageForm && (pageLevel || name !== 'header')) || CHROME_ROLES.has(role);
      // A div named "header" is too often where a generated page keeps its h1: its repeated parts go by repetition.
      // An <article> (or role main / article) says what it is: a class name ("url-breadcrumb", a script's hook) does not overrule it.
      const semantic = name === 'article' || role === 'main' || role === 'article';
      // An article's furniture is named as such on an article's page, or inside an <article> of any page.
      const aboutArticle = articlePage || (parent?.article ?? -1) >= 0;
      const named = names !== '' && name !== 'body' && !semantic && (templateByName(names, aboutArticle) || (pageLevel && PAGE_FOOTER_NAME.test(names)));
      // The article inside a container read as template by its name alone ("container penci_sidebar"): the article wins.
      // (By name, only a name for the article's own body: "tweet-content" or "card-body" in a widget is the widget's.)
      const articleInLayout = parent?.byLayout === true && (semantic || (ARTICLE_BODY_NAME.test(names) && !named));
      const chrome = (parent?.chrome === true && !articleInLayout) || landmark || named;
      const byName = chrome && !landmark && (parent?.chrome ? parent.byName : true);
      const byLayout = byName && (named ? layoutOnly(names, aboutArticle) && (!parent?.chrome || parent.byLayout === true) : parent?.byLayout === true);
      // A caption or a photo credit outside <figure> ("wp-caption-text", "image-credit", "cutline") is one all the same.
      const kind = KIND_OF[name] ?? (names !== '' && !CONTAINERS.has(name) && CAPTION_NAME.test(names) ? 'f' : parent?.kind) ?? 'p';
      const mark: Mark | undefined = CARD_TAGS.has(name) && !chrome ? {
        chars: readChars, linkChars: readLinkChars,
        blocks: { main: kept.main.length, other: kept.other.length }, keptChars: { main: kept.mainChars, other: kept.otherChars },
        order: { main: order.main.length, other: order.other.length }, headings: { main: headings.main.length, other: headings.other.length },
      } : undefined;
      const article = semantic && role !== 'main' ? articles.push({ titled: false }) - 1 : parent?.article ?? -1;
      // (mark undefined rather than absent: every Open of one shape, read by one fast path.)
      stack.push({ name, chrome, byName, byLayout, main, code: parent?.code === true || name === 'pre', kind, article, mark });
      const level = HEADING_LEVEL.get(name);
      if (level && (!chrome || (byName && !pageHeadingSeen))) heading = { level, text: '', provisional: chrome };
    },
    ontext(chunk: string) {
      if (inTitle) title += chunk;
      if (script !== null && script.length < MAX_JSON_LD_CHARS) script += chunk;
      summaries.ontext(chunk, skip > 0);
      if (skip > 0) return;
      text += chunk;
      // A box's share of link text, in raw lengths of the chunks that hold any letter (the indentation between tags left
      // out): counting each visible character is not worth a pass over every chunk here.
      if (HAS_TEXT.test(chunk)) {
        readChars += chunk.length;
        if (inLink > 0) readLinkChars += chunk.length;
      }
      if (inCaption > 0 && figures.at(-1)!.caption.length < MAX_CAPTION_CHARS) figures.at(-1)!.caption += chunk;
      const link = openLinks.at(-1);
      if (link && link.text.length < 200) link.text += chunk;
      if (inLink > 0 || inCode > 0) {
        const visible = visibleChars(chunk);
        if (inLink > 0) linkChars += visible;
        if (inCode > 0) codeChars += visible;
      }
      if (heading) heading.text += chunk;
    },
    onclosetag(name: string) {
      if (name === 'script' && script !== null) {
        const parsed = jsonLdTypes(script);
        jsonLd.push({ valid: parsed.valid, types: parsed.types });
        jsonLdDescription ??= parsed.description;
        // A JSON-LD article in the body says what the page is from here on (its furniture after it is named as such).
        articlePage ||= isArticlePage();
        script = null;
      }
      summaries.onclosetag(name);
      // Flat: a string built from the parser's chunks would keep the page's HTML alive with the collector.
      if (name === 'title' && inTitle) {
        inTitle = false;
        title = detach(title ?? '');
      }
      if (SKIP.has(name)) skip = Math.max(0, skip - 1);
      if (hiddenDepth > 0 && --hiddenDepth === 0) skip = Math.max(0, skip - 1);
      if (name === 'figcaption' && inCaption > 0) inCaption -= 1;
      if (name === 'a' && openLinks.length > 0) {
        const link = openLinks.pop()!;
        const named = /[\p{L}\p{N}]/u.test(link.text);
        if (named && link.href && namedHrefs.size < MAX_SEEN) namedHrefs.add(link.href);
        for (const src of link.images) if (linkedImages.length < MAX_IMAGES * 4) linkedImages.push({ src, href: link.href, named });
      }
      if (name === 'figure' && figures.length > 0) {
        const figure = figures.pop()!;
        const caption = collapse(figure.caption);
        if (caption.length >= 3) for (const src of figure.images) imageCaptions.set(src, detach(caption));
      }
      if (name === 'a') inLink = Math.max(0, inLink - 1);
      if (CODE_TAGS.has(name)) inCode = Math.max(0, inCode - 1);
      if (!BLOCK_TAGS.has(name)) return;
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== name) at -= 1;
      if (at === -1) return;
      flush();
      const closing = stack[at]!;
      if (heading && HEADING_LEVEL.has(name)) {
        const value = headingText(heading.text);
        const provisional = heading.provisional;
        heading = null;
        // A container named like a template part ("comment", "notice") that holds the page's own
        // heading (its title's words) is the page's content after all: a reference entry about
        // the COMMENT command, a section about notices.
        const owned = provisional && value !== '' && title !== null && comparable(title).startsWith(comparable(value));
        if (provisional && !owned) {
          stack.length = at;
          return;
        }
        if (owned) for (const open of stack) if (open.byName) open.chrome = open.byName = false;
        if (value && (owned || Number(name[1]) <= 2)) pageHeadingSeen = true;
        const list = closing.main ? 'main' : 'other';
        if (value && seen.size < MAX_SEEN) seen.add(blockHash(value));
        if (value && headings[list].length < MAX_HEADINGS) {
          headings[list].push({ level: Number(name[1]), text: detach(value) });
          order[list] += name[1];
          if (list === 'main') orderArticle.push(closing.article);
          const titled = namesPage(value);
          if (closing.article >= 0 && titled) articles[closing.article]!.titled = true;
          if (titled && (name === 'h1' || name === 'h2')) headlines[name] ??= { list, blocks: kept[list].length, headings: headings[list].length - 1, order: order[list].length - 1 };
        }
      }
      if (closing.mark) dropTeaserCard(closing.mark, closing.main ? 'main' : 'other');
      stack.length = at;
    },
    end(): MainContent {
      flush();
      title = null;
      dropBeforeHeadline();
      keepOneArticle();
      // An image in a link that words already name (in the same link, or another link to the same address: a teaser card's
      // picture beside its headline) is decorative (W3C: alt=""), and so is one the page repeats.
      const imageLinks = new Map<string, string>();
      for (const { src, href, named } of linkedImages) {
        if (named || (href && namedHrefs.has(href))) imagesNotContent.add(src);
        else if (href) imageLinks.set(src, detach(href));
      }
      for (const [src, count] of altlessCount) if (count >= 3) imagesNotContent.add(src);
      const own = summaries.end(jsonLdDescription);
      // Counted with the page's blocks: an og:description every page carries is the site's, not this page's.
      for (const [, summary] of own) if (seen.size < MAX_SEEN) seen.add(blockHash(summary));
      // With <main>/<article>, only what is inside; without, every block outside the template.
      // ...unless what is outside holds far more text than what is inside: a page builder's article outside any <article>,
      // beside a few <article> teasers of other posts.
      const mainIsSmall = kept.otherChars > OUTWEIGHS * kept.mainChars && kept.otherChars > 1_000;
      const useMain = sawMain && (kept.main.length > 0 || headings.main.length > 0) && !mainIsSmall;
      const ownCode = useMain ? codeByList.main : codeByList.main + codeByList.other;
      const extra = {
        imagesWithoutAlt: [...imagesWithoutAlt], ...(imagesNotContent.size > 0 ? { imagesNotContent: [...imagesNotContent] } : {}),
        ...(imageCaptions.size > 0 ? { imageCaptions: [...imageCaptions] } : {}), ...(imageLinks.size > 0 ? { imageLinks: [...imageLinks] } : {}), jsonLd, seen: Int32Array.from(seen), linkLists: Int32Array.from(linkLists), ...(ownCode > 0 ? { codeChars: ownCode } : {}),
        ...(own.length > 0 ? { summaries: own } : {}),
        ...(isArticlePage() ? { article: true as const } : {}),
      };
      // Flat copies: the order was built a character at a time, a tree of small strings 20x its size.
      return useMain
        ? { headings: headings.main, blocks: kept.main, order: detach(order.main), ...extra }
        : { headings: [...headings.main, ...headings.other], blocks: [...kept.main, ...kept.other], order: detach(order.main + order.other), ...extra };
    },
  };
}

function jsonLdTypes(text: string): { valid: boolean; types: string[]; description?: string } {
  try {
    const data = JSON.parse(text) as unknown;
    const nodes = (Array.isArray(data) ? data : [data]).flatMap((node) => {
      const graph = (node as { '@graph'?: unknown })?.['@graph'];
      return Array.isArray(graph) ? graph : [node];
    });
    const description = jsonLdSummary(nodes);
    return { valid: true, types: nodes.flatMap((n) => [(n as { '@type'?: unknown })?.['@type'] ?? []].flat()).map((t) => detach(String(t))), ...(description ? { description } : {}) };
  } catch {
    return { valid: false, types: [] };
  }
}


/**
 * Compressed (fastest level: the crawl pays it per page), in a buffer of its own size: zlib's result is a view into its 16 KB output
 * chunk, which 20,000 pages would keep alive (1.2 GB, measured).
 */
function deflated(text: string): Buffer {
  const view = deflateRawSync(text, { level: 1 });
  const own = Buffer.allocUnsafeSlow(view.length);
  view.copy(own);
  return own;
}

/**
 * Pages' packed content is compressed this many at a time: deflate's set-up (a stream object, its
 * tables) cost more than compressing a page's 3 KB (14 against 3 us a page, measured on the bench's
 * pages), and one template's words repeated across the batch compress better too.
 */
const PACK_BATCH = 16;

/** Up to PACK_BATCH pages' content as JSON: waiting as text until the batch is full, then compressed together. */
class PackBatch {
  /** The pages' JSON, until the batch is compressed. */
  texts: string[] | null = [];
  /** Where each page's JSON ends in the batch's text. */
  readonly ends: number[] = [];
  deflated: Buffer | null = null;

  add(json: string): number {
    const texts = this.texts!;
    this.ends.push((this.ends.at(-1) ?? 0) + json.length);
    texts.push(json);
    if (texts.length === PACK_BATCH) {
      this.deflated = deflated(texts.join(''));
      this.texts = null;
    }
    return texts.length - 1;
  }

  /** The batch's text, inflated again (the last two are kept: records are made in about the order pages were packed). */
  text(): string {
    const cached = inflatedBatches.find((entry) => entry.batch === this);
    if (cached) return cached.text;
    const text = inflateRawSync(this.deflated!).toString('utf8');
    inflatedBatches.unshift({ batch: this, text });
    inflatedBatches.length = Math.min(inflatedBatches.length, 2);
    return text;
  }

  json(index: number): string {
    if (this.texts) return this.texts[index]!;
    return this.text().slice(index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
  }
}
const inflatedBatches: Array<{ batch: PackBatch; text: string }> = [];
let packing = new PackBatch();

/** A page's content, packed (packMainContent): its place in a batch. */
export class PackedContent {
  private readonly batch: PackBatch;
  private readonly index: number;
  constructor(batch: PackBatch, index: number) {
    this.batch = batch;
    this.index = index;
  }
  json(): string {
    return this.batch.json(this.index);
  }
}

/** The part of a page's content that is packed while the crawl goes on. */
type Packable = Pick<MainContent, 'headings' | 'blocks' | 'order' | 'imagesWithoutAlt' | 'imagesNotContent' | 'imageCaptions' | 'imageLinks' | 'jsonLd' | 'summaries'>;

/** The page's content compressed (deflate, with the next pages packed), its hashes kept as they are for counting repetition. */
export function packMainContent(main: MainContent): MainContent {
  const { headings, blocks, order, imagesWithoutAlt, imagesNotContent, imageCaptions, imageLinks, jsonLd, summaries, ...rest } = main;
  const packable: Packable = {
    headings, blocks, ...(order === undefined ? {} : { order }), ...(imagesWithoutAlt ? { imagesWithoutAlt } : {}),
    ...(imagesNotContent ? { imagesNotContent } : {}), ...(imageCaptions ? { imageCaptions } : {}), ...(imageLinks ? { imageLinks } : {}), ...(jsonLd ? { jsonLd } : {}),
    ...(summaries ? { summaries } : {}),
  };
  const batch = packing;
  const index = batch.add(JSON.stringify(packable));
  if (batch.deflated) packing = new PackBatch();
  return { ...rest, headings: [], blocks: [], packed: new PackedContent(batch, index) };
}

export function unpackMainContent(main: MainContent): MainContent {
  if (!main.packed) return main;
  const { packed, ...rest } = main;
  return { ...rest, ...(JSON.parse(packed.json()) as Packable) };
}

/**
 * What recurs across the crawl: a block or heading found on TEMPLATE_MIN_PAGES or more
 * pages (and TEMPLATE_MIN_SHARE of them) is the site's template (a version banner, a notice,
 * a sidebar heading). Counted once per page, and once for all URLs that serve the same
 * content. Returns whether a text (or a block's hash) is the page's own.
 */
export function siteTemplate(pages: ReadonlyArray<MainContent | undefined>, contentHashes: ReadonlyArray<string | undefined> = [], languages: ReadonlyArray<string | null> = []) {
  const counts = new Map<number, number>();
  // Repetition among pages of one language: an untranslated paragraph copied into every translation is not boilerplate of its own page.
  const inLanguage = new Map<number, number>();
  const languageKey = new Map<string, number>();
  const keyOf = (hash: number, i: number) => {
    const language = languages[i] ?? '';
    let n = languageKey.get(language);
    if (n === undefined) languageKey.set(language, (n = languageKey.size));
    return (hash + Math.imul(n, 0x9e3779b1)) | 0;
  };
  // One page served under several URLs (same content hash) counts once: its text is not the template.
  const copies = new Set<string>();
  let counted = 0;
  const keysOf = (page: MainContent) => new Set(page.seen ?? [...page.blocks, ...page.headings.map((h) => h.text)].map(blockHash));
  const counting = pages.map((page, i) => {
    const hash = contentHashes[i];
    if (!page || (hash && copies.has(hash))) return false;
    if (hash) copies.add(hash);
    counted += 1;
    for (const key of keysOf(page)) counts.set(key, (counts.get(key) ?? 0) + 1);
    return true;
  });
  // Per language, only what repeats on several pages at all: a second count of every hash of a
  // 20,000-page crawl would double this map (measured by review), and one language needs none.
  const multilingual = new Set(languages.map((l) => l ?? '')).size > 1;
  if (multilingual) {
    pages.forEach((page, i) => {
      if (!page || !counting[i]) return;
      for (const key of keysOf(page)) {
        if ((counts.get(key) ?? 0) < TEMPLATE_MIN_PAGES) continue;
        const local = keyOf(key, i);
        inLanguage.set(local, (inLanguage.get(local) ?? 0) + 1);
      }
    });
  }
  const threshold = Math.max(TEMPLATE_MIN_PAGES, Math.ceil(counted * TEMPLATE_MIN_SHARE));
  const ownHash = (hash: number) => (counts.get(hash) ?? 0) < threshold;
  // Below the template's share but on several pages of one language: boilerplate a section repeats ("This module is considered trusted ...").
  const shared = (text: string, page: number) =>
    ((multilingual ? inLanguage.get(keyOf(blockHash(text), page)) : counts.get(blockHash(text))) ?? 0) >= TEMPLATE_MIN_PAGES;
  // (The share of the pages a text is on: a page's own headline under another page's heading, never on most of them.)
  const onMost = (text: string) => (counts.get(blockHash(text)) ?? 0) * 2 >= counted;
  return { own: (text: string) => ownHash(blockHash(text)), ownHash, shared, onMost };
}

/**
 * A page's main heading that its title opens with names the page, even where other pages name it too ("Teeth Whitening" on a
 * dentist's services grid): it is template only on most of the site's pages (a site's name in every page's h1).
 */
const namesOwnPage = (heading: MainContent['headings'][number], title: string | null | undefined, template: ReturnType<typeof siteTemplate>) =>
  heading.level === 1 && title != null && comparable(title).startsWith(comparable(heading.text)) && !template.onMost(heading.text);

/**
 * A heading of the page's own sections that other pages name too ("Teeth Whitening" among a dentist's services, each over a line
 * of its own, also a card on the home page and the h1 of its own page): the page's own when the block under it is, and another
 * heading at its level is; template only on most pages. (Read by the practice's owner: the services description left it out.) A
 * heading over nothing of the page's own (a grid of names, a sidebar's "Related posts" over its links) stays template.
 */
function ownSectionHeadings(page: MainContent, ownHeadings: boolean[], ownBlocks: boolean[], template: ReturnType<typeof siteTemplate>): boolean[] {
  if (page.order === undefined || ownHeadings.every(Boolean)) return ownHeadings;
  // The page's items in order, each a heading (its level and index) or a block (its index); '0' (a heading dropped before) neither.
  const items: Array<{ level: string; h: number } | { b: number }> = [];
  const position: number[] = []; // of each heading in items
  let h = 0;
  let b = 0;
  for (const item of page.order) {
    if (item === '0') continue;
    if (HEADING_ITEM.test(item)) position[h] = items.push({ level: item, h: h++ }) - 1;
    else items.push({ b: b++ });
  }
  const ownAtLevel = new Map<string, number>();
  for (const item of items) if ('level' in item && ownHeadings[item.h]) ownAtLevel.set(item.level, (ownAtLevel.get(item.level) ?? 0) + 1);
  return ownHeadings.map((own, i) => {
    if (own) return true;
    const at = position[i];
    if (at === undefined) return false;
    const heading = items[at] as { level: string; h: number };
    const under = items[at + 1];
    return heading.level !== '1' && under !== undefined && 'b' in under && ownBlocks[under.b] === true
      && (ownAtLevel.get(heading.level) ?? 0) > 0 && !template.onMost(page.headings[i]!.text);
  });
}

/** A page's content without the site's template (its lists of links counted only when they are its own). */
export function withoutTemplate<T extends MainContent>(page: T, template: ReturnType<typeof siteTemplate>, index = -1, title?: string | null): T {
  const full = unpackMainContent(page);
  const blocks = full.blocks.map(template.own);
  const headings = ownSectionHeadings(full, full.headings.map((h) => template.own(h.text) || namesOwnPage(h, title, template)), blocks, template);
  const kept = full.blocks.filter((_, i) => blocks[i]);
  const shared = kept.flatMap((block, i) => (template.shared(block, index) ? [i] : []));
  // A summary other pages carry too (a site-wide og:description, a section's stock standfirst) is no page's own.
  const summaries = full.summaries?.filter(([, text]) => template.own(text) && !template.shared(text, index));
  const { summaries: _all, ...rest } = full;
  return {
    ...rest,
    ...(summaries && summaries.length > 0 ? { summaries } : {}),
    headings: full.headings.filter((_, i) => headings[i]),
    blocks: kept,
    ...(shared.length > 0 ? { shared } : {}),
    ...(full.order === undefined ? {} : { order: orderWithout(full.order, headings, blocks) }),
    ...(full.linkLists === undefined ? {} : { linkLists: full.linkLists.filter(template.ownHash) }),
  } as T;
}

/** The pages' kept content without what recurs across the crawl (siteTemplate, withoutTemplate). */
export function withoutSiteTemplate<T extends MainContent | undefined>(pages: T[], contentHashes: ReadonlyArray<string | undefined> = [], titles: ReadonlyArray<string | null | undefined> = []): T[] {
  const template = siteTemplate(pages, contentHashes);
  return pages.map((page, i) => (page ? withoutTemplate(page, template, i, titles[i]) : page));
}

/** The order without the dropped blocks; a dropped heading stays as 0: its section still begins there. */
function orderWithout(order: string, keptHeadings: boolean[], keptBlocks: boolean[]): string {
  let h = 0;
  let b = 0;
  let out = '';
  for (const item of order) {
    if (item >= '1' && item <= '6') out += keptHeadings[h++] ? item : '0';
    else if (item === '0') out += item;
    else if (keptBlocks[b++]) out += item;
  }
  return out;
}

/** What an audit stores of a page for the agents (audit_pages.content). */
export interface StoredPageContent {
  lang: string | null;
  headings: MainContent['headings'];
  blocks: string[];
  /** MainContent.order, after the template was removed (absent on audits stored before it). */
  order?: string;
  /** MainContent.shared: blocks other pages repeat (absent when none). */
  shared?: number[];
  words: number;
  /** Up to 50 image sources without an alt attribute. */
  images_without_alt: string[];
  /** Those of images_without_alt that are no picture of the page's (MainContent.imagesNotContent); absent when none, and on audits stored before it. */
  images_not_content?: string[];
  /** MainContent.imageCaptions: images without alt and the caption of their figure (absent when none). */
  image_captions?: Array<[string, string]>;
  /** MainContent.imageLinks: images without alt that are a link no words name, and its address (absent when none). */
  image_links?: Array<[string, string]>;
  /** MainContent.linkLists (absent on audits stored before it). */
  link_lists?: number;
  /** MainContent.codeChars (absent when the page has no code, and on audits stored before it). */
  code_chars?: number;
  /** MainContent.summaries, the site's repeated ones removed (absent when none, and on audits stored before it). */
  summaries?: PageSummary[];
  /** MainContent.article (absent when not, and on audits stored before it). */
  article?: true;
  json_ld: Array<{ valid: boolean; types: string[] }>;
  /** Up to 50 internal link targets each that answered with an error (or nothing), or redirected, in this crawl. */
  links_to_errors: string[];
  links_to_redirects: string[];
}

/** What an audit stores of a page (its own content, template removed) with its links' statuses as the crawl found them. */
export function storedPageContent(lang: string | null, words: number, main: MainContent, links: Pick<StoredPageContent, 'links_to_errors' | 'links_to_redirects'>): StoredPageContent {
  return {
    lang, headings: main.headings, blocks: main.blocks, ...(main.order === undefined ? {} : { order: main.order }),
    ...(main.shared ? { shared: main.shared } : {}), words,
    images_without_alt: main.imagesWithoutAlt ?? [], ...(main.imagesNotContent ? { images_not_content: main.imagesNotContent } : {}),
    ...(main.imageCaptions ? { image_captions: main.imageCaptions } : {}), ...(main.imageLinks ? { image_links: main.imageLinks } : {}),
    json_ld: main.jsonLd ?? [], link_lists: main.linkLists?.length ?? 0,
    ...(main.codeChars ? { code_chars: main.codeChars } : {}),
    ...(main.summaries ? { summaries: main.summaries } : {}),
    ...(main.article ? { article: true as const } : {}),
    ...links,
  };
}

/**
 * The audit_pages rows of a crawl: each page with its click depth, internal links in,
 * content hash, redirect target, and its own text with the site's template removed
 * (StoredPageContent as JSON, made when its batch is written).
 */
export function auditPageRecords(crawl: Pick<CrawlResult, 'pages' | 'urls'>) {
  const inlinks = new Map<string, number>();
  for (const page of crawl.pages) {
    for (const id of new Set(page.outlinks)) {
      const url = crawl.urls[id]!;
      if (url !== page.url) inlinks.set(url, (inlinks.get(url) ?? 0) + 1);
    }
  }
  const languages = crawl.pages.map((p) => (p.facts ? pageLanguage(p.url, p.facts) : null));
  const template = siteTemplate(crawl.pages.map((p) => p.facts?.main), crawl.pages.map((p) => p.facts?.textHash), languages);
  const status = new Map(crawl.pages.map((p) => [p.url, p]));
  const targets = (page: CrawledPage, matches: (p: CrawledPage) => boolean) => {
    const out: string[] = [];
    for (const id of new Set(page.outlinks)) {
      const target = status.get(crawl.urls[id]!);
      if (target && matches(target) && out.length < 50) out.push(target.url);
    }
    return out;
  };
  return crawl.pages.map((p, i) => {
    const facts = p.facts;
    // Made when its batch is written, one page at a time: every page's text unpacked at once would
    // be the memory the packing saved, and content made ahead would have to wait compressed again.
    const content = () => {
      if (!facts?.main) return null;
      const main = withoutTemplate(facts.main, template, i, facts.titles[0]);
      return JSON.stringify(storedPageContent(languages[i]!, facts.wordCount, main, {
        links_to_errors: targets(p, (t) => t.status === 0 || (t.status !== null && t.status >= 400)),
        links_to_redirects: targets(p, (t) => t.status !== null && t.status >= 300 && t.status < 400),
      }));
    };
    return {
      url: p.url, status: p.status, title: facts?.titles[0] ?? null, meta_description: facts?.metaDescriptions[0] ?? null,
      depth: p.depth, inlinks: inlinks.get(p.url) ?? 0, content_hash: facts?.textHash ?? null,
      redirect_to: p.redirectTarget ?? null, content,
      rendering: p.rendering ? JSON.stringify(p.rendering) : null,
    };
  });
}
