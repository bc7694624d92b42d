import type { PageFacts } from './extract.ts';

/**
 * The language a page is written for, as a BCP 47 tag: what <html> declares, else what its
 * content declares (a book's chapter <div xml:lang>), else a locale in its URL path
 * ("/fr-FR/apt.html", "/de/guide/"); null when nothing says.
 */
export function pageLanguage(url: string, facts: Pick<PageFacts, 'lang' | 'contentLang'>): string | null {
  return known(facts.lang) ?? known(facts.contentLang) ?? urlLocale(url);
}

/**
 * A declared tag whose language exists ("en-US", "fr"); not one that names none (lang="c", a
 * template's POSIX locale, read on a news site): it says nothing of the page's language.
 */
function known(tag: string | null | undefined): string | null {
  if (!tag) return null;
  try {
    return names.of(tag.split(/[-_]/)[0]!.toLowerCase()) ? tag : null;
  } catch {
    return null;
  }
}

/** Two-letter path segments that are English words or common paths more often than languages ("/my/account", "/it/", "/go/"). */
const NOT_LOCALES = new Set(['my', 'no', 'it', 'am', 'be', 'do', 'go', 'he', 'hi', 'me', 'so', 'to', 'us', 'we', 'as', 'at', 'by', 'if', 'in', 'is', 'of', 'on', 'or', 'up', 'id', 'js', 'ui', 'ux', 'ai', 'ad', 'tv', 'os', 'ok']);
const LOCALE_SEGMENT = /^([a-z]{2})(?:[-_]([a-z]{2}|[a-z]{4}))?$/i;
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The locale a URL's first path segment names ("fr-FR", "de", "pt_BR", "zh-cn"), or null. */
export function urlLocale(url: string): string | null {
  let segment: string | undefined;
  try {
    segment = new URL(url).pathname.split('/')[1];
  } catch {
    return null;
  }
  const match = segment ? LOCALE_SEGMENT.exec(segment) : null;
  if (!match) return null;
  const language = match[1]!.toLowerCase();
  // A bare two-letter segment that is also a common word is taken as a language only with a region ("it-IT", not "it").
  if (!match[2] && NOT_LOCALES.has(language)) return null;
  if (!names.of(language)) return null;
  return match[2] ? `${language}-${match[2]}` : language;
}
