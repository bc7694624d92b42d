import { Parser } from 'htmlparser2';

/** The parts of a page a writer drafts from: its title, first h1 and paragraph texts. */
export interface PageContent {
  title: string;
  h1: string;
  paragraphs: string[];
}

const MAX_PARAGRAPHS = 20;
const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'template']);
/** Site-wide chrome, not the page's own words (a theme's tagline is a <p> in its header). */
const CHROME = new Set(['header', 'footer', 'nav', 'aside', 'form']);

/**
 * Reads the page's own text: paragraphs inside <main> or <article> when the page has them,
 * otherwise every paragraph outside header, footer, navigation, sidebars and forms.
 */
export function readPageContent(html: string): PageContent {
  const content: PageContent = { title: '', h1: '', paragraphs: [] };
  const inMain: string[] = [];
  const outside: string[] = [];
  let capture: 'title' | 'h1' | 'p' | null = null;
  let buffer = '';
  let skip = 0;
  let chrome = 0;
  let main = 0;
  let sawMain = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP_TEXT.has(name)) skip += 1;
        if (CHROME.has(name)) chrome += 1;
        if (name === 'main' || name === 'article') {
          main += 1;
          sawMain = true;
        }
        if (capture === null && (name === 'title' || name === 'h1' || name === 'p')) {
          capture = name;
          buffer = '';
        }
      },
      ontext(text) {
        if (capture !== null && skip === 0) buffer += text;
      },
      onclosetag(name) {
        if (SKIP_TEXT.has(name)) skip = Math.max(0, skip - 1);
        if (name === capture) {
          const text = buffer.replace(/\s+/g, ' ').trim();
          if (capture === 'title' && !content.title) content.title = text;
          else if (capture === 'h1' && !content.h1) content.h1 = text;
          else if (capture === 'p' && text && chrome === 0) (main > 0 ? inMain : outside).push(text);
          capture = null;
        }
        if (CHROME.has(name)) chrome = Math.max(0, chrome - 1);
        if (name === 'main' || name === 'article') main = Math.max(0, main - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  content.paragraphs = (sawMain && inMain.length > 0 ? inMain : outside).slice(0, MAX_PARAGRAPHS);
  return content;
}
