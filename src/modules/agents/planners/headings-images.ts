import { normalizeUrl } from '../../crawler/urls.ts';
import { withoutNumbering, writeH1 } from '../writers.ts';
import { altFromCaption, draftAltText, englishSpeller, isEnglish, pageVocabulary, wordsIn } from '../alt-text.ts';
import { GROUP_MIN, proposeByPage, proposeSiteWide, type PageFix } from './grouping.ts';
import { NOT_INDEXABLE_REASON, readOrReject, type Planner } from './planner.ts';

const MAX_IMAGES_PER_TASK = 50;

/**
 * The heading a page without an h1 already prints its title in, one level down (DocBook's
 * <h2 class="title">, a theme's h2 post title): promoting it fixes the page without a second
 * heading of the same words. Undefined when the page's first heading is something else.
 */
export function headingToPromote(headings: ReadonlyArray<{ level: number; text: string }>, title: string) {
  const first = headings[0];
  const same = (text: string) => withoutNumbering(text).toLowerCase().replace(/\s+/g, ' ').trim();
  if (!first || first.level === 1 || !same(first.text) || !same(title)) return undefined;
  const [heading, words] = [same(first.text), same(title)];
  // The same words, or nearly: a heading that is only a word of a longer title ("Cabinets" of "Cabinets built to last") is a section's.
  const close = heading === words || ((words.startsWith(heading) || heading.startsWith(words)) && Math.min(heading.length, words.length) >= 0.6 * Math.max(heading.length, words.length));
  return close ? first : undefined;
}

/**
 * The h1 texts a template prints on many pages (a site name in the header bar, a "Reviews"
 * section), with the number of pages: on a page with several h1s they are the ones to go,
 * whatever their order. From GROUP_MIN pages on, as a problem is a template's.
 */
export function templateHeadings(h1Lists: ReadonlyArray<readonly string[]>): Map<string, number> {
  const pages = new Map<string, number>();
  for (const list of h1Lists) for (const text of new Set(list)) pages.set(text, (pages.get(text) ?? 0) + 1);
  return new Map([...pages].filter(([, n]) => n >= GROUP_MIN));
}

const wordsOf = (text: string) => new Set(wordsIn(text.toLowerCase()));

/**
 * Of a page's several h1s, the one to keep: the page's headline, the one that says most of
 * what its <title> says (a news site's logo "The GiveWell Blog", a section "Games" or a
 * promo "Join our Free Parlay Challenge" say little of "September 2018 open thread - The
 * GiveWell Blog"). Never one its template prints on many pages, nor an empty one; with no
 * title to go by, the first of the page's own.
 */
export function headlineAmong(h1s: readonly string[], title: string | null, template: { has(h1: string): boolean }): string {
  const own = h1s.filter((h) => h.trim() !== '' && !template.has(h));
  const candidates = own.length > 0 ? own : h1s.filter((h) => h.trim() !== '');
  if (candidates.length === 0) return h1s[0] ?? '';
  const titleWords = wordsOf(title ?? '');
  if (titleWords.size === 0) return candidates[0]!;
  // How much of the title the heading says, then how little else it says: ties go to the earlier.
  const score = (h: string) => {
    const words = wordsOf(h);
    const shared = [...words].filter((w) => titleWords.has(w)).length;
    return shared / titleWords.size + (words.size > 0 ? shared / words.size : 0) / 100;
  };
  return candidates.reduce((best, h) => (score(h) > score(best) ? h : best));
}

/** fix_h1 (missing or several) and add_image_alt_text. */
export const headingsAndImagesPlanner: Planner = {
  checks: ['h1_missing', 'h1_multiple', 'image_missing_alt'],
  async plan(ctx) {
    const headings = ctx.byUrl(['h1_missing', 'h1_multiple']);
    const repeated = templateHeadings([...headings.values()].flat().filter((f) => f.check_id === 'h1_multiple').map((f) => (f.value ?? '').split(' | ')));
    const missing: PageFix[] = [];
    const several: PageFix[] = [];
    for (const [url, [finding]] of headings) {
      const f = finding!;
      if (!ctx.indexable(url)) {
        await ctx.reject('fix_h1', url, NOT_INDEXABLE_REASON);
        continue;
      }
      if (f.check_id === 'h1_multiple') {
        const h1s = (f.value ?? '').split(' | ');
        // The page's headline stays; a site name the header prints as an h1 on every page goes, and so does a section's or a promo's.
        const keep = headlineAmong(h1s, ctx.pageByUrl.get(url)?.title ?? null, repeated);
        const template = h1s.filter((h) => h !== keep && repeated.has(h));
        const demoted = h1s.filter((h) => h !== keep && !repeated.has(h));
        // The same heading printed twice (a generator's title page and its top section): the copy goes, whatever it says.
        const copies = h1s.filter((h) => h === keep).length - 1;
        const says = [
          ...(copies > 0 ? [`remove the ${copies === 1 ? 'second <h1>, which repeats it' : `${copies} other <h1>s that repeat it`} (or make ${copies === 1 ? 'it' : 'them'} <h2> if a section starts there)`] : []),
          ...(demoted.length > 0 ? [`change ${demoted.map((h) => `"${h}"`).join(', ')} to <h2>`] : []),
          ...(template.length > 0 ? [`${template.map((h) => `"${h}"`).join(', ')} is printed as an <h1> by the site's template on ${Math.min(...template.map((h) => repeated.get(h)!))}+ pages: make it a <p> or <div> there, styled as before`] : []),
        ];
        several.push({
          url, priority: ctx.pagePriority(url), evidence: [ctx.evidence(f)],
          configuration: {
            url, issue: 'multiple', before: h1s, after: keep, ...(template.length > 0 ? { template_h1s: template } : {}),
            instructions: `Keep "${keep}" as the only <h1>; ${says.join('; ')}.`,
          },
        });
        continue;
      }
      const page = await readOrReject(ctx, 'fix_h1', url);
      if (!page) continue;
      const after = writeH1(page.content, ctx.siteSuffix);
      if (!after) {
        await ctx.reject('fix_h1', url, 'the page has no title to draft an h1 from');
        continue;
      }
      const promote = headingToPromote(page.stored.headings, after);
      missing.push({
        url, priority: ctx.pagePriority(url), evidence: [ctx.evidence(f)],
        configuration: promote
          ? {
            url, issue: 'missing', before: null, after: promote.text, promote: { level: promote.level, text: promote.text },
            instructions: `Make the page's main heading, the <h${promote.level}> "${promote.text}", an <h1> (in the template or stylesheet that renders it) instead of adding a second heading with the same words.`,
          }
          : { url, issue: 'missing', before: null, after, instructions: 'Add this <h1> as the first heading of the main content.' },
      });
    }
    // One template cause on more pages than a task lists (a site name printed as an h1, a page heading printed as an h2): one task for the template.
    // Only the template's h1s go (no heading of the page's own is demoted, none repeated): the template's change is the whole fix.
    const onlyTemplate = (c: Record<string, unknown>) => Array.isArray(c.template_h1s) && Array.isArray(c.before) && c.before.length - 1 === c.template_h1s.length;
    const severalLeft = await proposeSiteWide(ctx, 'fix_h1', several, (c) => (onlyTemplate(c) ? `template h1s ${JSON.stringify(c.template_h1s)}` : undefined), ({ configuration: c }, pages) => {
      const named = (c.template_h1s as string[]).map((h) => `"${h}"`).join(', ');
      return {
        category: 'seo', title: 'Stop the template printing its heading as an h1',
        description: `${pages} pages carry an h1 their template prints on every page (${named}) before their own; one change in the template fixes them all.`,
        instructions: `In the site's template, print ${named} as a <p> or <div> styled as before, not an <h1>: each page keeps its own heading as its only h1.`,
      };
    });
    const levelOf = (c: Record<string, unknown>) => (c.promote as { level: number } | undefined)?.level;
    const missingLeft = await proposeSiteWide(ctx, 'fix_h1', missing, (c) => (levelOf(c) ? `the page heading printed as h${levelOf(c)}` : undefined), ({ configuration: c }, pages) => ({
      category: 'seo', title: 'Print each page\'s heading as an h1 in the template',
      description: `${pages} pages have no h1: their template prints each page's heading as an <h${levelOf(c)}>. One change in the template (or its stylesheet) fixes them all.`,
      instructions: `In the site's template or stylesheet, render the page's main heading (now an <h${levelOf(c)}>, such as "${String(c.after)}") as an <h1>, keeping its look.`,
    }));
    await proposeByPage(ctx, 'fix_h1', severalLeft, {
      category: 'seo', checks: ['h1_multiple'],
      single: ({ url }) => {
        const count = (severalLeft.find((f) => f.url === url)!.configuration.before as string[]).length;
        return { title: 'Keep one h1 on the page', description: `${url} has ${count} h1 headings; the page's own stays, the others stop being h1.` };
      },
      group: (pages, total, part) => ({
        title: `Keep one h1 on each of ${pages} pages`,
        description: `${total} pages have several h1 headings (usually their template's). This task keeps the page's own h1 on ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest first)` : pages === total ? 'each' : `${pages} of them`} (not a heading the template prints on every page) and makes the others h2 or plain text; each page's headings are listed.`,
      }),
    });
    // A page template without an h1 lacks it on every page: one task, each page with its own heading.
    await proposeByPage(ctx, 'fix_h1', missingLeft, {
      category: 'seo', checks: ['h1_missing'],
      single: ({ url }) => ({ title: 'Add an h1 heading', description: `${url} has no h1; this one is its title without the site name.` }),
      group: (pages, total, part) => ({
        title: `Add an h1 heading to ${pages} pages`,
        description: `${total} pages have no h1: their template prints none (or prints the title one level down). This task gives ${part.count > 1 ? `these ${pages} (part ${part.index + 1} of ${part.count}, heaviest first)` : pages === total ? 'each of them' : `${pages} of them`} an h1 from its own title without the site name; the template's fix covers them all at once.`,
      }),
    });

    const images = ctx.byUrl(['image_missing_alt']);
    for (const [url, list] of images) {
      // The audit keeps one example per page; the page itself shows every image without alt.
      const page = await readOrReject(ctx, 'add_image_alt_text', url);
      if (!page) continue;
      const sources = page.stored.images_without_alt;
      const drafted: Array<{ src: string; alt: string }> = [];
      const refused: string[] = [];
      const decorative: string[] = [];
      // The page's words and the dictionary, made only for an image that is to be described.
      let context: Parameters<typeof draftAltText>[1] | undefined;
      const contextOf = async () => (context ??= {
        vocabulary: pageVocabulary(page.content), speller: isEnglish(page.content.lang) ? await englishSpeller() : undefined,
      });
      const notContent = new Set(page.stored.images_not_content ?? []);
      const captions = new Map(page.stored.image_captions ?? []);
      // An image that is a link to another site is an ad or a partner's banner: it names where it leads, it is not described.
      const host = (address: string) => new URL(address).hostname.replace(/^www\./, '');
      const offSite = new Set((page.stored.image_links ?? []).filter(([, href]) => {
        const target = normalizeUrl(href, url);
        return target !== undefined && /^https?:/.test(target) && host(target) !== host(url);
      }).map(([src]) => src));
      for (const raw of sources.slice(0, MAX_IMAGES_PER_TASK)) {
        // In the site's header, navigation, footer or sidebar: a logo, an icon, a share button, never the page's picture.
        if (notContent.has(raw) || offSite.has(raw)) {
          decorative.push(raw);
          continue;
        }
        const src = normalizeUrl(raw, url);
        const fromName = src ? draftAltText(src, await contextOf()) : { refused: 'not a valid address' };
        // A file name that says nothing: the caption of the image's figure, when it has one.
        const caption = captions.get(raw);
        const draft = 'alt' in fromName || ('decorative' in fromName && fromName.decorative) || !caption ? fromName : altFromCaption(caption, page.content.lang);
        if ('alt' in draft) drafted.push({ src: src!, alt: draft.alt });
        else if (draft.decorative) decorative.push(raw);
        else refused.push(`${raw} (${draft.refused})`);
      }
      const listed = (items: string[]) => `${items.slice(0, 10).join(', ')}${items.length > 10 ? ', …' : ''}`;
      if (decorative.length > 0) {
        await ctx.reject('add_image_alt_text', url, `logos, icons, banners, spacers, ads and pictures beside the words of their own link (by their file names, their size, their link, or their place in the site's header, navigation, footer or sidebar), not described: give each alt="" if it only decorates, or the name of where it leads if it is a link: ${listed(decorative)}`);
      }
      if (refused.length > 0) await ctx.reject('add_image_alt_text', url, `no alt text drafted where neither the file name nor a caption is words a reader would use: ${listed(refused)}`);
      if (drafted.length === 0) continue;
      // Alt text helps screen readers and image search; it does not move the page's ranking as its title does: never high.
      const priority = ctx.pagePriority(url) === 'high' || ctx.pagePriority(url) === 'critical' ? 'medium' : ctx.pagePriority(url);
      await ctx.propose({
        type: 'add_image_alt_text', category: 'seo', priority,
        title: `Add alt text to ${drafted.length} image${drafted.length > 1 ? 's' : ''}`,
        description: `${url} has images without alt text; each is described from its file name, in words the page itself (or the dictionary) uses, or from its figure's caption.`,
        target: url,
        configuration: { url, images: drafted },
        evidence: list.map(ctx.evidence),
      });
    }
  },
};
