// What a task risks and which field it writes, in a site owner's words (pure: tested in test/web).
import { pageCount } from './diff.ts';
import { humanize } from './format.ts';

export interface Risk { level: 'low' | 'medium' | 'none'; label: string; text: string }

/** The field a task writes on each of its pages ("meta_description", "title"), when it writes one. */
function fieldOf(configuration: unknown): string | undefined {
  const config = (configuration ?? {}) as { field?: unknown; pages?: Array<{ field?: unknown }> };
  const field = config.field ?? (Array.isArray(config.pages) ? config.pages[0]?.field : undefined);
  return typeof field === 'string' ? field : undefined;
}

/**
 * What could go wrong, in plain words, from what the task touches and how: a brief changes
 * nothing by itself; a change says how many pages it writes and whether it can be put back.
 * Said as what happened once it has (completed, rolled back, failed), as what will happen before.
 */
export function riskOf(task: { type: string; category: string; configuration: unknown; outcome?: 'site_change' | 'brief'; status?: string; error?: unknown }): Risk {
  if (task.outcome === 'brief') return { level: 'none', label: 'brief only', text: 'A brief for you to carry out: nothing on the site changes until you do.' };
  const pages = pageCount(task.configuration);
  const where = pages > 1 ? `${pages} pages` : 'this page';
  const field = fieldOf(task.configuration);
  const metadata = field !== undefined && /meta_description|title/.test(field);
  // A failed task puts back what it had written (executor.ts) and then says it may run again (error.retryable); one that could not
  // put everything back, or whose change was made and not recorded, says what is left in its error.
  if (task.status === 'failed') {
    const siteAsItWas = (task.error as { retryable?: unknown } | null | undefined)?.retryable === true;
    return {
      level: metadata ? 'low' : 'medium', label: metadata ? 'low risk' : 'medium risk',
      text: !siteAsItWas
        ? 'The change did not go through, and the site may not be as it was: the error above says what was written and what is left to do.'
        : pages > 1
          ? `The change did not go through: any of its ${pages} pages it had already written was put back to its previous value.`
          : 'The change did not go through: nothing was written to the page.',
    };
  }
  const done = task.status === 'completed' || task.status === 'rolled_back';
  if (metadata) {
    return {
      level: 'low', label: 'low risk',
      text: done
        ? `The ${fieldName(field)} of ${where} was written through the site's connector where it had one (else handed to you as the exact text); every previous value was recorded, so it can be rolled back.`
        : `Once you approve, the ${fieldName(field)} of ${where} is written through the site's connector (WordPress); without one, you get the exact text to put in. Every previous value is recorded, so it can be rolled back.`,
    };
  }
  // Broken links kept because their page is one the site must have (page_expected): a page with one is handed over whole, and
  // nothing is taken out of it (task-types/types/links.ts); read in the queue, "written through the connector" said otherwise.
  const kept = keptLinks(task.configuration);
  if (kept > 0 && !done) {
    return {
      level: 'medium', label: 'medium risk',
      text: `${kept} of its links go to pages the site should have (a cart, a legal page, a category…): you publish those pages again and the links stay. A page with such a link is handed to you with what to do with each of its links; on the others, links to pages gone for good are taken out through the site's connector where it can, and that can be rolled back.`,
    };
  }
  return {
    level: 'medium', label: 'medium risk',
    text: `Changes the content or markup of ${where}: check that it reads well in context. Written through the site's connector where it can, and then it can be rolled back; otherwise you get the exact change to make.`,
  };
}

/** How many of a task's link changes keep their link (a page the site must have: `page_expected`), over all its pages. */
function keptLinks(configuration: unknown): number {
  const config = (configuration ?? {}) as { changes?: unknown; pages?: Array<{ changes?: unknown }> };
  const lists = [config.changes, ...(Array.isArray(config.pages) ? config.pages.map((p) => p.changes) : [])];
  return lists.flatMap((list) => (Array.isArray(list) ? list : [])).filter((c) => typeof (c as { page_expected?: unknown })?.page_expected === 'string').length;
}

/** Field names as a site owner says them: "meta.sos_meta_description" -> "meta description", "title" -> "title". */
export function fieldName(field: string): string {
  if (/description/i.test(field)) return 'meta description';
  if (/title/i.test(field)) return 'title';
  if (/excerpt/i.test(field)) return 'excerpt';
  if (/content/i.test(field)) return 'content';
  return humanize(field.replace(/^meta\./, ''));
}
