import { urlLocale } from '../../crawler/language.ts';
import { hreflangHtml } from '../../task-types/types/hreflang.ts';
import { priorityOf } from '../proposal.ts';
import { proposeByPage, type PageFix } from './grouping.ts';
import type { Planner } from './planner.ts';

/** "fr-FR", "zh-cn", "pt_BR" as hreflang writes them: the language in lower case, the region in upper. */
const hreflangOf = (locale: string) => {
  const [language, region] = locale.split(/[-_]/);
  return region ? `${language!.toLowerCase()}-${region.length === 2 ? region.toUpperCase() : region}` : language!.toLowerCase();
};

/** The address of a page without its locale segment: its language versions share it ("/fr-FR/apt.html" and "/de-DE/apt.html"). */
function versionKey(url: string): { key: string; locale: string | null } {
  const parsed = new URL(url);
  const locale = urlLocale(url);
  const path = locale ? parsed.pathname.replace(/^\/[^/]+/, '') || '/' : parsed.pathname;
  return { key: `${parsed.host}${path}${parsed.search}`, locale };
}

/**
 * add_hreflang: a multilingual site whose pages list none of their language versions. The
 * versions of a page are found by their URLs, the same path under each locale segment
 * (`/fr-FR/apt.html`, `/de-DE/apt.html`); a page at that path without a locale is the
 * x-default. Each page gets the whole set, itself included, as search engines require.
 */
export const internationalPlanner: Planner = {
  checks: ['hreflang_missing', 'html_lang_missing'],
  async plan(ctx) {
    const missing = ctx.byUrl(['hreflang_missing']);
    if (missing.size === 0) return;
    const noLang = new Set(ctx.byUrl(['html_lang_missing']).keys());
    const versions = new Map<string, Array<{ locale: string | null; url: string }>>();
    for (const page of ctx.pages) {
      if (page.status !== 200 || !ctx.indexable(page.url)) continue;
      const { key, locale } = versionKey(page.url);
      versions.set(key, [...(versions.get(key) ?? []), { locale, url: page.url }]);
    }
    const fixes: PageFix[] = [];
    for (const [url, list] of missing) {
      const group = versions.get(versionKey(url).key) ?? [];
      const localized = group.filter((v): v is { locale: string; url: string } => v.locale !== null);
      if (group.length < 2) {
        await ctx.reject('add_hreflang', url, 'no other language version of this page was found under another locale in the URL (/fr/..., /de-DE/...): its versions must be listed by hand');
        continue;
      }
      const byLanguage = new Map(localized.map((v) => [hreflangOf(v.locale), v.url]));
      const unprefixed = group.find((v) => v.locale === null);
      const alternates = [
        ...[...byLanguage].sort(([a], [b]) => a.localeCompare(b)).map(([hreflang, href]) => ({ hreflang, href })),
        ...(unprefixed ? [{ hreflang: 'x-default', href: unprefixed.url }] : []),
      ];
      const locale = versionKey(url).locale;
      fixes.push({
        // One priority for the whole problem (a template's), from the check's severity: not raised by how many pages share it.
        url, priority: priorityOf(['hreflang_missing']), evidence: list.map(ctx.evidence),
        configuration: {
          url, field: 'hreflang', before: null, after: alternates, html: hreflangHtml(alternates),
          ...(locale && noLang.has(url) ? { lang: hreflangOf(locale) } : {}),
        },
      });
    }
    await proposeByPage(ctx, 'add_hreflang', fixes, {
      category: 'technical', checks: ['hreflang_missing'],
      single: ({ url }) => ({ title: 'List the page\'s language versions (hreflang)', description: `${url} is one of several language versions and lists none of them; search engines then show visitors the wrong language.` }),
      group: (pages, total, part) => ({
        title: `List the language versions of ${pages} pages (hreflang)`,
        description: `${total} pages of this multilingual site list none of their language versions, so search engines may show a visitor the wrong one. This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count})` : pages === total ? 'each of them' : `${pages} of them`} the hreflang links of its versions, found by their URLs; a multilingual plugin or the generator's settings print them for all pages at once.`,
      }),
    });
  },
};
