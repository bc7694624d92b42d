import { Type } from 'typebox';
import { escapeHtml } from '../../../lib/strings.ts';
import { Configuration, defineTaskType, isCheck, SiteWide } from '../task-type.ts';

/** A BCP 47 language tag as <html lang> takes it: "en", "pt-BR", "zh-Hant". */
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z]{4})?(-([A-Z]{2}|\d{3}))?$/;

export const fixHtmlLang = defineTaskType({
  type: 'fix_html_lang',
  category: 'technical',
  configuration: Configuration({
    url: Type.String(),
    field: Type.Literal('lang'),
    before: Type.Null({ description: 'The <html> element declares no language' }),
    after: Type.String({ description: 'The language to declare, a BCP 47 tag ("en", "pt-BR")' }),
    found_from: Type.Union([Type.Literal('page'), Type.Literal('url'), Type.Literal('text')], {
      description: 'Where the language was found: a lang the page declares on an inner element, its URL\'s locale segment, or its text (statistics)',
    }),
    html: Type.String({ description: 'The <html> start tag with the language' }),
    site_wide: SiteWide('Pages in this language that declare none'),
  }, 'A page whose <html> declares no language (or a whole site\'s, in one language): the language it is written in, for screen readers, translation and search engines'),
  gate: (c) => (LANGUAGE_TAG.test(c.after) ? undefined : `"${c.after}" is not a language tag`),
  manual: (c, url) => ({
    instructions: c.site_wide
      ? `Declare the language on the <html> element of the site's template (or the generator's "language" setting): ${c.site_wide.pages} pages in it declare none, such as ${url}.`
      : `Declare the language of ${url} on its <html> element. The site's template or generator usually sets it for every page at once (a "language" setting).`,
    html: c.html,
  }),
  async liveChecks(c, url, probe) {
    const checks = [];
    for (const page of c.site_wide ? c.site_wide.examples : [url]) {
      const f = await probe.facts(page);
      checks.push(isCheck(f) ? f : { check: c.site_wide ? `html_lang ${page}` : 'html_lang', expected: c.after, actual: f.lang, passed: f.lang?.toLowerCase() === c.after.toLowerCase() });
    }
    return checks;
  },
  connectorChange: () => ({ unsupported: 'WordPress prints <html lang> from the site\'s language (Settings > General > Site Language), not a post field' }),
  // A template without the attribute leaves it off every page: one task per part of 50 pages, past that one site-wide task.
  perPage: true,
});

/** The <html> start tag declaring a language. */
export const htmlLangTag = (lang: string) => `<html lang="${escapeHtml(lang)}">`;
