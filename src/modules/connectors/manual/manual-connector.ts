import { escapeHtml } from '../../../lib/strings.ts';
import type { ManualDeliverable, SiteConnector } from '../connector.types.ts';

type Task = { type: string; target: string; configuration: Record<string, unknown> };
type Draft = Omit<ManualDeliverable, 'connector' | 'url'>;

const DRAFTS: Record<string, (config: Record<string, unknown>, url: string) => Draft> = {
  fix_missing_meta_description: (c, url) => ({
    instructions: `In the <head> of ${url}, add this meta description (replace an empty one if present).`,
    html: `<meta name="description" content="${escapeHtml(String(c.after))}">`,
  }),
  fix_duplicate_meta_description: (c, url) => ({
    instructions: `In the <head> of ${url}, replace the meta description shared with other pages by this one.`,
    html: `<meta name="description" content="${escapeHtml(String(c.after))}">`,
  }),
  fix_title_tag: (c, url) => ({
    instructions: `In the <head> of ${url}, make this the only <title> element.`,
    html: `<title>${escapeHtml(String(c.after))}</title>`,
  }),
  fix_h1: (c, url) => c.issue === 'multiple'
    ? { instructions: `On ${url}, ${String(c.instructions)}`, changes: (c.before as string[]).slice(1).map((text) => ({ heading: text, change: 'h1 -> h2' })) }
    : { instructions: `On ${url}, ${String(c.instructions)}`, html: `<h1>${escapeHtml(String(c.after))}</h1>` },
  add_image_alt_text: (c, url) => ({
    instructions: `On ${url}, give each image below its alt attribute.`,
    changes: (c.images as Array<{ src: string; alt: string }>).map((i) => ({ src: i.src, attribute: `alt="${escapeHtml(i.alt)}"` })),
  }),
  fix_broken_links: (c, url) => ({ instructions: `On ${url}, fix or remove each link below.`, changes: c.changes as unknown[] }),
  fix_redirect_chains: (c, url) => ({ instructions: `On ${url}, change the href of each link below to its final URL.`, changes: c.changes as unknown[] }),
  fix_indexing_block: (c) => ({ instructions: String(c.instructions) }),
  fix_canonical: (c, url) => ({ instructions: `In the <head> of ${url}, make this the only canonical link.`, html: String(c.html) }),
  fix_sitemap_errors: (c) => ({ instructions: `In the sitemap (${String(c.sitemap)}), apply each change below; most CMS sitemap plugins do this when the page is excluded or its redirect fixed.`, changes: c.changes as unknown[] }),
  add_structured_data: (c) => ({ instructions: String(c.instructions), ...(typeof c.html === 'string' ? { html: c.html } : {}) }),
  add_internal_links: (c, url) => ({
    instructions: `Link to ${url} from the pages below, with this anchor text in a sentence where it fits.`,
    html: String(c.html),
    changes: c.sources as unknown[],
  }),
  expand_thin_content: (c) => ({ instructions: String(c.instructions), changes: (c.existing_headings as unknown[]) ?? [] }),
  optimize_title_tag: (c) => ({ instructions: String(c.instructions) }),
  prioritize_quick_wins: (c) => ({ instructions: String(c.instructions) }),
  create_content_for_keyword: (c) => ({ instructions: String(c.instructions) }),
  refresh_declining_content: (c) => ({ instructions: String(c.instructions) }),
  consolidate_cannibalized_pages: (c) => ({ instructions: String(c.instructions), changes: (c.pages as unknown[]) ?? [] }),
};

/** The deliverable of a task for a person to carry out; undefined for a type that has none. */
export function manualDeliverable(task: Task): ManualDeliverable | undefined {
  const draft = DRAFTS[task.type];
  if (!draft) return undefined;
  const url = typeof task.configuration.url === 'string' ? task.configuration.url : task.target;
  return { connector: 'manual', url, ...draft(task.configuration, url) };
}

/**
 * The default site connector: it changes nothing on the site itself. Executing a task
 * produces a precise deliverable instead (what to change, where, the exact new HTML or
 * text), and verification later checks the live site for it. It has nothing to restore.
 */
export const manualConnector: SiteConnector = {
  type: 'manual',
  label: 'manual',
  async apply(task) {
    const deliverable = manualDeliverable(task);
    if (!deliverable) throw new Error(`no connector can carry out a ${task.type} task`);
    return { applied: deliverable };
  },
  async restore() {
    return { restored: [], conflicts: [] };
  },
  async restoreChecks() {
    return [];
  },
  async close() {},
};
