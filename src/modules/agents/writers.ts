import { TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import { displayWidth, saysName } from '../../lib/strings.ts';
import { balanced, ELLIPSIS, meetsDescriptionRules, REPLACEMENT, SENTENCE_END, type Draft } from './description-writer.ts';
import { writeMetaDescription } from './drafting/description.ts';
import type { PageContent } from './page-content.ts';
import { saysWord, wordsOf } from '../../lib/query-words.ts';

/**
 * Deterministic, extractive writers: every proposed value is built from the page's own
 * words, within the bounds the audit checks, or not proposed at all (undefined).
 */

export type { Draft };
export { writeMetaDescription };


/** The rules a reworded value (the LLM writer's) must still meet: no ellipsis, no replacement character, no dangling end. */
export function meetsDraftRules(kind: 'meta_description' | 'title', text: string): boolean {
  if (kind === 'meta_description') return meetsDescriptionRules(text);
  return !text.includes(REPLACEMENT) && !ELLIPSIS.test(text) && !endsDangling(text);
}

/** Words a title must not end on (English, German, French, Spanish, Italian, Dutch, Portuguese and others), and separators. */
const DANGLING_WORDS = new Set((
  'a an the to of for in on at by with from and or but as into onto than that which via vs your our its their this these those is are be using how '
  + 'about above after before between through without within under over per like '
  + 'der die das den dem des ein eine und oder zu zum zur von mit für im am an auf bei '
  + 'le la les l de du des un une et ou à au aux pour par en sur avec '
  + 'el los las del y o para por con una uno il lo gli di da e per het een van voor met op em do dos da das um uma '
  // Scandinavian, Indonesian, Polish, Czech, Romanian, Croatian, Turkish, Vietnamese: seen ending cut titles of a book in 26 languages.
  + 'och og att av för med till som på af til fra eller yang dan ke dari untuk dengan atau pada oraz dla od przez pro nebo se și pentru cu din în sau '
  + 'za ili ve ile için veya và của cho với'
).split(' '));
/** Separators a cut title must not end on; "+" only after a space ("C++" is a name, "A +" a dangling sign). */
const DANGLING_END = /(\s\+|[\s\-–—,;:|/&([{·•.])+$/u;

/** True when the text ends on a word or sign that leaves the title hanging ("Using mod_rewrite to", "Version -"). */
export function endsDangling(text: string): boolean {
  const trimmed = text.trim();
  if (/[-–—,;:|/&([{·•]$|\s\+$/u.test(trimmed) || /(\s|\d)\.$/u.test(trimmed)) return true; // a separator, or a number cut mid-way ("Version 2.")
  const last = /(\p{L}+)$/u.exec(trimmed)?.[1]?.toLowerCase();
  return last !== undefined && DANGLING_WORDS.has(last);
}

/** Cuts at a word boundary at or under `max`, then drops words and signs that would leave it hanging. */
export function cutClean(text: string, max: number): string {
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
 * Prepositions that open a phrase a title can lose ("Functions creating iterators | for
 * efficient looping"). Not "of", "by", "to", "into", "and" or "or": what follows them completes the
 * words before ("the changes introduced | by ...", "what revision | and author ...", "Turning
 * Our Server | into a Multithreaded Server").
 */
const DETACHABLE = new Set((
  'for with using via from in on across through without within under over about per '
  + 'für mit über durch ohne pour avec sur dans sans para con sobre sin per su voor met op över för med på untuk dengan dla przez'
).split(' '));

/** The first word of a preposition of two ("instead of", "because of", "according to"): a cut before its second loses the meaning ("Writing to Standard Error Instead"). */
const HALF_A_PREPOSITION = /\s(instead|because|out|ahead|regardless|irrespective|according|due|prior|apart|thanks|owing|next|close|contrary|in front|in spite|in terms|on top|on behalf|by means)$/iu;

/**
 * The longest start of `text` within `max` (display width) that ends where a phrase ends:
 * at a separator (" — ", ": ", ", ", "; ", " (") if one fits, else before a detachable
 * prepositional phrase, else before "to" or "of"; never inside a hyphenated word. '' when no such cut keeps at least
 * two words: a title cut anywhere else loses its topic ("... operate with graph").
 */
export function cutAtPhrase(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const separators = [...text.matchAll(/\s+[—–-]\s+|:\s+|,\s+|;\s+|\s+\(|\s+\|\s+/gu)].map((m) => m.index);
  const prepositions = [
    ...[...text.matchAll(/\s+(\p{L}+)(?=\s)/gu)].filter((m) => DETACHABLE.has(m[1]!.toLowerCase())).map((m) => m.index),
    // "... another repository | or a local branch": an alternative that starts a noun phrase of its own.
    ...[...text.matchAll(/\s+(and|or)\s+(a|an|the|its|their|your|our|any|other)\s/giu)].map((m) => m.index),
  ];
  // Last, before "to" or "of": "Kent's own guide | to climbing roses", "untracked files | to ignore" (never before "by" or "and").
  const weaker = [...text.matchAll(/\s+(to|of)\s/giu)].map((m) => m.index);
  const words = text.split(/\s+/).length;
  for (const ends of [separators, prepositions, weaker]) {
    const fits = ends
      .map((at) => text.slice(0, at).replace(DANGLING_END, '').trim())
      .filter((cut) => displayWidth(cut) <= max && cut.split(/\s+/).length >= 2 && !endsDangling(cut) && !HALF_A_PREPOSITION.test(cut) && balanced(cut)
        // Before "to" or "of", at least half the words stay: "Writing Error Messages | to Standard Error Instead of Standard Output" has lost its topic.
        && (ends !== weaker || cut.split(/\s+/).length * 2 >= words));
    const longest = fits.sort((a, b) => b.length - a.length)[0];
    if (longest) return longest;
  }
  return '';
}


/**
 * Numbering that names a place in a book, not the page's topic: "13.6. ", "F.1. ", "3. ",
 * "Chapter 27. ", "Part IV. ", "Appendix F. " (in the languages such books are written in).
 */
const NUMBERING = /^((chapter|part|appendix|section|chapitre|partie|annexe|kapitel|teil|anhang|capítulo|parte|apéndice|capitolo|appendice|hoofdstuk|rozdział|kapitola|kapittel|глава|часть|приложение|第)\s*)?(\d+|[IVXLC]+|[A-Z])((\.\d+)+\.?|\.|\s*[章部])\s+/iu;
export const withoutNumbering = (heading: string) => heading.replace(NUMBERING, '').trim();

/**
 * A reference page's name line ("git-bundle - Move objects and refs by archive", "ALTER
 * COLLATION — change the definition of a collation", the NAME of a manual page) says more
 * than a heading that is only the name ("git-bundle(1)", "ALTER COLLATION"): used when it
 * opens the page's text and starts with the heading's name; a long one is cut where a phrase ends.
 */
function nameLine(topic: string, paragraphs: readonly string[]): string[] {
  // The heading is only the name: "git-add(1)", "git-add(1) Manual Page", "ALTER COLLATION".
  const name = topic.replace(/\(\d[a-z]*\)/iu, '').replace(/\bmanual page\b/iu, '').trim();
  const first = paragraphs[0]?.replace(/\s+/g, ' ').trim();
  if (!name || !first || SENTENCE_END.test(first) || name.split(/\s+/).length > 4) return [];
  // "SELECT, TABLE, WITH — retrieve rows from a table or view": other names may follow the heading's before the dash.
  const match = /^(.{1,60}?)\s[-–—]\s(.+)$/u.exec(first);
  if (!match || !match[1]!.toLowerCase().startsWith(name.toLowerCase()) || !/^[\s,\p{L}\d_.:-]*$/u.test(match[1]!.slice(name.length))) return [];
  const cut = cutAtPhrase(first, TITLE_MAX);
  return cut && cut.length > match[1]!.length + 3 && cut.split(/\s+/).length - match[1]!.split(/\s+/).length >= 3 ? [cut] : [];
}

/** "Version" in the languages sites are written in: a suffix shortened to its name must not end on it. */
const VERSION_WORD = /\s+(v|ver|version|versión|versão|versione|versie|wersja|sürüm|verze|версия|バージョン|버전|版本)$/iu;
/** Words after a site's name that say what kind of site it is, and can go first: " — Python 3.11.2 documentation". */
const KIND_WORDS = /\s+(documentation|docs|manual|handbook|reference|guide|wiki|help|dokumentation|documentación|documentação|документация|ドキュメント|文档)$/iu;

/**
 * The suffix, then ever shorter forms of it that keep the site's name: without the kind of
 * site (" — Python 3.11.2"), without a version (" — Python"); '' is left to the caller. A
 * version is kept or dropped whole: " — Python 3.11" would name another release.
 */
export function shorterSuffixes(suffix: string): string[] {
  const forms = [suffix];
  // A suffix with a release's version keeps it in every form (" — Python 3.11.2", never " — Python documentation" or " — Python"):
  // read by the owner, a manual's page without its version names no release, and competes with every other release's page.
  const version = versionOf(suffix);
  const add = (form: string) => {
    if (!/^\s*[|–—-]?\s*$/.test(form) && !forms.includes(form)) forms.push(form);
  };
  const noKind = suffix.replace(KIND_WORDS, '');
  add(noKind);
  for (const base of [suffix, noKind]) {
    add(withoutVersion(base));
    add(base.replace(/[\s,]+v?\d[\w.]*(?=\s|$)/iu, '').replace(KIND_WORDS, '').replace(VERSION_WORD, ''));
  }
  return forms.filter((form) => version === undefined || form.includes(version)).sort((a, b) => b.length - a.length);
}

/** The release a site's suffix names (" — Python 3.11.2 documentation" -> "3.11.2"), if any. */
export const versionOf = (suffix: string) => /(?<=[\s,])v?\d+(?:\.\d+)+[\w.]*(?=\s|$)/iu.exec(suffix)?.[0];

/** The suffix without its trailing version (" - Apache HTTP Server Version 2.4" -> " - Apache HTTP Server"). */
function withoutVersion(suffix: string): string {
  const name = suffix.replace(/[\s,]+v?\d[\w.]*$/iu, '').replace(VERSION_WORD, '');
  return /^\s*[|–—-]?\s*$/.test(name) ? '' : name;
}

/**
 * A title that keeps the page's topic whole: its h1 (or its current title without the site
 * suffix), without a book's section numbering, followed by the site suffix when it fits,
 * else a shorter form of it, else none; the topic is cut only when it alone is over 60
 * characters, and then only where a phrase ends. On a CMS whose theme adds the suffix
 * itself (suffixFixed), the suffix stays and the topic is cut to fit beside it.
 */
export function writeTitle(content: PageContent, siteSuffix: string, taken: ReadonlySet<string>, options: { suffixFixed?: boolean; shortForm?: string; ownShared?: boolean } = {}): Draft {
  const siteName = siteSuffix.replace(/^\s*[|–—-]\s*/, '').trim().toLowerCase();
  const strip = (text: string) => (siteSuffix && text.endsWith(siteSuffix) ? text.slice(0, -siteSuffix.length) : text).trim();
  const isSiteName = (text: string) => siteName !== '' && [siteName, withoutVersion(` ${siteName}`).trim()].includes(text.toLowerCase());
  const [h1, current] = [strip(content.h1), strip(content.title)];
  // A numbered h1 under a title of its own names a part of the page ("1. Overview" of "The SELECT statement").
  const headings = (NUMBERING.test(h1) && current && !NUMBERING.test(current) ? [current, h1] : [h1, current]).filter(Boolean);
  const topic = headings.map(withoutNumbering).find((t) => t && !isSiteName(t))?.replace(DANGLING_END, '').trim();
  // "The Rust Programming Language - The Rust Programming Language" (a home page): the name once is the title.
  const repeatedName = current && isSiteName(current) && siteSuffix !== '' && content.title.trim() !== current ? current : undefined;
  if (!topic && repeatedName && displayWidth(repeatedName) >= TITLE_MIN && !taken.has(repeatedName.toLowerCase())) return { text: repeatedName };
  if (!topic) {
    return { reason: headings.length > 0 && headings.every(isSiteName)
      ? 'the page has no heading or title of its own (only the site\'s name) to draft a title from'
      : 'the page has no heading or title to draft a title from' };
  }
  if (topic.includes(REPLACEMENT)) return { reason: 'the page\'s heading did not decode cleanly (replacement characters)' };
  // A landing page's or a shop's heading that is a tagline ("Work smarter, not harder 🚀" over "Features | Ledgerly", "We’re on a
  // mission to make accounting invisible" over "About us | Ledgerly") says nothing of what its title names: read by the site's
  // owner, such titles were worse than the short ones they replaced. (Not an article's: its headline is its topic.)
  const ownName = topic === h1 && current && current !== h1 && !isSiteName(current) && !PLACEHOLDER_TITLE.test(current) && content.article !== true ? current : undefined;
  if (ownName !== undefined && TAGLINE.test(topic) && !saysAnyWordOf(topic, ownName)) {
    return { rule: 'heading_is_tagline', reason: `the page's heading ("${topic}") says nothing of what its title names ("${ownName}"): a title made of it would name a slogan, not the page; write one that says what the page is` };
  }
  // ("Simple, honest pricing" over "Pricing | Ledgerly": the title's word and praise, read by the owner as adding nothing.)
  if (ownName !== undefined && onlyPraiseAdded(topic, ownName)) {
    return { rule: 'heading_adds_praise', reason: `the page's heading ("${topic}") adds only praise to what its title names ("${ownName}"): a title made of it would say nothing more; write one that adds what the page offers (its plans, its prices)` };
  }
  const numbered = headings.find((h) => withoutNumbering(h) === topic && h !== topic);
  // A CMS theme prints its suffix after every post title: it cannot be shortened or dropped, so the topic is cut to fit it.
  const fixed = options.suffixFixed === true && siteSuffix !== '';
  // The forms of the suffix tried, longest first: the site's own, then (when the planner chose one: siteTitleForm)
  // the site's one short form and what is shorter still, so that new titles end in two forms, not five.
  // (With a version, every form keeps it: a topic that fits none of them is cut at a phrase beside the shortest when most of it
  // stays, else goes without the site's name at all, which claims no release; never " — Python", which claims them all.)
  const versioned = versionOf(siteSuffix) !== undefined;
  const allForms = fixed ? [siteSuffix] : [...shorterSuffixes(siteSuffix), ''];
  const short = options.shortForm;
  const suffixes = fixed || short === undefined ? allForms : allForms.filter((f) => f === siteSuffix || f.length <= short.length);
  // (A heading that names the site already takes no suffix that names it again: "Security at Ledgerly", not "... | Ledgerly".)
  const namesSite = siteName !== '' && saysName(topic.toLowerCase(), siteName);
  // (Where the theme prints the suffix itself, such a heading would show the name twice whatever the title field says.)
  if (namesSite && fixed) {
    return { rule: 'names_site_twice', reason: `the page's heading ("${topic}") names the site, and the site's theme adds its name after every title ("${siteSuffix.trim()}"): a title made of it would show the name twice; write one that names what the page is` };
  }
  const whole = [...(fixed ? [] : nameLine(topic, content.paragraphs)), ...suffixes.filter((suffix) => suffix !== '' && !namesSite).map((suffix) => `${topic}${suffix}`)];
  // A topic that ends on a word a title cannot end on ("... - what you could do") is cut at its last phrase before it.
  const beside = fixed ? siteSuffix : '';
  const cut = cutAtPhrase(topic, Math.min(TITLE_MAX - displayWidth(beside), endsDangling(topic) ? displayWidth(topic) - 1 : Infinity));
  const cutTitle = `${cut}${beside}`;
  const shortest = allForms.at(-2) ?? '';
  const versionCut = versioned && !fixed ? cutAtPhrase(topic, TITLE_MAX - displayWidth(shortest)) : '';
  const keepsMost = versionCut !== '' && versionCut !== topic && versionCut.split(/\s+/).length * 3 >= topic.split(/\s+/).length * 2;
  const candidates = [...whole, ...(keepsMost ? [`${versionCut}${shortest}`] : []), ...(suffixes.includes('') ? [topic] : []), ...(cut !== '' && cut !== topic ? [cutTitle] : [])]
    .filter((t) => displayWidth(t) >= TITLE_MIN && displayWidth(t) <= TITLE_MAX && !endsDangling(t));
  // A heading that is only a command's name ("git-blame(1) Manual Page") makes no better title than the one it has: its name line must fit.
  const nameOnly = /\(\d[a-z]*\)|\bmanual page\b/iu.test(topic);
  if (nameOnly && !fixed && nameLine(topic, content.paragraphs).length === 0) {
    return { reason: `the page's heading "${topic}" is only its name, and its name line does not fit ${TITLE_MAX} characters without losing its meaning` };
  }
  // A title another page has is not made unique by a different form of the suffix ("Introduction — Python 3.11" vs "… 3.11.2"): the topic must differ.
  const own = content.title.toLowerCase();
  // A duplicated title is held by another page too: "Introduction — Python" is no way out of two "Introduction — Python 3.11.2 documentation".
  const takenByOthers = (title: string) => (title !== own || options.ownShared === true) && taken.has(title);
  const used = (title: string) => takenByOthers(title.toLowerCase()) || (title.startsWith(topic) && allForms.some((suffix) => takenByOthers(`${topic}${suffix}`.toLowerCase())));
  // The title the page already has is no fix (a duplicate pair's other page is the one to change).
  const free = candidates.find((t) => !used(t) && t.toLowerCase() !== own);
  if (free) return { text: free };
  if (candidates.length > 0) return { reason: 'every title the page\'s heading allows is already used on the site' };
  const named = numbered ? ` (without its numbering, "${numbered}")` : '';
  if (displayWidth(topic) < TITLE_MIN) {
    return { reason: siteSuffix
      ? `the page's heading "${topic}"${named} with the site's suffix is still not a title of ${TITLE_MIN}-${TITLE_MAX} characters`
      : `the page's heading "${topic}"${named} is under ${TITLE_MIN} characters and the site's titles share no suffix to add` };
  }
  const room = TITLE_MAX - (fixed ? displayWidth(siteSuffix) : 0);
  if (displayWidth(topic) <= room && endsDangling(topic)) {
    return { reason: `the page's heading "${topic}" ends on "${topic.split(/\s+/).at(-1)}", a word a title cannot end on, and no phrase of it ends sooner that makes a title` };
  }
  return { reason: `the page's heading "${topic}" is ${displayWidth(topic)} characters and no phrase of it ends within ${room}: cutting it elsewhere would lose its topic` };
}

/**
 * What marks a heading as a tagline rather than a page's name: a picture character, the site speaking ("we", "our") or to the
 * visitor ("you", "your"), an exclamation. (A placeholder title, "Old" over "Handmade oak tables", is no name to keep.)
 */
const TAGLINE = /\p{Extended_Pictographic}|(?<![\p{L}'’])(?:we|we're|we’re|we've|we’ve|our|us|you|your|you're|you’re)(?![\p{L}'’])|!$/iu;
/** Words that praise rather than say (a landing page's headings): "simple", "honest", "powerful", "seamless". */
const PRAISE = new Set(['simple', 'simply', 'honest', 'transparent', 'easy', 'effortless', 'powerful', 'smart', 'smarter', 'seamless', 'beautiful',
  'amazing', 'awesome', 'great', 'best', 'better', 'modern', 'fast', 'faster', 'friendly', 'fair', 'flexible', 'clear', 'straightforward', 'delightful',
  'incredible', 'perfect', 'ultimate', 'world-class', 'next-generation', 'innovative', 'stunning', 'intuitive', 'no-nonsense', 'hassle-free', 'worry-free']);
/** Whether a heading says its page's name and, besides it, only praise ("Simple, honest pricing" for "Pricing"). */
function onlyPraiseAdded(heading: string, name: string): boolean {
  const own = wordsOf(name).filter((w) => !NAME_FILLER.has(w));
  const added = wordsOf(heading).filter((w) => !NAME_FILLER.has(w) && !saysWord(own, w));
  return own.length > 0 && added.length > 0 && added.length < wordsOf(heading).length && added.every((w) => PRAISE.has(w));
}
/** A title a CMS or an editor leaves in place of one: it names no page. */
const PLACEHOLDER_TITLE = /^(?:untitled(?: document| page)?|new page|page|document|home(?: ?page)?|index|welcome|default|test|old)$/iu;
/** Words a page's name is made of that say nothing of its subject ("About us", "Our team"). */
const NAME_FILLER = new Set(['us', 'our', 'the', 'a', 'an', 'and', 'of', 'at', 'for', 'to', 'in', 'on', 'with', 'your', 'my', 'we']);
/** Whether a heading says a word of a page's name (its family counting: "pricing" for "Pricing", "feature" for "Features"). */
export function saysAnyWordOf(heading: string, name: string): boolean {
  const words = wordsOf(heading);
  const own = wordsOf(name).filter((w) => !NAME_FILLER.has(w));
  return own.length === 0 || own.some((w) => saysWord(words, w));
}

/**
 * The one short form of a suffix for the new titles that cannot keep it whole: the longest
 * that FORM_SHARE of them keep whole (the others go shorter still, or without one). A title
 * that fits the suffix keeps it as the site's other pages have it. Without this, a site's new
 * titles ended in five forms of its name (" — Django 3.2.25 documentation", " — Django 3.2.25",
 * " — Django documentation", " — Django", none).
 */
export function siteTitleForm(contents: readonly PageContent[], siteSuffix: string, taken: ReadonlySet<string>): string | undefined {
  const forms = shorterSuffixes(siteSuffix).slice(1);
  if (!siteSuffix || forms.length === 0) return undefined;
  const keeps = (content: PageContent, form: string) => {
    const draft = writeTitle(content, siteSuffix, taken, { shortForm: form });
    return 'text' in draft && draft.text.endsWith(form);
  };
  const tooLong = contents.filter((content) => !keeps(content, siteSuffix));
  if (tooLong.length === 0) return undefined;
  const keeping = forms.map((form) => tooLong.filter((content) => keeps(content, form)).length);
  const most = Math.max(...keeping);
  return most === 0 ? undefined : forms.find((_, i) => keeping[i]! >= most * FORM_SHARE);
}
const FORM_SHARE = 0.9;

/**
 * The endings the site's titles share (titles of two or more topics each), separator
 * included, most common first. One heading left untranslated in eight languages
 * ("10.5. Genius/Paranoia Ideas - what you could do") is one topic, not the site's name.
 */
export function siteSuffixesOf(titles: string[]): string[] {
  const topics = new Map<string, Set<string>>();
  for (const title of titles) {
    const suffix = /\s[|–—-]\s[^|–—]+$/.exec(title)?.[0];
    if (suffix && suffix.length < title.length) topics.set(suffix, (topics.get(suffix) ?? new Set()).add(title.slice(0, -suffix.length).trim().toLowerCase()));
  }
  return [...topics].filter(([, t]) => t.size >= 2).sort((a, b) => b[1].size - a[1].size).map(([suffix]) => suffix);
}

/** The ending most of the site's titles share, separator included (" | Shop", " – Shop"), or ''. */
export const siteSuffixOf = (titles: string[]) => siteSuffixesOf(titles)[0] ?? '';

/**
 * The suffix a page's new title takes: the shared one its current title already ends with
 * (a translated page keeps its own language's " - Serveur HTTP Apache"), the site's main
 * one for a page without a title, and none for a page whose title has no shared suffix. A
 * title without one ("Hi") takes the site's main suffix only when that is the site's
 * convention (`siteWide`: half its titles or more end with it): on a site of many publishers, one
 * publisher's " - WSJ" is not another's.
 */
export function suffixForPage(currentTitle: string | null, suffixes: readonly string[], siteWide = true): string {
  if (!currentTitle) return suffixes[0] ?? '';
  return suffixes.find((suffix) => currentTitle.endsWith(suffix)) ?? (/\s[|–—-]\s/.test(currentTitle) || !siteWide ? '' : suffixes[0] ?? '');
}

/** Whether half the site's titles or more end with its main suffix (suffixForPage's `siteWide`). */
export function suffixIsSiteWide(titles: ReadonlyArray<string | null>, suffixes: readonly string[]): boolean {
  const main = suffixes[0];
  const named = titles.filter((t): t is string => Boolean(t));
  return main !== undefined && named.filter((t) => t.endsWith(main)).length * 2 >= named.length;
}

/** An h1 for a page that has none: its title without the site's suffix. */
export function writeH1(content: PageContent, siteSuffix: string): string | undefined {
  const title = siteSuffix && content.title.endsWith(siteSuffix) ? content.title.slice(0, -siteSuffix.length) : content.title;
  const text = title.trim();
  return text.length > 0 ? text : undefined;
}
