import { Parser } from 'htmlparser2';

/** The parts of a page a writer drafts from: its title, first h1 and paragraph texts. */
export interface PageContent {
  title: string;
  h1: string;
  paragraphs: string[];
}

const MAX_PARAGRAPHS = 20;

export function readPageContent(html: string): PageContent {
  const content: PageContent = { title: '', h1: '', paragraphs: [] };
  let capture: 'title' | 'h1' | 'p' | null = null;
  let buffer = '';
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip += 1;
        if (capture === null && (name === 'title' || name === 'h1' || name === 'p')) {
          capture = name;
          buffer = '';
        }
      },
      ontext(text) {
        if (capture !== null && skip === 0) buffer += text;
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip = Math.max(0, skip - 1);
        if (name !== capture) return;
        const text = buffer.replace(/\s+/g, ' ').trim();
        if (capture === 'title' && !content.title) content.title = text;
        else if (capture === 'h1' && !content.h1) content.h1 = text;
        else if (capture === 'p' && text && content.paragraphs.length < MAX_PARAGRAPHS) content.paragraphs.push(text);
        capture = null;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return content;
}
