import { escapeHtml } from '../../../lib/strings.ts';
import { CHECKS_BY_ID } from '../../checks/catalogue.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../../checks/page-checks.ts';
import type { AuditFinding, PlanningContext } from '../planning-context.ts';
import { writeMetaDescription, writeTitle } from '../writers.ts';
import { readOrReject, type Planner } from './planner.ts';

const MISSING = ['meta_description_missing', 'meta_description_empty'];
const TITLES = ['title_missing', 'title_empty', 'title_too_short', 'title_too_long', 'title_duplicate'];
const DUPLICATES = ['title_duplicate', 'meta_description_duplicate'];

/** The same problem on many pages: each page's task says so (configuration.group), so they are read and approved as one. */
const groupOf = (checkIds: readonly string[], size: number) => ({ checks: [...checkIds], pages: size });

/**
 * Meta descriptions (missing, duplicated) and title tags, each drafted from the page's own
 * text. One page served under several URLs (same content) gets a canonical instead.
 */
export const metaPlanner: Planner = {
  checks: [...MISSING, 'meta_description_duplicate', ...TITLES],
  async plan(ctx) {
    const sameContent = await proposeCanonicalsForCopies(ctx);

    const missing = ctx.byUrl(MISSING);
    for (const [url, list] of missing) {
      const drafted = await draftDescription(ctx, 'fix_missing_meta_description', url);
      if (!drafted) continue;
      const { after, writer } = drafted;
      await ctx.propose({
        type: 'fix_missing_meta_description', category: 'seo', priority: ctx.pagePriority(url),
        title: 'Add a meta description',
        description: `${url} has no meta description${missing.size > 1 ? ` (nor have ${missing.size - 1} other pages: one template)` : ''}; this one is drafted from the page's own text.`,
        target: url,
        configuration: {
          url, field: 'meta_description', before: list[0]!.value ?? null, after, writer, bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX],
          group: groupOf(MISSING, missing.size),
        },
        evidence: list.map(ctx.evidence),
      });
    }

    // Duplicates: the page with the shortest URL keeps the description (usually the section
    // page the others copied it from); every other page gets its own.
    const groups = new Map<string, string[]>();
    for (const [url, [finding]] of ctx.byUrl(['meta_description_duplicate'])) {
      if (sameContent.has(url)) continue;
      const value = finding!.value ?? '';
      groups.set(value, [...(groups.get(value) ?? []), url]);
    }
    const duplicated = [...groups.values()].reduce((sum, urls) => sum + urls.length - 1, 0);
    for (const [value, urls] of groups) {
      const [keeper, ...others] = [...urls].sort((a, b) => a.length - b.length || a.localeCompare(b));
      for (const url of others) {
        const drafted = await draftDescription(ctx, 'fix_duplicate_meta_description', url);
        if (!drafted) continue;
        const { after, writer } = drafted;
        await ctx.propose({
          type: 'fix_duplicate_meta_description', category: 'seo', priority: ctx.pagePriority(url),
          title: 'Give the page its own meta description',
          description: `${urls.length} pages share one meta description; ${keeper} keeps it and this page gets one drafted from its own text.`,
          target: url,
          configuration: {
            url, field: 'meta_description', before: value, after, writer, shared_with: urls.filter((u) => u !== url), bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX],
            group: groupOf(['meta_description_duplicate'], duplicated),
          },
          evidence: [ctx.evidence({ check_id: 'meta_description_duplicate', url, value })],
        });
      }
    }

    const titles = ctx.byUrl(TITLES);
    for (const [url, all] of titles) {
      const list = sameContent.has(url) ? all.filter((f) => f.check_id !== 'title_duplicate') : all;
      if (list.length === 0) continue;
      const page = await readOrReject(ctx, 'fix_title_tag', url);
      if (!page) continue;
      const draft = writeTitle(page.content, ctx.siteSuffix, ctx.taken.titles);
      if ('reason' in draft) {
        await ctx.reject('fix_title_tag', url, draft.reason);
        continue;
      }
      const { text: after, writer } = await ctx.polish('title', draft.text, page.content, [TITLE_MIN, TITLE_MAX], ctx.taken.titles);
      ctx.taken.titles.add(after.toLowerCase());
      await ctx.propose({
        type: 'fix_title_tag', category: 'seo', priority: ctx.pagePriority(url),
        title: 'Fix the title tag', description: `${url}: ${list.map((f) => CHECKS_BY_ID.get(f.check_id)?.title.toLowerCase()).join('; ')}.`,
        target: url,
        configuration: {
          url, field: 'title', before: list.find((f) => f.value)?.value || page.content.title || null, after, writer, bounds: [TITLE_MIN, TITLE_MAX],
          group: groupOf([...new Set(list.map((f) => f.check_id))], titles.size),
        },
        evidence: list.map(ctx.evidence),
      });
    }
  },
};

/**
 * Pages flagged for a duplicate title or description that are one page under several URLs
 * (/guide/ and /guide/index.html: the same content hash): rewriting their titles would
 * hide the real problem. Every copy gets a canonical to the shortest URL (the one people
 * link to); the copies are returned so no title or description is drafted for them.
 */
async function proposeCanonicalsForCopies(ctx: PlanningContext): Promise<Set<string>> {
  const flagged = ctx.byUrl(DUPLICATES);
  const byHash = new Map<string, string[]>();
  for (const page of ctx.pages) {
    if (page.status === 200 && page.content_hash) byHash.set(page.content_hash, [...(byHash.get(page.content_hash) ?? []), page.url]);
  }
  const copies = new Set<string>();
  for (const [url, list] of flagged) {
    const hash = ctx.pageByUrl.get(url)?.content_hash;
    const urls = hash ? byHash.get(hash) ?? [] : [];
    if (urls.length < 2) continue;
    copies.add(url);
    const preferred = [...urls].sort((a, b) => a.length - b.length || a.localeCompare(b))[0]!;
    if (url === preferred) continue;
    const evidence: AuditFinding = { check_id: list[0]!.check_id, url, value: list[0]!.value };
    await ctx.propose({
      type: 'fix_canonical', category: 'technical', priority: 'medium',
      title: 'Point a duplicate URL at the page it copies',
      description: `${url} serves the same content as ${preferred}; a canonical (or a 301 redirect) makes one URL rank instead of two competing copies.`,
      target: url,
      configuration: {
        url, field: 'canonical', issue: 'duplicate_url', before: null, after: preferred, same_content_as: urls.filter((u) => u !== url),
        html: `<link rel="canonical" href="${escapeHtml(preferred)}">`,
        instructions: `Add the canonical to ${url}, or redirect it (301) to ${preferred} and link to ${preferred} only.`,
      },
      evidence: list.map(ctx.evidence),
    });
  }
  return copies;
}

/** A description for the page, drafted from its own text (then polished), unique on the site; or the refusal recorded. */
async function draftDescription(ctx: PlanningContext, type: string, url: string): Promise<{ after: string; writer: string } | undefined> {
  const page = await readOrReject(ctx, type, url);
  if (!page) return undefined;
  const draft = writeMetaDescription(page.content, ctx.taken.descriptions);
  if ('reason' in draft) return void (await ctx.reject(type, url, draft.reason));
  const { text, writer } = await ctx.polish('meta_description', draft.text, page.content, [DESCRIPTION_MIN, DESCRIPTION_MAX], ctx.taken.descriptions);
  ctx.taken.descriptions.add(text.toLowerCase());
  return { after: text, writer };
}
