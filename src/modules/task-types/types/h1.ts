import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../../lib/schema.ts';
import { escapeHtml } from '../../../lib/strings.ts';
import { Configuration, defineTaskType, isCheck, isText, SiteWide } from '../task-type.ts';

/** Every h1 but the one kept: to h2, or out of the headings where the template prints it on every page. */
function demotions(c: { before: unknown; after: string | null; template_h1s?: string[] }) {
  const h1s = Array.isArray(c.before) ? c.before as string[] : [];
  const kept = h1s.indexOf(c.after ?? '');
  return h1s.filter((_, i) => i !== (kept === -1 ? 0 : kept))
    .map((text) => ({ heading: text, change: c.template_h1s?.includes(text) ? 'h1 -> p (in the template)' : 'h1 -> h2' }));
}

export const fixH1 = defineTaskType({
  type: 'fix_h1',
  category: 'seo',
  configuration: Configuration({
    url: Type.Optional(Type.String()),
    issue: StringEnum(['missing', 'multiple'] as const),
    before: Type.Union([Type.Null(), Type.String(), Type.Array(Type.String())], { description: 'missing: null; multiple: every h1 in order' }),
    after: Nullable(Type.String({ description: 'The h1 to add, or the one to keep (the page\'s own, not one its template prints on many pages)' })),
    template_h1s: Type.Optional(Type.Array(Type.String(), { description: 'multiple: h1s the site\'s template prints on many pages; they stop being headings' })),
    promote: Type.Optional(Type.Object({ level: Type.Integer({ minimum: 2, maximum: 6 }), text: Type.String() }, {
      description: 'missing: the heading that already carries the page\'s title at a lower level; it becomes the h1 instead of a second heading with the same words',
    })),
    instructions: Type.String(),
    site_wide: SiteWide('Pages with the same template cause'),
  }, 'No h1 (the title without the site name becomes one, or the heading that already carries it is promoted) or several (the page\'s own stays, the others become h2, or plain text where the template prints them on every page)'),
  gate: (c) => (c.issue === 'multiple' || isText(c.after, 1, 200) ? undefined : 'no h1 text drafted'),
  manual: (c, url) => c.site_wide
    ? { instructions: `${c.instructions} ${c.site_wide.pages} pages are concerned, such as ${c.site_wide.examples.slice(0, 3).join(', ')}.` }
    : c.issue === 'multiple'
    ? { instructions: `On ${url}, ${c.instructions}`, changes: demotions(c) }
    : c.promote
      ? { instructions: `On ${url}, ${c.instructions}`, changes: [{ heading: c.promote.text, change: `h${c.promote.level} -> h1` }] }
      : { instructions: `On ${url}, ${c.instructions}`, html: `<h1>${escapeHtml(String(c.after))}</h1>` },
  async liveChecks(c, url, probe) {
    if (c.site_wide) {
      // Each example keeps its own heading: one h1, and not one the template prints.
      const checks = [];
      for (const page of c.site_wide.examples) {
        const f = await probe.facts(page);
        if (isCheck(f)) checks.push(f);
        else {
          const h1s = f.headings.filter((h) => h.level === 1).map((h) => h.text);
          checks.push({ check: `one_h1 ${page}`, expected: 'one h1 of its own', actual: h1s.join(' | ') || null, passed: h1s.length === 1 && !(c.template_h1s ?? []).includes(h1s[0]!) });
        }
      }
      return checks;
    }
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const h1s = f.headings.filter((h) => h.level === 1).map((h) => h.text);
    return [{ check: 'one_h1', expected: c.after ?? null, actual: h1s.join(' | ') || null, passed: h1s.length === 1 && (c.issue === 'multiple' || h1s[0] === c.after) }];
  },
  // The theme prints the post title as the page's h1; headings typed into the content make a second one.
  connectorChange: (c) => c.site_wide
    ? { unsupported: 'the theme\'s template prints these headings on every page, not a post field' }
    : c.issue === 'multiple'
    ? { field: 'content', edit: { kind: 'demote_h1s', ...(c.after ? { keep: c.after } : {}) }, none: "the extra h1 is not in the post's content (the theme prints it)" }
    : { unsupported: 'the theme decides whether the post title is printed as an h1' },
  // A template without an h1 lacks it on every page it renders: one task for them.
  perPage: true,
});
