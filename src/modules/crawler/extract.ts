import { Parser } from 'htmlparser2';
import { createMainContentCollector, CRAWL_BUDGET, type ContentBudget, type MainContent } from './main-content.ts';
import { collapseWhiteSpace } from '../../lib/strings.ts';
import { createTextDigest } from './text-hashes.ts';
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
}

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
            break;
        }
      },
      ontext(chunk) {
        main.ontext(chunk);
        if (jsonLd !== null) jsonLd += chunk;
        if (skipDepth > 0) return;
        if (title !== null) title += chunk;
        if (heading) heading.text += chunk;
        if (link) link.text += chunk;
        if (title === null) visible.add(chunk);
      },
      onclosetag(name) {
        main.onclosetag(name);
        if (SKIP_TEXT.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (name === 'head') inHead = false;
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
