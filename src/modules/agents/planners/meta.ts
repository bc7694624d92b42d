import { saysOnlyWhat } from '../drafting/says-only-what.ts';
import { escapeHtml } from '../../../lib/strings.ts';
import { CHECKS_BY_ID } from '../../checks/catalogue.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import type { AuditFinding, PlanningContext, ReadPage } from '../planning-context.ts';
import { siteTitleForm, writeMetaDescription, writeTitle } from '../writers.ts';
import { headlineOf, shortenLongTitle } from '../drafting/long-titles.ts';
import { DUPLICATE_CHECKS } from './copies.ts';
import { proposeByPage, type PageFix } from './grouping.ts';
import { readOrReject, type Planner } from './planner.ts';

const MISSING = ['meta_description_missing', 'meta_description_empty'];
const TITLES = ['title_missing', 'title_empty', 'title_too_short', 'title_too_long', 'title_duplicate'];

/** Words a headline's main part needs to stand as a title without its subtitle. */
const MAIN_PART_WORDS = 5;

/** Up to this many pages sharing a description, each page's task lists the others. */
const SHARED_LISTED = 10;

/** The same problem on many pages: each page's task says so (configuration.group), so they are read and approved as one. */
const groupOf = (checkIds: readonly string[], size: number) => ({ checks: [...checkIds], pages: size });

/**
 * Meta descriptions (missing, duplicated) and title tags, each drafted from the page's own
 * text. One page served under several URLs (same content) gets a canonical instead.
 */
export const metaPlanner: Planner = {
  checks: [...MISSING, 'meta_description_duplicate', ...TITLES],
  async plan(ctx) {
    const { copies, kept } = await proposeCanonicalsForCopies(ctx);

    const missing = ctx.byUrl(MISSING);
    const descriptions: PageFix[] = [];
    for (const [url, list] of missing) {
      if (copies.has(url)) continue; // its canonical is the fix
      const drafted = await draftDescription(ctx, 'fix_missing_meta_description', url);
      if (!drafted) continue;
      const { after, writer, drafted_from } = drafted;
      descriptions.push({
        url, priority: ctx.pagePriority(url), evidence: list.map(ctx.evidence),
        configuration: {
          url, field: 'meta_description', before: list[0]!.value ?? null, after, writer, drafted_from, bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX],
          group: groupOf(MISSING, missing.size),
        },
      });
    }
    await proposeByPage(ctx, 'fix_missing_meta_description', descriptions, {
      category: 'seo', checks: MISSING,
      single: ({ url }) => ({
        title: 'Add a meta description',
        description: `${url} has no meta description${missing.size === 2 ? ' (nor does 1 other page)' : missing.size > 2 ? ` (nor do ${missing.size - 1} other pages: likely one template)` : ''}; this one is drafted from the page's own text.`,
      }),
      group: (pages, total, part) => ({
        title: `Add meta descriptions to ${pages} pages`,
        description: `${missing.size} pages have no meta description: one problem, likely one template or a field nobody filled in. This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest pages first)` : `${pages === total ? 'each of them' : `${pages} of them`}`} a description drafted from the page's own text; each page's before -> after is listed.`,
      }),
    });

    // Duplicates: the page with the shortest URL keeps the description (usually the section
    // page the others copied it from); every other page gets its own. A description a
    // template stamps on every page is one problem: its pages share tasks, as missing ones do.
    const groups = new Map<string, string[]>();
    for (const [url, [finding]] of ctx.byUrl(['meta_description_duplicate'])) {
      if (copies.has(url) || kept.has(url)) continue;
      const value = finding!.value ?? '';
      groups.set(value, [...(groups.get(value) ?? []), url]);
    }
    const duplicated = [...groups.values()].reduce((sum, urls) => sum + urls.length - 1, 0);
    const sharing = new Map<string, { keeper: string; count: number }>();
    const ownDescriptions: PageFix[] = [];
    for (const [value, urls] of groups) {
      const [keeper, ...others] = [...urls].sort((a, b) => a.length - b.length || a.localeCompare(b));
      for (const url of others) {
        const drafted = await draftDescription(ctx, 'fix_duplicate_meta_description', url);
        if (!drafted) continue;
        const { after, writer, drafted_from } = drafted;
        sharing.set(url, { keeper: keeper!, count: urls.length });
        ownDescriptions.push({
          url, priority: ctx.pagePriority(url), evidence: [ctx.evidence({ check_id: 'meta_description_duplicate', url, value })],
          configuration: {
            url, field: 'meta_description', before: value, after, writer, drafted_from, kept_by: keeper,
            // Listed while it reads as a list; a template's description is shared by hundreds.
            ...(urls.length <= SHARED_LISTED ? { shared_with: urls.filter((u) => u !== url) } : {}),
            bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX], group: groupOf(['meta_description_duplicate'], duplicated),
          },
        });
      }
    }
    await proposeByPage(ctx, 'fix_duplicate_meta_description', ownDescriptions, {
      category: 'seo', checks: ['meta_description_duplicate'],
      single: ({ url }) => {
        const { keeper, count } = sharing.get(url)!;
        return { title: 'Give the page its own meta description', description: `${count} pages share one meta description; ${keeper} keeps it and this page gets one drafted from its own text.` };
      },
      group: (pages, total, part) => ({
        title: `Give ${pages} pages their own meta descriptions`,
        description: `${total} pages carry a meta description another page has (${groups.size === 1 ? 'one description' : `${groups.size} descriptions`}, likely set once in a template). This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest pages first)` : pages === total ? 'each of them' : `${pages} of them`} one drafted from the page's own text; the shortest URL of each keeps the shared one. Each page's before -> after is listed.`,
      }),
    });

    const titles = ctx.byUrl(TITLES);
    const titleFixes: Array<PageFix & { problems: string }> = [];
    const toTitle: Array<{ url: string; list: AuditFinding[]; page: ReadPage; suffix: string }> = [];
    for (const [url, all] of titles) {
      if (copies.has(url)) continue;
      const list = kept.has(url) ? all.filter((f) => f.check_id !== 'title_duplicate') : all;
      if (list.length === 0) continue;
      const page = await readOrReject(ctx, 'fix_title_tag', url);
      if (page) toTitle.push({ url, list, page, suffix: ctx.suffixFor(url) });
    }
    // Each suffix (one per language, on a translated site) in one form across the new titles.
    const formOf = new Map<string, string | undefined>();
    for (const suffix of new Set(toTitle.map((t) => t.suffix))) {
      formOf.set(suffix, ctx.suffixFixed ? undefined : siteTitleForm(toTitle.filter((t) => t.suffix === suffix).map((t) => t.page.content), suffix, ctx.taken.titles));
    }
    for (const { url, list, page, suffix } of toTitle) {
      const form = formOf.get(suffix);
      // A title that is only too long loses what follows its headline, never a word of it (drafting/long-titles.ts). A
      // manual's title may keep a shorter form of the site's name (" — Python 3.11") if its heading stays whole.
      const onlyTooLong = list.every((f) => f.check_id === 'title_too_long');
      const write = () => writeTitle(page.content, suffix, ctx.taken.titles, {
        suffixFixed: ctx.suffixFixed, ownShared: list.some((f) => f.check_id === 'title_duplicate'), ...(form === undefined ? {} : { shortForm: form }),
      });
      const headline = headlineOf(page.content, suffix);
      // A cut may drop a subtitle after the headline's main part when that part says enough on its own ("Pruning roses in a
      // small garden: everything you ever wanted to know"); never a cut inside it ("Everything you ever wanted to know").
      const mainPart = headline.split(/:\s|\s[-–—]\s/u)[0]!.trim();
      const keepsHeadline = (d: ReturnType<typeof write>) => 'text' in d
        && (d.text.startsWith(headline) || (mainPart.split(/\s+/).length >= MAIN_PART_WORDS && d.text.startsWith(mainPart)));
      let draft: ReturnType<typeof write>;
      if (!onlyTooLong) draft = write();
      else if (ctx.suffixFixed) {
        // On a CMS whose theme prints its suffix after every title, only the writer that keeps it makes a title the live page
        // shows; and it too never cuts the headline to fit beside the suffix.
        const fixed = write();
        draft = keepsHeadline(fixed) ? fixed : 'reason' in fixed ? fixed
          : { rule: 'title_headline_too_long', reason: `the headline ("${headline}") does not fit ${TITLE_MAX} characters beside the suffix the site's theme adds ("${suffix.trim()}"), and cutting it would change what it says` };
      } else {
        const whole = page.content.article ? undefined : write();
        draft = whole && keepsHeadline(whole) ? whole : shortenLongTitle(page.content, ctx.taken.titles, suffix);
      }
      if ('reason' in draft) {
        await ctx.reject('fix_title_tag', url, draft.reason, draft.rule);
        continue;
      }
      const { text: after, writer } = await ctx.polish('title', draft.text, page.content, [TITLE_MIN, TITLE_MAX], ctx.taken.titles);
      ctx.taken.titles.add(after.toLowerCase());
      titleFixes.push({
        url, priority: ctx.pagePriority(url), evidence: list.map(ctx.evidence),
        problems: list.map((f) => CHECKS_BY_ID.get(f.check_id)?.title.toLowerCase()).join('; '),
        configuration: {
          url, field: 'title', before: list.find((f) => f.value)?.value || page.content.title || null, after, writer, bounds: [TITLE_MIN, TITLE_MAX],
          group: groupOf([...new Set(list.map((f) => f.check_id))], titles.size),
        },
      });
    }
    const titleChecks = [...new Set([...titles.values()].flat().map((f) => f.check_id))];
    await proposeByPage(ctx, 'fix_title_tag', titleFixes, {
      category: 'seo', checks: titleChecks,
      single: (fix) => ({ title: 'Fix the title tag', description: `${fix.url}: ${titleFixes.find((t) => t.url === fix.url)!.problems}.` }),
      group: (pages, total, part) => ({
        title: `Fix the title tags of ${pages} pages`,
        description: `${titles.size} pages have title problems (${titleChecks.map((c) => CHECKS_BY_ID.get(c)?.title.toLowerCase()).join('; ')}). This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest pages first)` : `${pages === total ? 'each of them' : `${pages} of them`}`} a title drafted from its own heading; each page's before -> after is listed.`,
      }),
    });
  },
};

/**
 * One page under several URLs (ctx.copies) shows as duplicate titles and descriptions;
 * rewriting them would hide the real problem. Each copy gets a canonical to the URL kept.
 * Returns the URLs of such pages: the copies get no title or description of their own,
 * and the kept URL none for a duplicate only its copies cause.
 */
async function proposeCanonicalsForCopies(ctx: PlanningContext): Promise<{ copies: Set<string>; kept: Set<string> }> {
  const flagged = ctx.byUrl(DUPLICATE_CHECKS);
  const copies = new Set<string>();
  const kept = new Set<string>();
  const groups = ctx.copies;
  const copyCount = groups.reduce((sum, group) => sum + group.copies.length, 0);
  const fixes: Array<PageFix & { preferred: string; copiesOfPage: number }> = [];
  for (const { preferred, copies: others, urls } of groups) {
    kept.add(preferred);
    for (const url of others) {
      copies.add(url);
      const list = flagged.get(url) ?? [{ check_id: 'duplicate_content', url, value: preferred }];
      fixes.push({
        url, priority: ctx.pagePriority(url), evidence: list.map(ctx.evidence), preferred, copiesOfPage: urls.length,
        configuration: {
          url, field: 'canonical', issue: 'duplicate_url', before: null, after: preferred, same_content_as: urls.filter((u) => u !== url),
          group: { checks: ['duplicate_url'], pages: copyCount },
          html: `<link rel="canonical" href="${escapeHtml(preferred)}">`,
          instructions: `Add the canonical to ${url}, or redirect it (301) to ${preferred} and link to ${preferred} only.`,
        },
      });
    }
  }
  // Copies come from one cause (a server serving a page under several URLs): many of them are one task.
  await proposeByPage(ctx, 'fix_canonical', fixes, {
    category: 'technical', checks: ['duplicate_url'],
    single: ({ url }) => {
      const fix = fixes.find((f) => f.url === url)!;
      return {
        title: 'Point a duplicate URL at the page it copies',
        description: `${url} serves the same content as ${fix.preferred}; a canonical (or a 301 redirect) makes one URL rank instead of ${fix.copiesOfPage} competing copies.`,
      };
    },
    group: (pages, total, part) => ({
      title: `Point ${pages} duplicate URLs at the pages they copy`,
      description: `${total} URLs serve the same content as another URL of the site (${groups.length} pages served under several URLs, typically one server or link pattern). This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest first)` : pages === total ? 'each of them' : `${pages} of them`} the canonical of the page it copies (or a 301 redirect to it), so that one URL ranks instead of competing copies.`,
    }),
  });
  return { copies, kept };
}

/**
 * Refusals no model's summary of the page's opening may answer, each for its reason: the page has no text of its own, or not in
 * its declared language; its opening describes another thing (a listing's first entry, a fact-check's claim, an FAQ's first
 * answer); or it duplicates another page's description.
 */
const NOT_SUMMARISED = new Set(['no_own_text', 'no_prose', 'undecodable', 'foreign', 'entry_as_heading', 'one_entry_of_many', 'fact_check', 'faq_without_lead', 'taken', 'summary_taken']);

/** A description for the page, drafted from its own text (then polished), unique on the site; or the refusal recorded. */
async function draftDescription(ctx: PlanningContext, type: string, url: string): Promise<{ after: string; writer: string; drafted_from: string } | undefined> {
  const page = await readOrReject(ctx, type, url);
  if (!page) return undefined;
  const draft = writeMetaDescription(page.content, ctx.taken.descriptions, url);
  if ('reason' in draft) {
    // A lead refused for its length alone: a configured language model may shorten it (its answer is checked like any
    // draft); without one, or when its answer fails the checks, the refusal stands.
    if (draft.tooLong) {
      const shortened = await ctx.polish('meta_description', draft.tooLong, page.content, [DESCRIPTION_MIN, DESCRIPTION_MAX], ctx.taken.descriptions);
      if (shortened.writer !== 'extractive' && saysOnlyWhat(shortened.text, draft.tooLong)) {
        ctx.taken.descriptions.add(shortened.text.toLowerCase());
        return { after: shortened.text, writer: shortened.writer, drafted_from: 'lead' };
      }
    }
    // A page that opens with a hook, a scene or background, none of whose sentences is a description, is what an editor writes
    // one for: a configured model writes it from the headline and the opening, checked to say only what they say.
    if (!NOT_SUMMARISED.has(draft.rule ?? '')) {
      const summary = await ctx.summarise(page.content, [DESCRIPTION_MIN, DESCRIPTION_MAX], ctx.taken.descriptions);
      if (summary) {
        ctx.taken.descriptions.add(summary.text.toLowerCase());
        return { after: summary.text, writer: summary.writer, drafted_from: 'model_summary' };
      }
    }
    return void (await ctx.reject(type, url, draft.reason, draft.rule));
  }
  const { text, writer } = await ctx.polish('meta_description', draft.text, page.content, [DESCRIPTION_MIN, DESCRIPTION_MAX], ctx.taken.descriptions);
  ctx.taken.descriptions.add(text.toLowerCase());
  // Where on the page it comes from: its lead, or a summary its editors wrote (a standfirst, its JSON-LD or og:description).
  return { after: text, writer, drafted_from: draft.from ?? 'lead' };
}

