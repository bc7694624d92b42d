import { urlLocale } from '../../crawler/language.ts';
import { hreflangHtml } from '../../task-types/types/hreflang.ts';
import { htmlLangTag } from '../../task-types/types/html-lang.ts';
import type { PlanningContext } from '../planning-context.ts';
import { detectLanguage, inLanguage, languageName } from '../text-language.ts';
import { priorityOf } from '../proposal.ts';
import { proposeByPage, proposeSiteWide, type PageFix } from './grouping.ts';
import { readOrReject, type Planner } from './planner.ts';

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

/** Text read of a language version to tell an untranslated copy, and the least that tells it. */
const UNTRANSLATED_SAMPLE = 1500;
const UNTRANSLATED_MIN = 200;

/** A page's language, for people and search engines: add_hreflang, then fix_html_lang for the pages it leaves undeclared. */
export const internationalPlanner: Planner = {
  checks: ['hreflang_missing', 'html_lang_missing'],
  async plan(ctx) {
    const noLang = new Set(ctx.byUrl(['html_lang_missing']).keys());
    const declaredByHreflang = await proposeHreflang(ctx, noLang);
    await proposeHtmlLang(ctx, [...noLang].filter((url) => !declaredByHreflang.has(url)));
  },
};

/**
 * add_hreflang: a multilingual site whose pages list none of their language versions. The
 * versions of a page are found by their URLs, the same path under each locale segment
 * (`/fr-FR/apt.html`, `/de-DE/apt.html`); a page at that path without a locale is the
 * x-default. Each page gets the whole set, itself included, as search engines require.
 * Returns the pages whose task also declares their <html lang>.
 */
async function proposeHreflang(ctx: PlanningContext, noLang: ReadonlySet<string>): Promise<Set<string>> {
  const declared = new Set<string>();
  const missing = ctx.byUrl(['hreflang_missing']);
  if (missing.size === 0) return declared;
  const versions = new Map<string, Array<{ locale: string | null; url: string }>>();
  for (const page of ctx.pages) {
    if (page.status !== 200 || !ctx.indexable(page.url)) continue;
    const { key, locale } = versionKey(page.url);
    versions.set(key, [...(versions.get(key) ?? []), { locale, url: page.url }]);
  }
  // A page under /es-ES/ whose text is English is an untranslated copy: listed as Spanish, it would
  // send Spanish searchers to English text. It stays out of every set, and its own task says why.
  // The same test the drafts use (inLanguage): a page's script, else trigram statistics for a Latin-script language.
  const copies = new Map<string, boolean>();
  const untranslated = async (v: { locale: string | null; url: string }) => {
    if (!v.locale) return false;
    if (!copies.has(v.url)) {
      const page = await ctx.read(v.url);
      const paragraphs = page && page !== 'deferred' ? page.content.paragraphs : [];
      const text = paragraphs.join(' ').slice(0, UNTRANSLATED_SAMPLE);
      // A page translated at its start only (the rest still English) is a translation in progress, and stays.
      const opening = () => [page && page !== 'deferred' ? page.content.h1 : '', ...paragraphs].join(' ').slice(0, 400);
      copies.set(v.url, text.length >= UNTRANSLATED_MIN && !inLanguage(text, v.locale) && !inLanguage(opening(), v.locale));
    }
    return copies.get(v.url)!;
  };
  const fixes: PageFix[] = [];
  for (const [url, list] of missing) {
    const all = versions.get(versionKey(url).key) ?? [];
    const self = all.find((v) => v.url === url);
    if (self && (await untranslated(self))) {
      const locale = hreflangOf(self.locale!);
      await ctx.reject('add_hreflang', url, `an untranslated copy: its URL says ${locale}, its text is not in ${languageName(locale)}. Translate it, or leave it out of the language versions (and the sitemap) until it is`);
      continue;
    }
    const group: typeof all = [];
    for (const v of all) if (!(await untranslated(v))) group.push(v);
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
    if (locale && noLang.has(url)) declared.add(url);
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
  return declared;
}

/**
 * fix_html_lang: pages whose <html> declares no language get the one they are written in:
 * declared on an inner element (a book's chapter <div lang>), else their URL's locale
 * segment, else found in their text. A page too short to tell is refused, not guessed.
 */
async function proposeHtmlLang(ctx: PlanningContext, urls: readonly string[]): Promise<void> {
  const fixes: PageFix[] = [];
  for (const url of urls) {
    const page = await readOrReject(ctx, 'fix_html_lang', url);
    if (!page) continue;
    const locale = urlLocale(url);
    const text = page.content.paragraphs.join(' ').slice(0, 4000);
    const [lang, foundFrom] = page.content.lang
      ? [page.content.lang, locale && page.content.lang === locale ? 'url' : 'page'] as const
      : [detectLanguage(text), 'text'] as const;
    if (!lang) {
      await ctx.reject('fix_html_lang', url, `the page has too little text of its own (${text.length} characters) to tell its language: declare it by hand`);
      continue;
    }
    const tag = hreflangOf(lang);
    fixes.push({
      url, priority: priorityOf(['html_lang_missing']), evidence: [ctx.evidence({ check_id: 'html_lang_missing', url, value: null })],
      configuration: { url, field: 'lang', before: null, after: tag, found_from: foundFrom, html: htmlLangTag(tag) },
    });
  }
  // More pages in one language than one task holds: one template setting, one task (not 22 of 50 pages each).
  const left = await proposeSiteWide(ctx, 'fix_html_lang', fixes, (c) => String(c.after), (first, pages) => ({
    category: 'technical', title: 'Declare the site\'s language in its template',
    description: `${pages} pages written in ${String(first.configuration.after)} do not say so (<html lang>): the template leaves it out, and one setting there fixes them all.`,
  }));
  await proposeByPage(ctx, 'fix_html_lang', left, {
    category: 'technical', checks: ['html_lang_missing'],
    single: (fix) => ({ title: 'Declare the page\'s language', description: `${fix.url} does not say which language it is in (<html lang>); it is written in ${fix.configuration.after}.` }),
    group: (pages, total, part) => ({
      title: `Declare the language of ${pages} pages`,
      description: `${total} pages do not say which language they are in (<html lang>), which screen readers, browsers' translation and search engines rely on; usually one template leaves it out. This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count})` : pages === total ? 'each of them' : `${pages} of them`} the language it is written in.`,
    }),
  });
}
