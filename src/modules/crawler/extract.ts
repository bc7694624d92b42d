import { Parser } from 'htmlparser2';
import { createMainContentCollector, CRAWL_BUDGET, type ContentBudget, type MainContent } from './main-content.ts';
import { collapseWhiteSpace } from '../../lib/strings.ts';
import { createTextDigest, visibleChars } from './text-hashes.ts';
import { FastTokenizer } from './fast-tokenizer.ts';

/** What one HTML page says about itself: the facts the checks need, never the HTML. */
export interface PageFacts {
  titles: string[];
  metaDescriptions: string[];
  /** Directives from <meta name="robots"> and bot-specific variants, lower case. */
  metaRobots: string[];
  canonicals: string[];
  hreflangs: Array<{ lang: string; href: string }>;
  headings: Array<{ level: number; text: string }>;
  images: Array<{ src: string; alt: string | null }>;
  /** `code`: the link's text is set as code (a keyword such as `continue`, not "continue reading"). */
  links: Array<{ href: string; text: string; nofollow: boolean; code?: true }>;
  formActions: string[];
  lang: string | null;
  /** The first lang (or xml:lang) an element inside the page declares, for pages whose <html> declares none (a book's chapter <div>). */
  contentLang?: string;
  hasViewport: boolean;
  jsonLd: Array<{ valid: boolean; types: string[] }>;
  generator: string | null;
  /** The first 50 script, stylesheet and image URLs: platforms show in their asset paths. */
  assets: string[];
  wordCount: number;
  /** A 64-bit key of the visible text, lower-cased with white space collapsed: equal for duplicate content (text-hashes.ts). */
  textHash: string;
  /** Fragment targets: every id, and the name of every <a name> (see collectAnchor). */
  anchorIds: string[];
  /** The page's own text blocks and headings, for the strategy agent's drafts (main-content.ts). */
  main?: MainContent;
  /** What says a page is built by JavaScript (render-rules.ts): absent on pages with no script, noscript or pseudo-link. */
  scripting?: ScriptingSignals;
}

/** Signals, read from the HTML as it is parsed, that its content is made by scripts. */
export interface ScriptingSignals {
  /** <script> elements (external or inline; JSON-LD is data, not counted). */
  scripts: number;
  /** An application's mount point (`<div id="root">`, `<app-root>`, `[ng-app]`...) and how much text the HTML gives it. */
  appRoot?: { selector: string; chars: number };
  /** The text of the first <noscript> that has any (up to 200 characters). */
  noscript?: string;
  /** Elements that act as links with no address a crawler can follow: `<a>` without href, `role="link"`, `onclick` navigation. Their text, up to 10. */
  pseudoLinks?: string[];
}

/** Where single-page applications mount: React (create-react-app, Vite), Next, Nuxt, Gatsby, Vue, Svelte, Angular, Ember, Remix. */
const APP_ROOT_IDS = new Set(['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'app-root', 'application', 'main-app', 'react-root', 'ember-application', 'q-app']);
const APP_ROOT_TAGS = new Set(['app-root', 'ng-app']);
/** Text beyond this inside an app root: it is server-rendered, counting further is wasted. */
const APP_ROOT_ENOUGH = 200;
/** onclick code that navigates: a link a crawler cannot follow. */
const NAVIGATING_CLICK = /\b(?:location(?:\.href)?\s*=|location\.(?:assign|replace)\(|window\.open\(|navigate\(|router\.push\(|history\.pushState\()/;
const MAX_PSEUDO_LINKS = 10;

const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg']);
const CONTENT_CONTAINERS = new Set(['body', 'main', 'article', 'section', 'div']);
const ROBOTS_NAMES = new Set(['robots', 'siteoptimizationbot', 'googlebot']);

/** A streaming extractor: write() chunks as they arrive, then end() for the facts. */
export function createExtractor(budget: ContentBudget = CRAWL_BUDGET) {
  const facts: PageFacts = {
    titles: [], metaDescriptions: [], metaRobots: [], canonicals: [], hreflangs: [], headings: [], images: [],
    links: [], formActions: [], lang: null, hasViewport: false, jsonLd: [], generator: null, assets: [], wordCount: 0, textHash: '',
    anchorIds: [],
  };
  // Visible text goes to the word count and the duplicate-content key as the parser reads it.
  const visible = createTextDigest();
  let skipDepth = 0;
  const main = createMainContentCollector(budget);

  let inHead = false;
  let title: string | null = null;
  let heading: { level: number; text: string } | null = null;
  let link: { href: string; text: string; nofollow: boolean; code?: true } | null = null;
  let jsonLd: string | null = null;
  let scripting: ScriptingSignals | undefined;
  const signals = () => (scripting ??= { scripts: 0 });
  // The app root being read: its element's name, how many of that name are open inside it, and its text so far.
  let appRoot: { name: string; nested: number; chars: number; selector: string } | null = null;
  let noscript: string | null = null;
  let pseudoLink: { name: string; text: string } | null = null;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        collectAnchor(facts, name, attrs);
        main.onopentag(name, attrs);
        // From a container of the page's content, not a link or a word in a language switcher (<a lang="de">Deutsch</a>).
        if (CONTENT_CONTAINERS.has(name) && facts.contentLang === undefined && !inHead) {
          const declared = (attrs.lang ?? attrs['xml:lang'])?.trim();
          if (declared) facts.contentLang = declared;
        }
        if (SKIP_TEXT.has(name)) skipDepth += 1;
        if (appRoot) {
          if (name === appRoot.name) appRoot.nested += 1;
        } else if (!inHead && scripting?.appRoot === undefined && (APP_ROOT_TAGS.has(name) || (attrs.id !== undefined && APP_ROOT_IDS.has(attrs.id)) || 'ng-app' in attrs || 'data-reactroot' in attrs)) {
          appRoot = { name, nested: 0, chars: 0, selector: attrs.id && APP_ROOT_IDS.has(attrs.id) ? `${name}#${attrs.id}` : 'ng-app' in attrs ? `${name}[ng-app]` : 'data-reactroot' in attrs ? `${name}[data-reactroot]` : name };
        }
        if (name === 'noscript' && noscript === null && signals().noscript === undefined) noscript = '';
        if (!pseudoLink && !link && isPseudoLink(name, attrs)) pseudoLink = { name, text: '' };
        switch (name) {
          case 'html':
            facts.lang = attrs.lang?.trim() || attrs['xml:lang']?.trim() || null;
            break;
          case 'head':
            inHead = true;
            break;
          case 'title':
            if (inHead || facts.titles.length === 0) title = '';
            break;
          case 'meta': {
            const metaName = attrs.name?.toLowerCase();
            const content = attrs.content ?? '';
            if (metaName === 'description') facts.metaDescriptions.push(content.trim());
            else if (metaName === 'viewport') facts.hasViewport = true;
            else if (metaName === 'generator') facts.generator = content.trim();
            else if (metaName && ROBOTS_NAMES.has(metaName)) {
              facts.metaRobots.push(...content.toLowerCase().split(',').map((d) => d.trim()).filter(Boolean));
            }
            break;
          }
          case 'link': {
            const rel = relTokens(attrs.rel);
            if (rel.includes('canonical') && attrs.href !== undefined) facts.canonicals.push(attrs.href.trim());
            if (rel.includes('stylesheet') && attrs.href && facts.assets.length < 50) facts.assets.push(attrs.href);
            if (rel.includes('alternate') && attrs.hreflang && attrs.href) {
              facts.hreflangs.push({ lang: attrs.hreflang.trim(), href: attrs.href.trim() });
            }
            break;
          }
          case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
            heading = { level: Number(name[1]), text: '' };
            break;
          case 'a':
            if (attrs.href !== undefined) {
              link = { href: attrs.href.trim(), text: '', nofollow: relTokens(attrs.rel).includes('nofollow') };
            }
            break;
          case 'img':
            if (attrs.src && facts.assets.length < 50) facts.assets.push(attrs.src);
            facts.images.push({ src: (attrs.src ?? '').trim(), alt: attrs.alt ?? null });
            if (link && attrs.alt) link.text += ` ${attrs.alt}`;
            break;
          case 'form':
            if (attrs.action) facts.formActions.push(attrs.action.trim());
            break;
          case 'code': case 'kbd': case 'samp': case 'tt': case 'var':
            if (link) link.code = true;
            break;
          case 'script':
            if (attrs.src && facts.assets.length < 50) facts.assets.push(attrs.src);
            if ((attrs.type ?? '').toLowerCase() === 'application/ld+json') jsonLd = '';
            else signals().scripts += 1;
            break;
        }
      },
      ontext(chunk) {
        main.ontext(chunk);
        if (jsonLd !== null) jsonLd += chunk;
        if (noscript !== null && noscript.length < 200) noscript += chunk;
        if (skipDepth > 0) return;
        if (appRoot && appRoot.chars < APP_ROOT_ENOUGH) appRoot.chars += visibleChars(chunk);
        if (pseudoLink && pseudoLink.text.length < 200) pseudoLink.text += chunk;
        if (title !== null) title += chunk;
        if (heading) heading.text += chunk;
        if (link) link.text += chunk;
        if (title === null) visible.add(chunk);
      },
      onclosetag(name) {
        main.onclosetag(name);
        if (SKIP_TEXT.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (name === 'head') inHead = false;
        if (appRoot && name === appRoot.name && appRoot.nested-- === 0) {
          signals().appRoot = { selector: appRoot.selector, chars: appRoot.chars };
          appRoot = null;
        }
        if (name === 'noscript' && noscript !== null) {
          const text = collapse(noscript);
          if (text !== '') signals().noscript = text.slice(0, 200);
          noscript = null;
        }
        if (pseudoLink && name === pseudoLink.name) {
          const text = collapse(pseudoLink.text);
          const list = (signals().pseudoLinks ??= []);
          if (text !== '' && list.length < MAX_PSEUDO_LINKS) list.push(text.slice(0, 120));
          pseudoLink = null;
        }
        if (name === 'title' && title !== null) {
          facts.titles.push(collapse(title));
          title = null;
        }
        if (heading && name === `h${heading.level}`) {
          facts.headings.push({ level: heading.level, text: collapse(heading.text) });
          heading = null;
        }
        if (name === 'a' && link) {
          link.text = collapse(link.text);
          facts.links.push(link);
          link = null;
        }
        if (name === 'script' && jsonLd !== null) {
          facts.jsonLd.push(parseJsonLd(jsonLd));
          jsonLd = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, Tokenizer: FastTokenizer },
  );

  return {
    write(chunk: string) {
      parser.write(chunk);
    },
    end(): PageFacts {
      parser.end();
      const { words, hash } = visible.end();
      facts.wordCount = words;
      facts.textHash = hash;
      facts.main = main.end();
      // An app root still open at the end (a page cut short): what it had counts.
      if (appRoot) signals().appRoot = { selector: appRoot.selector, chars: appRoot.chars };
      if (scripting) facts.scripting = scripting;
      return facts;
    },
  };
}

export function extractPageFacts(html: string, budget: ContentBudget = CRAWL_BUDGET): PageFacts {
  const extractor = createExtractor(budget);
  extractor.write(html);
  return extractor.end();
}

const collapse = collapseWhiteSpace;

/** The elements a pseudo-link can be (it ends with the first close of its element's name). */
const PSEUDO_LINK_ENDS = new Set(['a', 'span', 'div', 'li', 'button', 'td', 'p']);
/**
 * An element that acts as a link but gives a crawler no address: `<a>` without href (a router's click handler),
 * anything with role="link" and no href, or an onclick that navigates. A <button> with an ordinary handler is not one.
 */
function isPseudoLink(name: string, attrs: Record<string, string>): boolean {
  if (!PSEUDO_LINK_ENDS.has(name) || attrs.href !== undefined) return false;
  if (name === 'a') return attrs.name === undefined && attrs.id === undefined; // <a name>/<a id> are anchors, not links
  return attrs.role === 'link' || (attrs.onclick !== undefined && NAVIGATING_CLICK.test(attrs.onclick));
}

const NO_TOKENS: readonly string[] = [];
/** The words of a rel attribute, lower case (none without one: most links have none, and split nothing). */
const relTokens = (rel: string | undefined) => (rel === undefined ? NO_TOKENS : rel.toLowerCase().split(/\s+/));

/** What a #fragment link can land on (HTML standard, "the indicated part"): any id, and <a name>. */
function collectAnchor(facts: PageFacts, name: string, attrs: Record<string, string>) {
  if (attrs.id) facts.anchorIds.push(attrs.id);
  if (name === 'a' && attrs.name) facts.anchorIds.push(attrs.name);
}

function parseJsonLd(text: string): { valid: boolean; types: string[] } {
  try {
    const data = JSON.parse(text) as unknown;
    const nodes = Array.isArray(data) ? data : [data];
    const types = nodes.flatMap((node) => {
      const graph = (node as { '@graph'?: unknown[] })?.['@graph'];
      const all = Array.isArray(graph) ? graph : [node];
      return all.flatMap((n) => [(n as { '@type'?: string | string[] })?.['@type'] ?? []].flat());
    });
    return { valid: true, types: types.map(String) };
  } catch {
    return { valid: false, types: [] };
  }
}
