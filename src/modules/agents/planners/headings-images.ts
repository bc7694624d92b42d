import { normalizeUrl } from '../../crawler/urls.ts';
import { writeAltText, writeH1 } from '../writers.ts';
import { NOT_INDEXABLE_REASON, readOrReject, type Planner } from './planner.ts';

const MAX_IMAGES_PER_TASK = 50;

/** fix_h1 (missing or several) and add_image_alt_text. */
export const headingsAndImagesPlanner: Planner = {
  checks: ['h1_missing', 'h1_multiple', 'image_missing_alt'],
  async plan(ctx) {
    const headings = ctx.byUrl(['h1_missing', 'h1_multiple']);
    for (const [url, [finding]] of headings) {
      const f = finding!;
      if (!ctx.indexable(url)) {
        await ctx.reject('fix_h1', url, NOT_INDEXABLE_REASON);
        continue;
      }
      if (f.check_id === 'h1_multiple') {
        const h1s = (f.value ?? '').split(' | ');
        await ctx.propose({
          type: 'fix_h1', category: 'seo', priority: ctx.pagePriority(url),
          title: 'Keep one h1 on the page', description: `${url} has ${h1s.length} h1 headings; the first stays, the others become h2.`,
          target: url,
          configuration: { url, issue: 'multiple', before: h1s, after: h1s[0] ?? null, instructions: `Keep "${h1s[0]}" as the only <h1>; change the other <h1> elements to <h2>.` },
          evidence: [ctx.evidence(f)],
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
      await ctx.propose({
        type: 'fix_h1', category: 'seo', priority: ctx.pagePriority(url),
        title: 'Add an h1 heading', description: `${url} has no h1; this one is its title without the site name.`,
        target: url,
        configuration: { url, issue: 'missing', before: null, after, instructions: 'Add this <h1> as the first heading of the main content.' },
        evidence: [ctx.evidence(f)],
      });
    }

    const images = ctx.byUrl(['image_missing_alt']);
    for (const [url, list] of images) {
      // The audit keeps one example per page; the page itself shows every image without alt.
      const page = await readOrReject(ctx, 'add_image_alt_text', url);
      if (!page) continue;
      const sources = page.stored.images_without_alt;
      const drafted: Array<{ src: string; alt: string }> = [];
      const undrafted: string[] = [];
      for (const raw of sources.slice(0, MAX_IMAGES_PER_TASK)) {
        const src = normalizeUrl(raw, url);
        const alt = src && writeAltText(src);
        if (src && alt) drafted.push({ src, alt });
        else undrafted.push(raw);
      }
      if (undrafted.length > 0) {
        await ctx.reject('add_image_alt_text', url, `no descriptive file name to draft alt text from: ${undrafted.slice(0, 10).join(', ')}${undrafted.length > 10 ? ', …' : ''}`);
      }
      if (drafted.length === 0) continue;
      await ctx.propose({
        type: 'add_image_alt_text', category: 'seo', priority: ctx.pagePriority(url),
        title: `Add alt text to ${drafted.length} image${drafted.length > 1 ? 's' : ''}`,
        description: `${url} has images without alt text; each is described from its file name.`,
        target: url,
        configuration: { url, images: drafted },
        evidence: list.map(ctx.evidence),
      });
    }
  },
};
