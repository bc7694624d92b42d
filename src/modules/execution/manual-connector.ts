/**
 * The default site connector: it changes nothing on the site itself. Executing a task
 * produces a precise deliverable instead (what to change, where, the exact new HTML), and
 * verification later checks the live site for it.
 */
export interface Deliverable {
  connector: 'manual';
  url: string;
  instructions: string;
  /** Exact HTML to put in place, where one element is to be added or replaced. */
  html?: string;
  changes?: unknown[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function manualDeliverable(task: { type: string; target: string; configuration: Record<string, unknown> }): Deliverable | undefined {
  const { configuration: config, target: url } = task;
  switch (task.type) {
    case 'fix_missing_meta_description':
      return {
        connector: 'manual', url,
        instructions: `In the <head> of ${url}, add this meta description (replace an empty one if present).`,
        html: `<meta name="description" content="${escapeHtml(String(config.after))}">`,
      };
    case 'fix_title_tag':
      return {
        connector: 'manual', url,
        instructions: `In the <head> of ${url}, make this the only <title> element.`,
        html: `<title>${escapeHtml(String(config.after))}</title>`,
      };
    case 'fix_broken_links':
      return {
        connector: 'manual', url,
        instructions: `On ${url}, fix or remove each link below.`,
        changes: Array.isArray(config.changes) ? config.changes : [],
      };
    default:
      return undefined;
  }
}
