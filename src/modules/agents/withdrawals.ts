import { pageOf, pagesOf } from '../task-types/index.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { AuditPage } from './planning-context.ts';

export const findingKey = (checkId: string, url: string) => `${checkId} ${url}`;

/** The audit facts a withdrawal is decided on. */
export interface WithdrawalInput {
  pageByUrl: ReadonlyMap<string, AuditPage>;
  /** Findings of the checks the agent plans from (and the not-indexable ones), this audit, as `${check_id} ${url}`. */
  found: ReadonlySet<string>;
  /** The checks whose findings were loaded: only problems of these can be said to be gone. */
  checked: ReadonlySet<string>;
  indexable(url: string): boolean;
  auditId: string;
}

/** Task types that change one page's content: moot once the page leaves search results. */
const ON_PAGE = new Set([
  'fix_missing_meta_description', 'fix_duplicate_meta_description', 'fix_title_tag', 'fix_h1', 'add_image_alt_text', 'expand_thin_content',
]);

/**
 * Why one page's part of an open proposal no longer stands, or undefined while it does: the
 * page is now blocked by robots.txt, gone (4xx/5xx, or nothing answers), out of search
 * results, or the latest audit no longer finds the problem its evidence names. A page this
 * crawl did not reach proves nothing, so it stands.
 */
function pageReason(type: string, url: string, evidence: Array<{ check: string; url: string }>, input: WithdrawalInput): string | undefined {
  const page = input.pageByUrl.get(url);
  if (page?.status === null) return `${url} is now blocked by robots.txt`;
  if (page && (page.status === 0 || page.status! >= 400)) return `${url} is gone (it answers ${page.status || 'nothing'})`;
  if (page && ON_PAGE.has(type) && !input.indexable(url)) return `${url} no longer asks to be indexed, so its on-page details do not reach search results`;
  if (evidence.length === 0 || !evidence.every((e) => input.checked.has(e.check))) return undefined;
  // Only what this crawl saw can be said to be fixed: a page it did not reach keeps its proposal.
  if (!evidence.some((e) => input.pageByUrl.has(e.url))) return undefined;
  const still = evidence.some((e) => input.found.has(findingKey(e.check, e.url)));
  return still ? undefined : `the problem is no longer found (${[...new Set(evidence.map((e) => e.check))].join(', ')} on ${url})`;
}

/**
 * Why an open proposal no longer stands, or undefined while it does. A task covering several
 * pages is judged page by page: it is withdrawn as soon as one of its pages no longer needs
 * it (fixed by hand, gone, blocked), since approving it would overwrite that page; the pages
 * that still need it are proposed again from the same audit, in a new task.
 */
export function withdrawalReason(task: { type: string; target: string; configuration: unknown; evidence: unknown }, input: WithdrawalInput): string | undefined {
  const evidence = ((Array.isArray(task.evidence) ? task.evidence : []) as Array<{ check_id?: unknown; url?: unknown }>)
    .flatMap((e) => (typeof e.check_id === 'string' && typeof e.url === 'string' ? [{ check: e.check_id, url: e.url }] : []));
  const pages = pagesOf(task);
  if (pages.length === 1) {
    const reason = pageReason(task.type, pageOf(task), evidence, input);
    return reason && `audit ${input.auditId}: ${reason}`;
  }
  const stale = pages.flatMap((page) => {
    const url = pageOf(page);
    const reason = pageReason(task.type, url, evidence.filter((e) => e.url === url), input);
    return reason ? [reason] : [];
  });
  if (stale.length === 0) return undefined;
  const rest = pages.length - stale.length;
  return `audit ${input.auditId}: ${stale.length} of the task's ${pages.length} pages no longer need it (${stale.slice(0, 3).join('; ')}${stale.length > 3 ? '; ...' : ''})`
    + (rest > 0 ? `; the ${rest} other page${rest === 1 ? '' : 's'} are proposed again from this audit` : '');
}

/** Withdraws (cancels, actor agent:strategy, reason in the history) every proposal whose problem is gone; returns their ids. */
export async function withdrawStale(tasks: Pick<TasksService, 'withdraw'>, proposals: ReadonlyArray<Parameters<typeof withdrawalReason>[0] & { id: string }>, input: WithdrawalInput): Promise<Set<string>> {
  const withdrawn = new Set<string>();
  for (const task of proposals) {
    const reason = withdrawalReason(task, input);
    if (reason && (await tasks.withdraw(task.id, reason))) withdrawn.add(task.id);
  }
  return withdrawn;
}
