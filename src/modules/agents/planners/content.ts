import { THIN_WORDS } from '../../checks/page-checks.ts';
import { priorityOf } from '../proposal.ts';
import { saysAnyWordOf, withoutNumbering } from '../writers.ts';
import { proposeByPage, type PageFix } from './grouping.ts';
import { readOrReject, siteNameOf, type Planner } from './planner.ts';
import { CATEGORY_PAGE } from './site-pages.ts';
import { languageName } from '../text-language.ts';
import { SPEC_LINE, WEEKDAY } from '../drafting/compose.ts';

/** Pages that are short by nature: asking for 300 words on them would be noise. */
// (And a form to book or try something, "Book a demo", "Request a quote": read by a landing site's owner, 300 words would hurt the
// conversion the page is for; a team's list of people, which says who they are at the length that takes.)
const UTILITY_PATH = /\/(contact|kontakt|cart|basket|checkout|login|log-in|sign-?in|sign-?up|register|account|my-account|search|privacy|cookies?|terms|legal|legalnotice|imprint|impressum|copyright|licen[cs]e|disclaimer|credits|thank-?you|404|genindex[\w-]*|[\w-]*modindex|bookindex|sitemap|(?:book|request|schedule|get)-(?:a-)?(?:demo|call|quote|consultation|appointment)|demo|free-trial|start-trial|get-started|(?:meet-)?(?:the-|our-)?team)(\/|$|\.)/i;
/**
 * Words a brief asks for, by kind of page: a product, a category or a service's page needs the facts a buyer reads, not 300 words
 * (read by the owners of a shop and a dental practice), only what clears the thin-content check (the count its verification reads
 * again); an article or a manual's page the length that answers its question.
 */
const TARGET_WORDS: Record<PageKind, number> = { product: THIN_WORDS, category: THIN_WORDS, article: 300, documentation: 300, page: THIN_WORDS };
/**
 * A page this near the thin-content line (its share of THIN_WORDS) is not briefed: a few more words change nothing, and the owners
 * of a dental practice and a SaaS site read such briefs (194 and 199 words) as noise on pages that say what they need to.
 */
const NEARLY_ENOUGH = 0.9;
const SITE_TYPES = new Set(['WebSite', 'Organization', 'LocalBusiness', 'Corporation', 'Store', 'OnlineStore']);

type PageKind = 'product' | 'category' | 'article' | 'documentation' | 'page';

/** What a thin page of each kind needs: a shop's questions on a manual page would be noise. */
const BRIEFS: Record<PageKind, string> = {
  product: 'the facts a buyer needs (what it is, what it is made of, its sizes, how it is used or cared for), who it is for, the questions buyers ask, and a clear next step; facts in place of lines that only praise it',
  category: 'a short introduction above what it lists: what the category holds, who it is for and how to choose among them',
  article: 'the question the article answers, the facts and examples behind the answer, and what to read next',
  documentation: 'what it does, when to use it, a worked example, its options or parameters, and the related pages',
  page: 'what the page offers, who it is for, the details a visitor needs, and where to go next',
};

/** The page's kind from its structured data, else from the words its URL is made of. */
/** Section headings reference pages share (a man page's SYNOPSIS and OPTIONS, an API page's Parameters). */
const REFERENCE_SECTION = /^(\d+(\.\d+)*\.?\s+)?(synopsis|options|parameters|arguments|return values?|syntax|usage|examples?|configuration|directives?|see also|api|properties|methods|flags)$/i;

export function pageKind(url: string, jsonLdTypes: readonly string[], headings: readonly string[] = []): PageKind {
  const types = new Set(jsonLdTypes);
  if (['Product', 'Offer', 'ProductGroup'].some((t) => types.has(t))) return 'product';
  if (['TechArticle', 'APIReference', 'SoftwareSourceCode'].some((t) => types.has(t))) return 'documentation';
  if (['Article', 'BlogPosting', 'NewsArticle', 'Report'].some((t) => types.has(t))) return 'article';
  const path = new URL(url).pathname.toLowerCase();
  if (types.has('CollectionPage') || CATEGORY_PAGE.pattern.test(path)) return 'category';
  if (/\/(products?|shop|store|item|p)\//.test(path)) return 'product';
  if (/\/(docs?|documentation|manual|man|reference|api|guide|guides|howto|handbook|kb|faq|tutorials?)(\/|$|\.)/.test(path)) return 'documentation';
  if (/\/(blog|news|articles?|posts?|stories)\/|\/\d{4}\/\d{2}\//.test(path)) return 'article';
  if (headings.filter((h) => REFERENCE_SECTION.test(h.trim())).length >= 2) return 'documentation';
  return 'page';
}

/**
 * The site's home page (its address, or "/index.html" under it): it says what the site is and leads to its sections (a hero, the
 * products, what sets the business apart); words added to reach a count push those down. Read by a shop's owner: "a 300-word
 * target is padding for a shop homepage". (Not a language's root such as "/fr/": a page's language is read from its address when
 * it declares none, so "/hr/" would prove itself a home page.)
 */
export function isHomePage(url: string, homeUrl: string): boolean {
  const root = (address: string) => new URL(address).pathname.replace(/\/index\.\w+$/u, '/');
  return root(url) === root(homeUrl);
}

/** A category page's introduction: a paragraph of this many words or more, ending a sentence, before what it lists. */
const INTRODUCTION_WORDS = 20;
/** Items of a page's order that are what a category lists: list items, table rows. (A product card of 20 words is no introduction.) */
const LISTED = new Set(['l', 't']);
export function introductionOf(stored: { blocks: readonly string[]; order?: string }): string | undefined {
  const kinds = [...(stored.order ?? '')].filter((item) => item < '0' || item > '6');
  for (const [i, block] of stored.blocks.entries()) {
    if (kinds[i] !== undefined && LISTED.has(kinds[i]!)) return undefined;
    if ((kinds[i] ?? 'p') === 'p' && block.split(/\s+/u).length >= INTRODUCTION_WORDS && /[.!?]["”’)]?$/u.test(block.trim())) return block;
  }
  return undefined;
}

/** A manual page's section marker in its title or heading: "git-add(1)", "printf(3p)". */
const MAN_SECTION = /[\w.-]\(\d[a-z]*\)/i;

/**
 * A reference entry (a manual page, an API or directive entry) says what it must at its
 * length: its title carries a manual section, or it is built of two or more reference
 * sections (Synopsis, Options, Parameters...). Asking for 300 words would pad it.
 */
export function isReferenceEntry(title: string, headings: readonly string[]): boolean {
  return MAN_SECTION.test(title) || headings.filter((h) => REFERENCE_SECTION.test(h.trim())).length >= 2;
}

/** A hub: more lists of links than text of its own (a table of contents, an index of pages): its links are its content, not thin text. */
export const isHub = (stored: { link_lists?: number; blocks: readonly string[] }) =>
  (stored.link_lists ?? 0) >= 3 && (stored.link_lists ?? 0) > stored.blocks.length;

/**
 * Release notes and changelogs say what changed at the length it took: a point release's
 * three fixes padded to 300 words would read worse, not rank better.
 */
const RELEASE_NOTES = /\b(release notes?|changelog|change log|changes in (version )?\d|what'?s new in|versionshinweise|notes de (version|publication)|notas de (la )?versi[oó]n)\b/i;
const RELEASE_NOTES_PATH = /\/(releases?|changelog|changes|release-notes|news)(\/|\.|$)/i;
export const isReleaseNotes = (url: string, topic: string) => RELEASE_NOTES.test(topic) || (RELEASE_NOTES_PATH.test(new URL(url).pathname) && /\d+\.\d+/.test(topic));

/** A page that is mostly code (a source listing, an example): prose around it would not make it a better page. */
export const isCodeListing = (stored: { code_chars?: number; blocks: readonly string[] }) =>
  (stored.code_chars ?? 0) > 2 * stored.blocks.reduce((sum, block) => sum + block.length, 0);

/**
 * What a thin page's brief asks to write about: its h1, without a book's numbering ("4.3. "); not a heading that shares no word
 * with the page's title, a tagline ("Roulez mieux. Roulez plus loin." over "Cycles Rivière – Magasin et atelier vélo à Lyon", read
 * by the owner as a slogan to write 300 words about): then the title, which names the page.
 */
export function briefTopic(content: { h1: string; title: string }, siteSuffix: string): string {
  const ownTitle = titleTopic(content.title, siteSuffix);
  const heading = content.h1 && (!ownTitle || saysAnyWordOf(content.h1, ownTitle)) ? content.h1 : '';
  return withoutNumbering(heading || ownTitle || content.h1);
}
/** The names of a product's specification lines, when it has a run of at least three in a row ("Origin", "Process", "Roast"). */
export function specificationKeys(blocks: readonly string[]): string[] {
  let run: string[] = [];
  for (const block of blocks) {
    if (SPEC_LINE.test(block) && !WEEKDAY.test(block)) run.push(block.slice(0, block.indexOf(':')));
    else if (run.length >= 3) break;
    else run = [];
  }
  return run.length >= 3 ? [...new Set(run)] : [];
}

/**
 * Pages whose words can hurt a reader when wrong (health, law, money: "your money or your life"): their brief asks for what it adds
 * to be checked by someone qualified. Read by a dental practice's owner: a brief for the emergency page invited first-aid advice no
 * dentist had checked. The page's own words decide (English, French, German, Spanish); an example it names, one it leaves.
 */
export const QUALIFIED_REVIEW = {
  id: 'qualified_review',
  // Stems with their endings ("Zahnarztpraxis", "médecins", "abogados"); not words as often used otherwise ("retail therapy",
  // "bike clinic", "shipping insurance", French "avocat" for avocado).
  pattern: /(?<!\p{L})(?:dentist|dental|orthodont|physician|doctors?(?!\p{L})|medical|patients(?!\p{L})|symptom|pharmac|surger(?:y|ies)(?!\p{L})|therapist|physiotherap|psychotherap|lawyer|attorney|solicitor|legal advice|mortgage|financial advice|tax advice|dentaire|médecin|médical|cabinet d'avocats|zahnarzt|zahnärzt|hausarzt|ärzt|rechtsanwalt|anwaltskanzlei|médic|clínica|abogad)/iu,
  says: 'Anything medical, legal or financial is checked by a qualified person before it goes live.',
  example: 'Same-day emergency dental appointments for toothaches and broken teeth.',
  counterExample: 'A little retail therapy: our bike clinic checks your brakes, and shipping insurance is included.',
};

/** "Write in French." for a page not in English (a brief read by a French shop's owner did not say so); '' in English or unknown. */
export const writtenIn = (lang: string | null) => {
  const code = lang?.toLowerCase().split(/[-_]/u)[0];
  return code && code !== 'en' ? `Write in ${languageName(code)}, the page's language.` : '';
};

/** Whether a page is short by nature (UTILITY_PATH). */
export const isUtilityPage = (url: string) => UTILITY_PATH.test(new URL(url).pathname);
const titleTopic = (title: string, suffix: string) => (suffix && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title).trim();

/** expand_thin_content and add_structured_data. */
export const contentPlanner: Planner = {
  checks: ['thin_content', 'json_ld_invalid'],
  async plan(ctx) {
    const thin = ctx.byUrl(['thin_content']);
    const briefs: Array<PageFix & { words: string }> = [];
    for (const [url, [finding]] of thin) {
      if (isUtilityPage(url)) {
        await ctx.reject('expand_thin_content', url, 'a utility page (contact, cart, account, legal, a form to book a demo, a team\'s list, an index…): short by nature');
        continue;
      }
      const page = await readOrReject(ctx, 'expand_thin_content', url);
      if (!page) continue;
      if (isHomePage(url, ctx.homeUrl)) {
        await ctx.reject('expand_thin_content', url, 'the home page: it leads visitors to the site\'s sections, and words added to reach a count would push those down');
        continue;
      }
      const headingTexts = page.stored.headings.map((h) => h.text);
      const kind = pageKind(url, page.stored.json_ld.flatMap((b) => b.types), headingTexts);
      if (isReferenceEntry(page.content.h1 || page.content.title, headingTexts)) {
        await ctx.reject('expand_thin_content', url, 'a reference entry (a manual page, or Synopsis/Options/Parameters sections): complete at its length, not thin');
        continue;
      }
      // (Not a category: its lists of links are what it lists, and what it may lack is the introduction above them.)
      if (kind !== 'category' && isHub(page.stored)) {
        await ctx.reject('expand_thin_content', url, `a hub page: ${page.stored.link_lists} lists of links against ${page.stored.blocks.length} blocks of text (a table of contents or an index); its links are its content`);
        continue;
      }
      const topic = briefTopic(page.content, ctx.siteSuffix);
      if (isReleaseNotes(url, topic)) {
        await ctx.reject('expand_thin_content', url, 'release notes or a changelog: it says what changed at the length that took, and padding it would not help');
        continue;
      }
      if (isCodeListing(page.stored)) {
        await ctx.reject('expand_thin_content', url, `mostly code (${page.stored.code_chars} characters of code against ${page.stored.blocks.join('').length} of prose): a source listing or an example, not thin prose`);
        continue;
      }
      // (Not a category: what it may lack is its introduction, whatever its cards add up to.)
      if (kind !== 'category' && page.stored.words >= NEARLY_ENOUGH * THIN_WORDS) {
        await ctx.reject('expand_thin_content', url, `${page.stored.words} words, ${THIN_WORDS - page.stored.words} short of the ${THIN_WORDS} the thin-content check asks: a few more words would change nothing`);
        continue;
      }
      // The page's own headings: the template's (a comments form's "Leave a reply", a sidebar's) are not kept by the crawl.
      const headings = page.stored.headings.filter((h) => h.level > 1).map((h) => h.text).slice(0, 10);
      const introduction = kind === 'category' ? introductionOf(page.stored) : undefined;
      if (introduction) {
        await ctx.reject('expand_thin_content', url, `a category page with its introduction ("${introduction.length > 80 ? `${introduction.slice(0, 80)}…` : introduction}"): what it lists is its content`);
        continue;
      }
      // A product's specification lines ("Origin: ...", "Roast: Medium"): the brief asks for them said in sentences, not the
      // generic product questions (read by a coffee roaster's owner: "how it tastes, which grind to pick").
      const specs = kind === 'product' ? specificationKeys(page.stored.blocks) : [];
      const brief = specs.length > 0
        ? `what its specification lines (${specs.join(', ')}) mean for a buyer, said in sentences, how it is used, and where to go next; facts in place of lines that only praise it`
        : BRIEFS[kind];
      briefs.push({
        url, priority: ctx.pagePriority(url), evidence: [ctx.evidence(finding!)], words: finding!.value ?? '',
        configuration: {
          url, current_words: page.stored.words, target_words: TARGET_WORDS[kind], topic, page_kind: kind,
          instructions: [
            `Expand the main content of ${url} until the page has at least ${TARGET_WORDS[kind]} words (it has ${page.stored.words} in all) about "${topic}": ${brief}.`,
            writtenIn(page.content.lang),
            'Only facts the site can stand behind: no invented claims, figures or testimonials.',
            // (Its name and opening say what the page is about; a passing word further down does not.)
            QUALIFIED_REVIEW.pattern.test(`${page.content.title} ${page.stored.blocks.slice(0, 3).join(' ')}`) ? QUALIFIED_REVIEW.says : '',
            // (A page with no section heading of its own has none to keep: read by a shop's owner as an empty instruction; and "give
            // each part a heading" as a second copy of the brewing guide its theme's tab already holds.)
            headings.length > 0 ? 'Keep the existing headings and add sections under them.' : '',
          ].filter(Boolean).join(' '),
          existing_headings: headings,
        },
      });
    }
    // Many thin pages (a section of short pages, stubs a template makes) are one piece of work: one task, a brief per page.
    await proposeByPage(ctx, 'expand_thin_content', briefs, {
      category: 'content', checks: ['thin_content'],
      single: ({ url }) => ({ title: 'Expand a thin page', description: `${url} has ${briefs.find((b) => b.url === url)!.words}; pages under ${THIN_WORDS} words rarely rank.` }),
      group: (pages, total, part) => ({
        title: `Expand ${pages} thin pages`,
        description: `${total} pages have under ${THIN_WORDS} words, and pages that thin rarely rank. This task briefs ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest first)` : pages === total ? 'each of them' : `${pages} of them`}: topic, word target and the headings to build on, by kind of page, each listed.`,
      }),
    });

    for (const [url, [finding]] of ctx.byUrl(['json_ld_invalid'])) {
      await ctx.propose({
        type: 'add_structured_data', category: 'technical', priority: priorityOf(['json_ld_invalid']),
        title: 'Repair structured data that does not parse', description: `A JSON-LD block on ${url} is not valid JSON, so search engines ignore it.`,
        target: url,
        configuration: { url, issue: 'invalid', json_ld: null, instructions: 'Fix the <script type="application/ld+json"> block so that it parses as JSON (a trailing comma or an unescaped quote is the usual cause), or remove it.' },
        evidence: [ctx.evidence(finding!)],
      });
    }

    // The home page should say what the site is: WebSite (and its name) in JSON-LD.
    const home = await ctx.read(ctx.homeUrl);
    if (home && home !== 'deferred' && !home.stored.json_ld.some((block) => block.valid && block.types.some((t) => SITE_TYPES.has(t)))) {
      const name = siteNameOf(ctx.siteSuffix) || home.content.title;
      if (!name) return ctx.reject('add_structured_data', ctx.homeUrl, 'no site name to describe');
      const jsonLd = { '@context': 'https://schema.org', '@type': 'WebSite', name, url: ctx.homeUrl };
      await ctx.propose({
        type: 'add_structured_data', category: 'technical', priority: 'low',
        title: 'Describe the site with structured data', description: `The home page has no WebSite or Organization JSON-LD; it tells search engines the site's name.`,
        target: ctx.homeUrl,
        configuration: {
          url: ctx.homeUrl, issue: 'missing', json_ld: jsonLd,
          html: `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>`,
          instructions: 'Add this script to the <head> of the home page.',
        },
        evidence: [{ check_id: 'home_structured_data', url: ctx.homeUrl, current_value: home.stored.json_ld.flatMap((b) => b.types).join(', ') || null, audit_id: ctx.auditId, found_at: ctx.foundAt }],
      });
    }
  },
};
