import { Type } from 'typebox';
import { escapeHtml } from '../../../lib/strings.ts';
import { HREFLANG } from '../../checks/site-checks.ts';
import { normalizeUrl } from '../../crawler/urls.ts';
import { Configuration, defineTaskType, isCheck } from '../task-type.ts';

const Alternate = Type.Object({
  hreflang: Type.String({ description: 'The language (and region) of that version, or x-default' }),
  href: Type.String({ description: 'The absolute URL of that version' }),
});


export const addHreflang = defineTaskType({
  type: 'add_hreflang',
  category: 'technical',
  configuration: Configuration({
    url: Type.String(),
    field: Type.Literal('hreflang'),
    before: Type.Null({ description: 'The page lists no language versions' }),
    after: Type.Array(Alternate, { description: 'Every language version of the page, itself included, and x-default' }),
    html: Type.String({ description: 'The <link rel="alternate" hreflang> elements for its <head>' }),
    lang: Type.Optional(Type.String({ description: 'The language to declare in <html lang> when the page declares none' })),
  }, 'A page of a multilingual site that lists none of its language versions: the hreflang links of each version, found by their URLs'),
  // The value passes the very check that flags hreflang codes (hreflang_invalid_code).
  gate: (c) => {
    if (c.after.length < 2) return 'no other language version of the page to list';
    const invalid = c.after.find((a) => !HREFLANG.test(a.hreflang));
    if (invalid) return `"${invalid.hreflang}" is not a valid hreflang code`;
    const relative = c.after.find((a) => !/^https?:\/\//.test(a.href));
    return relative ? `the ${relative.hreflang} version's address is not absolute (${relative.href})` : undefined;
  },
  manual: (c, url) => ({
    instructions: `In the <head> of ${url}, add these links (every language version lists the same set, itself included)${c.lang ? `, and declare the page's language: <html lang="${c.lang}">` : ''}. A multilingual plugin or the site generator's translation settings usually print them for every page at once.`,
    html: c.html,
  }),
  async liveChecks(c, url, probe) {
    const f = await probe.facts(url);
    if (isCheck(f)) return [f];
    const listed = new Set(f.hreflangs.map((h) => `${h.lang.toLowerCase()} ${normalizeUrl(h.href, url) ?? h.href}`));
    const missing = c.after.filter((a) => !listed.has(`${a.hreflang.toLowerCase()} ${normalizeUrl(a.href, url) ?? a.href}`));
    return [{ check: 'hreflang_alternates', expected: c.after.map((a) => a.hreflang).join(', '), actual: missing.length ? `missing ${missing.map((a) => a.hreflang).join(', ')}` : c.after.map((a) => a.hreflang).join(', '), passed: missing.length === 0 }];
  },
  connectorChange: () => ({ unsupported: 'WordPress prints hreflang links through a multilingual plugin (WPML, Polylang), not a post field' }),
  // Every page of a translated site lacks them at once: one task per part of 50 pages.
  perPage: true,
});

/** The <link> elements for a set of alternates. */
export const hreflangHtml = (alternates: ReadonlyArray<{ hreflang: string; href: string }>) =>
  alternates.map((a) => `<link rel="alternate" hreflang="${escapeHtml(a.hreflang)}" href="${escapeHtml(a.href)}">`).join('\n');
