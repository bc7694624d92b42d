import { franc, francAll } from 'franc';

/** Scripts that identify a language's text on their own: no statistics needed to tell Japanese from English. */
const SCRIPT_OF: Record<string, RegExp> = {
  ja: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, zh: /\p{Script=Han}/gu, ko: /\p{Script=Hangul}/gu,
  ru: /\p{Script=Cyrillic}/gu, uk: /\p{Script=Cyrillic}/gu, bg: /\p{Script=Cyrillic}/gu, sr: /\p{Script=Cyrillic}/gu, mk: /\p{Script=Cyrillic}/gu,
  be: /\p{Script=Cyrillic}/gu, kk: /\p{Script=Cyrillic}/gu, ar: /\p{Script=Arabic}/gu, fa: /\p{Script=Arabic}/gu, ur: /\p{Script=Arabic}/gu,
  he: /\p{Script=Hebrew}/gu, el: /\p{Script=Greek}/gu, th: /\p{Script=Thai}/gu, hi: /\p{Script=Devanagari}/gu, mr: /\p{Script=Devanagari}/gu,
  ne: /\p{Script=Devanagari}/gu, bn: /\p{Script=Bengali}/gu, ka: /\p{Script=Georgian}/gu, hy: /\p{Script=Armenian}/gu,
};
const LETTER = /\p{L}/gu;
/** franc's codes for English (Scots scores next to it on short English text). */
const ENGLISH = new Set(['eng', 'sco']);
/** Below this, trigram statistics say little. */
const MIN_FOR_STATISTICS = 25;

/**
 * Whether a sentence is written in the page's language (a BCP 47 tag; null: anything goes).
 * A language with its own script needs its script in the text; a Latin-script language
 * other than English must not read as English (franc's trigram statistics): an untranslated
 * paragraph on a translated page, or a page not translated at all, is not drafted from.
 */
export function inLanguage(text: string, lang: string | null): boolean {
  if (!lang) return true;
  const primary = lang.toLowerCase().split(/[-_]/)[0]!;
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return true;
  const script = SCRIPT_OF[primary];
  if (script) return (text.match(script)?.length ?? 0) / letters >= 0.3;
  // Latin script expected: a text mostly in another script is not it.
  if ((text.match(/\p{Script=Latin}/gu)?.length ?? 0) / letters < 0.5) return false;
  if (primary === 'en' || text.length < MIN_FOR_STATISTICS) return true;
  const [best] = francAll(text, { minLength: MIN_FOR_STATISTICS });
  return !(best && ENGLISH.has(best[0]));
}

/** "French", "Japanese": a language tag as people name it, for refusal reasons. */
export function languageName(lang: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/** Below this much text, a language found by statistics alone is a guess. */
const MIN_FOR_DETECTION = 200;

/**
 * The language a page's text is written in, as a BCP 47 tag ("en", "ja"), from franc's
 * trigram statistics (ISO 639-3, canonicalised by Intl: "fra" -> "fr"); null when the text
 * is too short to tell or franc cannot say.
 */
export function detectLanguage(text: string): string | null {
  if (text.length < MIN_FOR_DETECTION) return null;
  const code = franc(text, { minLength: MIN_FOR_DETECTION });
  if (code === 'und') return null;
  if (ENGLISH.has(code)) return 'en';
  try {
    return Intl.getCanonicalLocales(code)[0] ?? null;
  } catch {
    return null;
  }
}
