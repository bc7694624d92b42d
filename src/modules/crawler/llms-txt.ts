/**
 * /llms.txt as https://llmstxt.org describes it: an H1 with the site's name first (the only
 * required part), an optional blockquote summary, free paragraphs, then H2 sections whose
 * lists are links, `- [name](url)` with optional `: notes`.
 */
export interface LlmsTxtProblem {
  rule: string;
  /** 1-based line the problem is on; null for the file as a whole. */
  line: number | null;
  message: string;
}

export interface LlmsTxtRule {
  id: string;
  description: string;
  /** A file the rule catches. */
  example: string;
  /** A file it lets through. */
  counterExample: string;
}

/** The format's rules, each with a file it catches and one it lets through (the unit tests run both). */
export const LLMS_TXT_RULES: readonly LlmsTxtRule[] = [
  { id: 'empty', description: 'The file has no content', example: '\n  \n', counterExample: '# Site\n' },
  { id: 'h1_first', description: 'The first line with content is an H1 (# Name)', example: 'Welcome to our site\n# Site\n', counterExample: '\n# Site\n> Summary\n' },
  { id: 'one_h1', description: 'There is one H1', example: '# Site\n# Another site\n', counterExample: '# Site\n## Docs\n- [A](https://x.test/a)\n' },
  { id: 'heading_level', description: 'Sections are H2 (##); deeper headings are not part of the format', example: '# Site\n### Docs\n', counterExample: '# Site\n## Docs\n' },
  { id: 'list_item_link', description: 'A list item in an H2 section is a markdown link, `- [name](url)` with optional `: notes`', example: '# Site\n## Docs\n- The guide, at /guide\n', counterExample: '# Site\n## Docs\n- [Guide](https://x.test/guide): how to start\n' },
  { id: 'link_url', description: 'A link is an absolute http(s) URL, or a path that resolves against the site', example: '# Site\n## Docs\n- [Guide](mailto:team@x.test)\n', counterExample: '# Site\n## Docs\n- [Guide](/guide.md)\n' },
  { id: 'section_links', description: 'An H2 section lists at least one link', example: '# Site\n## Docs\nNothing here yet.\n', counterExample: '# Site\n## Docs\n- [A](https://x.test/a)\n' },
  { id: 'not_html', description: 'The file is markdown text, not an HTML page', example: '<!doctype html><html><body>Hi</body></html>', counterExample: '# Site\n' },
];

const LINK_ITEM = /^[-*+]\s+\[([^\]]+)\]\(([^)\s]+)\)(?:\s*:\s*.*)?$/;
const LIST_ITEM = /^[-*+]\s+/;

/** Problems of an llms.txt body, empty when it follows the format; `baseUrl` resolves relative links. */
export function validateLlmsTxt(body: string, baseUrl: string): LlmsTxtProblem[] {
  const problems: LlmsTxtProblem[] = [];
  const add = (rule: string, line: number | null, message: string) => problems.length < 50 && problems.push({ rule, line, message });
  if (/^\s*</.test(body)) return [{ rule: 'not_html', line: 1, message: 'The file is an HTML page, not markdown (a page served for every unknown path?)' }];
  const lines = body.split(/\r\n|\r|\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return [{ rule: 'empty', line: null, message: 'The file is empty' }];
  if (!/^#\s+\S/.test(lines[first]!)) add('h1_first', first + 1, 'The file must start with an H1 naming the site ("# Name")');
  let section: { title: string; line: number; links: number } | undefined;
  const closeSection = () => {
    if (section && section.links === 0) add('section_links', section.line, `Section "${section.title}" lists no links`);
  };
  let inFence = false;
  let h1Seen = false;
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const n = index + 1;
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence || line === '') return;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      if (level === 1 && h1Seen) add('one_h1', n, 'A second H1: the file has one, the site\'s name');
      if (level === 1) h1Seen = true;
      if (level === 2) {
        closeSection();
        section = { title: heading[2]!.trim(), line: n, links: 0 };
      }
      if (level > 2) add('heading_level', n, `An H${level} heading: sections are H2 (##)`);
      return;
    }
    if (!section || !LIST_ITEM.test(line)) return;
    const link = LINK_ITEM.exec(line);
    if (!link) return void add('list_item_link', n, 'A list item that is not a link: write "- [name](url): notes"');
    section.links += 1;
    if (!resolvable(link[2]!, baseUrl)) add('link_url', n, `"${link[2]}" is not an http(s) URL or a path of the site`);
  });
  closeSection();
  return problems;
}

function resolvable(href: string, baseUrl: string): boolean {
  try {
    return /^https?:$/.test(new URL(href, baseUrl).protocol);
  } catch {
    return false;
  }
}

export interface DraftPage {
  url: string;
  title: string;
  description: string | null;
}

/** Links in a drafted file: enough for the important pages, short enough to be read whole. */
export const MAX_DRAFT_LINKS = 30;

/** An llms.txt in the format, for the owner to publish if they choose: the site's name, its summary, its pages. */
export function draftLlmsTxt(site: { name: string; summary: string | null }, pages: readonly DraftPage[]): string {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const lines = [`# ${oneLine(site.name) || 'Site'}`, ''];
  if (site.summary && oneLine(site.summary)) lines.push(`> ${oneLine(site.summary)}`, '');
  if (pages.length > 0) {
    lines.push('## Pages', '');
    for (const page of pages.slice(0, MAX_DRAFT_LINKS)) {
      const name = oneLine(page.title).replace(/[[\]]/g, '') || page.url;
      const notes = page.description ? `: ${oneLine(page.description)}` : '';
      lines.push(`- [${name}](${linkTarget(page.url)})${notes}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Crawled URLs are already encoded; a parenthesis or a space would end the markdown link early. */
const linkTarget = (url: string) => url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
