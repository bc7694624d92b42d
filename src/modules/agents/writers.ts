import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import type { PageContent } from './page-content.ts';

/**
 * Deterministic, extractive writers: every proposed value is built from the page's own
 * words, within the bounds the audit checks, or not proposed at all (undefined).
 */

/** A draft, or the true reason none meets the rules (recorded as the refusal). */
export type Draft = { text: string } | { reason: string };

const REPLACEMENT = '\uFFFD';
/** Sentence ends in any script the segmenter knows ("." "!" "?" and the CJK full stops). */
const SENTENCE_END = /[.!?。！？]["'”’)\]]*$/u;
const ELLIPSIS = /(\.\.\.|…)["'”’)\]]*$/u;
/** Markup or code inside a sentence: not text a searcher should read. */
const CODE_LIKE = /[<>{}]|[;=]\S/;
/** After a CJK full stop the next sentence follows without a space. */
const CJK_END = /[。！？]$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Segmenters by language: building one costs far more than using it. */
const segmenters = new Map<string, Intl.Segmenter>();
function segmenterFor(lang: string | null): Intl.Segmenter {
  const key = lang ?? 'en';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(key, { granularity: 'sentence' });
    } catch {
      segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    if (segmenters.size < 100) segmenters.set(key, segmenter);
  }
  return segmenter;
}

/** The whole sentences of a text block in its language (Intl.Segmenter: "Version 2.4" is not two sentences). */
function sentencesOf(block: string, lang: string | null): string[] {
  return [...segmenterFor(lang).segment(block)].map((s) => s.segment.trim()).filter(Boolean);
}

/**
 * Words that tie a sentence to the one before it ("However, ...", "It requires ...",
 * "Cependant, ..."): a description cannot open with one, since its reader has not seen
 * what it refers to.
 */
const DEPENDENT_OPENING = new RegExp(`^(${[
  'however', 'but', 'and', 'or', 'so', 'also', 'then', 'thus', 'therefore', 'otherwise', 'instead', 'moreover', 'furthermore', 'nevertheless', 'hence',
  'it', 'its', 'they', 'their', 'them', 'he', 'she', 'this means', 'that', 'those', 'these', 'such',
  'this (is|was|leaves|makes|lets|allows|does|will|can|may|means|gives|keeps|also)',
  'cependant', 'mais', 'et', 'ou', 'donc', 'ainsi', 'aussi', 'sinon', 'toutefois', 'néanmoins', 'il', 'elle', 'ils', 'elles', 'cela', 'ceci', 'si ce',
  'aber', 'und', 'oder', 'jedoch', 'dann', 'daher', 'außerdem', 'deshalb', 'es', 'sie', 'er', 'dies',
  'pero', 'y', 'sin embargo', 'además', 'entonces', 'por lo tanto', 'ello', 'esto',
].join('|')})\\b`, 'iu');

/** A sentence that points at text around it ("The above example ...") means nothing in a search result. */
const POINTS_ELSEWHERE = /\b(above|below|previous|preceding|following example|ci-dessus|ci-dessous|oben|unten)\b/iu;

/**
 * Openings that need what came before: a verb whose object is a pronoun ("Give them ...",
 * "Run it ..."), "both"/"either" of something named earlier, or "the second form". Seen on
 * real pages: "Give them a sheltered position" (a guide's tip about trees named in its
 * heading), "In the second form, ..." (a manual page's synopsis).
 */
const NEEDS_REFERENT = new RegExp([
  '^\\p{L}+\\s+(them|it|they|these|those)\\b',
  '^(both|either|neither)\\b',
  '^(in|with|for)\\s+(the|this|that)\\s+(first|second|third|fourth|last|latter|former|other|same)\\s+(form|case|mode|way|variant|example|one)\\b',
].join('|'), 'iu');

/**
 * A call to action ("Ask us ...", "Read our care guide ...", "Click here ...") tells a
 * visitor already on the page what to do next; in a search result it says nothing about
 * what the page is. Seen on a shop's guides, where it was the first sentence that fitted.
 */
const CALL_TO_ACTION = new RegExp(`^(${[
  'ask', 'read', 'call', 'click', 'tap', 'see', 'contact', 'visit', 'e-?mail', 'phone', 'sign up', 'subscribe', 'follow', 'share', 'download',
  'order', 'buy', 'shop', 'book', 'get in touch', 'find out', 'learn more', 'back to', 'go to', 'don\'t forget', 'remember to',
  'cliquez', 'contactez', 'lisez', 'voir', 'klicken sie', 'lesen sie', 'kontaktieren sie', 'haga clic', 'contáctenos', 'lea',
].join('|')})\\b`, 'iu');

/** A sentence a description may use: complete, prose, readable, long enough to say something, not a call to action. */
function usable(sentence: string): boolean {
  if (!SENTENCE_END.test(sentence) || ELLIPSIS.test(sentence) || sentence.includes(REPLACEMENT) || CODE_LIKE.test(sentence)) return false;
  if (CALL_TO_ACTION.test(sentence)) return false;
  return CJK.test(sentence) ? sentence.length >= 12 : sentence.split(/\s+/).length >= 4;
}

/**
 * A meta description of whole sentences of the page's own text (the template already
 * removed by the crawl), in order, 80-160 characters, not already used on the site:
 * never cut mid-sentence, never an ellipsis. Otherwise the reason none can be written.
 */
export function writeMetaDescription(content: PageContent, taken: ReadonlySet<string>): Draft {
  if (content.paragraphs.length === 0) return { reason: 'the crawl kept no text of the page\'s own (only the site\'s template) to draft a description from' };
  // Sentences are segmented block by block as the search needs them: most pages are done after their first paragraphs.
  const sentences: string[] = [];
  let blocks = 0;
  let undecodable = false;
  const have = (n: number) => {
    while (sentences.length <= n && blocks < content.paragraphs.length) {
      for (const sentence of sentencesOf(content.paragraphs[blocks++]!, content.lang)) {
        if (usable(sentence)) sentences.push(sentence);
        else if (sentence.includes(REPLACEMENT)) undecodable = true;
      }
    }
    return sentences.length > n;
  };
  let fits = false;
  for (let start = 0; have(start); start++) {
    if (DEPENDENT_OPENING.test(sentences[start]!) || POINTS_ELSEWHERE.test(sentences[start]!) || NEEDS_REFERENT.test(sentences[start]!)) continue;
    let text = '';
    for (let i = start; have(i); i++) {
      const next = (CJK_END.test(text) ? `${text}${sentences[i]}` : `${text} ${sentences[i]}`).trim();
      if (next.length > DESCRIPTION_MAX) break;
      text = next;
      if (text.length >= DESCRIPTION_MIN) break;
    }
    if (text.length < DESCRIPTION_MIN || text.length > DESCRIPTION_MAX) continue;
    fits = true;
    if (!taken.has(text.toLowerCase())) return { text };
  }
  if (sentences.length === 0) {
    return undecodable
      ? { reason: 'the page\'s text did not decode cleanly (replacement characters): no description is drafted from it' }
      : { reason: 'the page\'s own text has no complete sentence to draft a description from' };
  }
  return fits
    ? { reason: 'every description of whole sentences the page\'s text allows is already used on the site' }
    : { reason: `no run of whole sentences of the page's own text is ${DESCRIPTION_MIN}-${DESCRIPTION_MAX} characters long` };
}

/** The rules a reworded value (the LLM writer's) must still meet: no ellipsis, no replacement character, no dangling end. */
export function meetsDraftRules(kind: 'meta_description' | 'title', text: string): boolean {
  if (text.includes(REPLACEMENT) || ELLIPSIS.test(text)) return false;
  return kind === 'title' ? !endsDangling(text) : SENTENCE_END.test(text);
}

/** Words a title must not end on (English, German, French, Spanish, Italian, Dutch, Portuguese), and separators. */
const DANGLING_WORDS = new Set((
  'a an the to of for in on at by with from and or but as into onto than that which via vs your our its their this these those is are be using how '
  + 'about above after before between through without within under over per like '
  + 'der die das den dem des ein eine und oder zu zum zur von mit für im am an auf bei '
  + 'le la les l de du des un une et ou à au aux pour par en sur avec '
  + 'el los las del y o para por con una uno il lo gli di da e per het een van voor met op em do dos da das um uma'
).split(' '));
const DANGLING_END = /[\s\-–—,;:|/&+([{·•.]+$/u;

/** True when the text ends on a word or sign that leaves the title hanging ("Using mod_rewrite to", "Version -"). */
export function endsDangling(text: string): boolean {
  const trimmed = text.trim();
  if (/[-–—,;:|/&+([{·•]$/u.test(trimmed) || /(\s|\d)\.$/u.test(trimmed)) return true; // a separator, or a number cut mid-way ("Version 2.")
  const last = /(\p{L}+)$/u.exec(trimmed)?.[1]?.toLowerCase();
  return last !== undefined && DANGLING_WORDS.has(last);
}

/** Cuts at a word boundary at or under `max`, then drops words and signs that would leave it hanging. */
function cutClean(text: string, max: number): string {
  let out = text.length <= max ? text : text.slice(0, max + 1).replace(/\s+\S*$/, '');
  // Never leave a bracket or a quotation open: "Systems (Red Hat / CentOS" becomes "Systems".
  const open = Math.max(out.lastIndexOf('('), out.lastIndexOf('['));
  if (open > out.lastIndexOf(')') && open > out.lastIndexOf(']')) out = out.slice(0, open);
  if ((out.match(/"/g) ?? []).length % 2 === 1) out = out.slice(0, out.lastIndexOf('"'));
  if (out.lastIndexOf('«') > out.lastIndexOf('»') || out.lastIndexOf('“') > out.lastIndexOf('”')) out = out.slice(0, Math.max(out.lastIndexOf('«'), out.lastIndexOf('“')));
  for (let i = 0; i < 10 && out && (DANGLING_END.test(out) || endsDangling(out)); i++) {
    out = out.replace(DANGLING_END, '');
    if (endsDangling(out)) out = out.replace(/\s*\p{L}+$/u, '');
  }
  return out.trim();
}

/**
 * A reference page's name line ("git-bundle - Move objects and refs by archive", the NAME
 * of a manual page) says more than a heading that is only the name ("git-bundle(1)"):
 * used when it opens the page's text and starts with the heading's name.
 */
function nameLine(topic: string, paragraphs: readonly string[]): string[] {
  const name = /^[\w.:-]+/u.exec(topic)?.[0];
  const first = paragraphs[0]?.replace(/\s+/g, ' ').trim();
  // The heading is only the name: "git-add(1)", "git-add(1) Manual Page".
  const onlyName = topic.replace(/\(\d[a-z]*\)/iu, '').replace(/\bmanual page\b/iu, '').trim() === name;
  if (!name || !first || !onlyName || SENTENCE_END.test(first)) return [];
  const match = /^([\w.:-]+) [-–—] (.+)$/u.exec(first);
  if (!match || match[1] !== name) return [];
  if (first.length <= TITLE_MAX) return [first];
  // A long name line is cut only where its phrase ends (a comma, "and", "or"): "Show changes
  // between commits, commit and working tree" keeps "Show changes between commits", never
  // "... commit and working".
  // The first clause (up to a comma), else the longest part before an "and"/"or" that fits: a list
  // "commits, commit and working tree" keeps its first item whole.
  const at = (pattern: RegExp) => [...first.matchAll(pattern)].map((m) => m.index).filter((i) => i > name.length + 3 && i <= TITLE_MAX);
  const clause = at(/, |; /gu);
  const joined = at(/ and | or /gu);
  const end = clause.length > 0 ? Math.min(...clause) : joined.length > 0 ? Math.max(...joined) : -1;
  const cut = end > 0 ? first.slice(0, end).trim() : '';
  return cut.split(/\s+/).length - 2 >= 3 ? [cut] : [];
}

/** A heading that numbers a section ("1. Overview", "2.3 Options") names a part of the page, not its topic. */
const SECTION_NUMBER = /^\d+(\.\d+)*\.?\s/;

/** "Version" in the languages sites are written in: a suffix shortened to its name must not end on it. */
const VERSION_WORD = /\s+(v|ver|version|versión|versão|versione|versie|wersja|sürüm|verze|версия|バージョン|버전|版本)$/iu;

/**
 * The suffix without its trailing version (" - Apache HTTP Server Version 2.4" -> " - Apache
 * HTTP Server", " - Apache HTTP Sunucusu Sürüm 2.4" -> " - Apache HTTP Sunucusu"), '' when
 * nothing but the separator would be left.
 */
function withoutVersion(suffix: string): string {
  const name = suffix.replace(/[\s,]+v?\d[\w.]*$/iu, '').replace(VERSION_WORD, '');
  return /^\s*[|–—-]?\s*$/.test(name) ? '' : name;
}

/**
 * A title that keeps the page's topic whole: its h1 (or its current title without the site
 * suffix), followed by the site suffix when it fits, else a shorter suffix, else none; the
 * topic is cut (never on a dangling word) only when it alone is over 60 characters. On a
 * CMS whose theme adds the suffix itself (suffixFixed), the suffix stays and the topic is
 * cut to fit beside it.
 */
export function writeTitle(content: PageContent, siteSuffix: string, taken: ReadonlySet<string>, options: { suffixFixed?: boolean } = {}): Draft {
  const siteName = siteSuffix.replace(/^\s*[|–—-]\s*/, '').trim().toLowerCase();
  const strip = (text: string) => (siteSuffix && text.endsWith(siteSuffix) ? text.slice(0, -siteSuffix.length) : text).trim();
  const isSiteName = (text: string) => siteName !== '' && [siteName, withoutVersion(` ${siteName}`).trim()].includes(text.toLowerCase());
  const h1 = strip(content.h1);
  const current = strip(content.title);
  const topic = [h1, current].find((t) => t && !SECTION_NUMBER.test(t) && !isSiteName(t))?.replace(DANGLING_END, '').trim();
  if (!topic) return { reason: 'the page has no heading or title of its own (only the site\'s name) to draft a title from' };
  if (topic.includes(REPLACEMENT)) return { reason: 'the page\'s heading did not decode cleanly (replacement characters)' };
  // A CMS theme prints its suffix after every post title: it cannot be shortened or dropped, so the topic is cut to fit it.
  const fixed = options.suffixFixed === true && siteSuffix !== '';
  const suffixes = fixed ? [siteSuffix] : [...new Set([siteSuffix, withoutVersion(siteSuffix), ''])];
  const whole = [...(fixed ? [] : nameLine(topic, content.paragraphs)), ...suffixes.map((suffix) => `${topic}${suffix}`)];
  const cut = fixed ? cutClean(topic, TITLE_MAX - siteSuffix.length) : cutClean(topic, TITLE_MAX);
  const cutTitle = fixed ? `${cut}${siteSuffix}` : cut;
  const candidates = [...whole, ...(cut.length > 0 && cut !== topic && /\s/.test(cut) && cutTitle.length >= TITLE_MIN ? [cutTitle] : [])]
    .filter((t) => t.length >= TITLE_MIN && t.length <= TITLE_MAX && !endsDangling(t));
  const free = candidates.find((t) => !taken.has(t.toLowerCase()));
  if (free) return { text: free };
  if (candidates.length > 0) return { reason: 'every title the page\'s heading allows is already used on the site' };
  return { reason: topic.length < TITLE_MIN && !siteSuffix
    ? `the page's heading "${topic}" is under ${TITLE_MIN} characters and the site's titles share no suffix to add`
    : `no title of ${TITLE_MIN}-${TITLE_MAX} characters keeps the page's topic "${topic}" without ending on a dangling word` };
}

/** The endings the site's titles share (two or more titles each), separator included, most common first. */
export function siteSuffixesOf(titles: string[]): string[] {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const suffix = /\s[|–—-]\s[^|–—]+$/.exec(title)?.[0];
    if (suffix && suffix.length < title.length) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).map(([suffix]) => suffix);
}

/** The ending most of the site's titles share, separator included (" | Shop", " – Shop"), or ''. */
export const siteSuffixOf = (titles: string[]) => siteSuffixesOf(titles)[0] ?? '';

/**
 * The suffix a page's new title takes: the shared one its current title already ends with
 * (a translated page keeps its own language's " - Serveur HTTP Apache"), the site's main
 * one for a page without a title, and none for a page whose title has no shared suffix.
 */
export function suffixForPage(currentTitle: string | null, suffixes: readonly string[]): string {
  if (!currentTitle) return suffixes[0] ?? '';
  return suffixes.find((suffix) => currentTitle.endsWith(suffix)) ?? (/\s[|–—-]\s/.test(currentTitle) ? '' : suffixes[0] ?? '');
}

/** Words an image file name carries that say nothing about the picture. */
const NOISE_WORD = /^(img|image|images|dsc|dscn|dscf|pic|picture|photo|foto|screenshot|screen|shot|scaled|copy|final|edited|untitled|wp|uploads?|e\d+|v\d+|[a-f0-9]{8,}|\d+x\d+|\d+)$/i;

/**
 * Alt text from a descriptive file name ("red-rose-bush-1024x768.jpg" -> "Red rose bush"),
 * or undefined for names that describe nothing (IMG_2041.jpg): an invented description
 * would be worse than none, so those wait for a person or the LLM writer.
 */
export function writeAltText(src: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
  const words = name
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.+,]+/)
    .filter((word) => word && !NOISE_WORD.test(word));
  if (words.filter((word) => /\p{L}{3,}/u.test(word)).length < 2) return undefined;
  const text = cutClean(words.join(' ').toLowerCase(), 125);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An h1 for a page that has none: its title without the site's suffix. */
export function writeH1(content: PageContent, siteSuffix: string): string | undefined {
  const title = siteSuffix && content.title.endsWith(siteSuffix) ? content.title.slice(0, -siteSuffix.length) : content.title;
  const text = title.trim();
  return text.length > 0 ? text : undefined;
}
