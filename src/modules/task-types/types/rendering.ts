import { Type } from 'typebox';
import { Configuration, defineTaskType, isCheck, SITE_WIDE_EXAMPLES } from '../task-type.ts';

/** What JavaScript alone puts on the pages, by audit check (rendering-checks.ts), in a developer's words. */
export const RENDERED_ELEMENTS = {
  content_only_after_javascript: 'main text',
  links_only_after_javascript: 'internal links',
  directive_changed_by_javascript: 'robots meta or canonical',
  metadata_changed_by_javascript: 'title, meta description, h1 or JSON-LD',
  links_without_href: 'links without an href',
} as const;
export type RenderedElement = (typeof RENDERED_ELEMENTS)[keyof typeof RENDERED_ELEMENTS];

/** A canonical as an absolute URL (the server may write it relative), null without one. */
function absolute(href: string | undefined, pageUrl: string): string | null {
  if (href === undefined) return null;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return href;
  }
}

/** Words the server's HTML must carry for a page's main text to count as served (rendering-checks.ts calls fewer not missing). */
const SERVED_WORDS = 50;

export const renderOnServer = defineTaskType({
  type: 'render_on_server',
  category: 'technical',
  configuration: Configuration({
    pages: Type.Array(Type.Object({
      url: Type.String(),
      elements: Type.Array(Type.String(), { description: 'What only JavaScript puts on this page' }),
      example: Type.Optional(Type.String({ description: 'What the audit saw, raw HTML against rendered' })),
      directives: Type.Optional(Type.Array(Type.Object({ field: Type.String(), rendered: Type.Union([Type.String(), Type.Null()]) }), {
        description: 'The robots meta and canonical as the rendered page has them: the server HTML must say the same',
      })),
      links_only_rendered: Type.Optional(Type.Integer({ description: 'Internal links only the rendered page had: the server HTML must have at least as many' })),
    }, { additionalProperties: true }), { minItems: 1 }),
    elements: Type.Array(Type.Object({ element: Type.String(), pages: Type.Integer() }, { additionalProperties: true })),
    instructions: Type.String(),
  }, 'Content, links or directives that exist only after JavaScript runs: which pages, which elements, how to serve them in the HTML (a brief for a developer)'),
  gate: (c) => (c.pages.length > 0 && typeof c.instructions === 'string' ? undefined : 'no pages or no instructions'),
  manual: (c) => ({ instructions: c.instructions, changes: c.pages }),
  /** Done when the server's HTML (no script run) carries what only the render had, on the listed pages. */
  async liveChecks(c, _url, probe) {
    const checks = [];
    for (const page of c.pages.slice(0, SITE_WIDE_EXAMPLES)) {
      const wants = new Set(page.elements);
      if (!wants.has('main text') && !wants.has('internal links') && !page.directives?.length) continue;
      // The server's HTML, no script run: what the brief asks to be there.
      const f = await probe.rawFacts(page.url);
      if (isCheck(f)) {
        checks.push({ ...f, url: page.url });
        continue;
      }
      if (wants.has('main text')) checks.push({ check: 'main_text_in_html', url: page.url, expected: `>= ${SERVED_WORDS} words`, actual: `${f.wordCount} words`, passed: f.wordCount >= SERVED_WORDS });
      if (wants.has('internal links')) {
        const links = f.links.filter((l) => !/^(#|javascript:|mailto:|tel:)/i.test(l.href)).length;
        const wanted = Math.max(1, page.links_only_rendered ?? 1);
        checks.push({ check: 'links_in_html', url: page.url, expected: `>= ${wanted} links`, actual: `${links} links`, passed: links >= wanted });
      }
      for (const directive of page.directives ?? []) {
        const served = directive.field === 'robots' ? (f.metaRobots.length > 0 ? f.metaRobots.join(', ') : null) : absolute(f.canonicals[0], page.url);
        const wanted = directive.field === 'robots' ? directive.rendered : absolute(directive.rendered ?? undefined, page.url);
        checks.push({ check: `${directive.field}_in_html`, url: page.url, expected: wanted, actual: served, passed: served === wanted });
      }
    }
    return checks;
  },
});
