import { CHECKS_BY_ID } from '../../checks/catalogue.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import { bySeverity, priorityOf } from '../proposal.ts';
import { writeMetaDescription, writeTitle } from '../writers.ts';
import type { PlanningContext } from '../planning-context.ts';
import { readOrReject, type Planner } from './planner.ts';

const MISSING = ['meta_description_missing', 'meta_description_empty'];
const TITLES = ['title_missing', 'title_empty', 'title_too_short', 'title_too_long', 'title_duplicate'];

/** Meta descriptions (missing, duplicated) and title tags, each drafted from the page's own text. */
export const metaPlanner: Planner = {
  checks: [...MISSING, 'meta_description_duplicate', ...TITLES],
  async plan(ctx) {
    const missing = ctx.byUrl(MISSING);
    for (const [url, list] of missing) {
      const drafted = await draftDescription(ctx, 'fix_missing_meta_description', url);
      if (!drafted) continue;
      const { after, writer } = drafted;
      await ctx.propose({
        type: 'fix_missing_meta_description', category: 'seo', priority: priorityOf(list.map((f) => f.check_id), missing.size),
        title: 'Add a meta description', description: `${url} has no meta description; this one is drafted from the page's own text.`,
        target: url,
        configuration: { url, field: 'meta_description', before: list[0]!.value ?? null, after, writer, bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX] },
        evidence: list.map(ctx.evidence),
      });
    }

    // Duplicates: the page with the shortest URL keeps the description (usually the section
    // page the others copied it from); every other page gets its own.
    const groups = new Map<string, string[]>();
    for (const [url, [finding]] of ctx.byUrl(['meta_description_duplicate'])) {
      const value = finding!.value ?? '';
      groups.set(value, [...(groups.get(value) ?? []), url]);
    }
    for (const [value, urls] of groups) {
      const [keeper, ...others] = [...urls].sort((a, b) => a.length - b.length || a.localeCompare(b));
      for (const url of others) {
        const drafted = await draftDescription(ctx, 'fix_duplicate_meta_description', url);
        if (!drafted) continue;
        const { after, writer } = drafted;
        await ctx.propose({
          type: 'fix_duplicate_meta_description', category: 'seo', priority: priorityOf(['meta_description_duplicate'], urls.length),
          title: 'Give the page its own meta description',
          description: `${urls.length} pages share one meta description; ${keeper} keeps it and this page gets one drafted from its own text.`,
          target: url,
          configuration: { url, field: 'meta_description', before: value, after, writer, shared_with: urls.filter((u) => u !== url), bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX] },
          evidence: [ctx.evidence({ check_id: 'meta_description_duplicate', url, value })],
        });
      }
    }

    const titles = ctx.byUrl(TITLES);
    for (const [url, list] of titles) {
      const page = await readOrReject(ctx, 'fix_title_tag', url);
      if (!page) continue;
      const draft = writeTitle(page.content, ctx.siteSuffix, ctx.taken.titles);
      if (!draft) {
        await ctx.reject('fix_title_tag', url, 'no heading or title to draft a unique 20-60 character title from');
        continue;
      }
      const { text: after, writer } = await ctx.polish('title', draft, page.content, [TITLE_MIN, TITLE_MAX], ctx.taken.titles);
      ctx.taken.titles.add(after.toLowerCase());
      await ctx.propose({
        type: 'fix_title_tag', category: 'seo', priority: priorityOf([bySeverity(list.map((f) => f.check_id))[0]!], titles.size),
        title: 'Fix the title tag', description: `${url}: ${list.map((f) => CHECKS_BY_ID.get(f.check_id)?.title.toLowerCase()).join('; ')}.`,
        target: url,
        configuration: { url, field: 'title', before: list.find((f) => f.value)?.value || page.content.title || null, after, writer, bounds: [TITLE_MIN, TITLE_MAX] },
        evidence: list.map(ctx.evidence),
      });
    }
  },
};

/** A description for the page, drafted from its own text (then polished), unique on the site; or the refusal recorded. */
async function draftDescription(ctx: PlanningContext, type: string, url: string): Promise<{ after: string; writer: string } | undefined> {
  const page = await readOrReject(ctx, type, url);
  if (!page) return undefined;
  const draft = writeMetaDescription(page.content, ctx.taken.descriptions);
  if (!draft) return void (await ctx.reject(type, url, 'the page has too little text of its own to draft a unique 80-160 character description from'));
  const { text, writer } = await ctx.polish('meta_description', draft, page.content, [DESCRIPTION_MIN, DESCRIPTION_MAX], ctx.taken.descriptions);
  ctx.taken.descriptions.add(text.toLowerCase());
  return { after: text, writer };
}
