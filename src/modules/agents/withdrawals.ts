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
 * Why an open proposal no longer stands, or undefined while it does: its page is now
 * blocked by robots.txt, gone (4xx/5xx, or nothing answers), out of search results, or the
 * latest audit no longer finds the problem its evidence names. A page this crawl did not
 * reach proves nothing, so its proposals stay.
 */
export function withdrawalReason(task: { type: string; target: string; configuration: unknown; evidence: unknown }, input: WithdrawalInput): string | undefined {
  const evidence = (Array.isArray(task.evidence) ? task.evidence : []) as Array<{ check_id?: unknown; url?: unknown }>;
  const config = (task.configuration ?? {}) as { url?: unknown };
  const url = typeof config.url === 'string' ? config.url : task.target;
  const page = input.pageByUrl.get(url);
  if (page?.status === null) return `audit ${input.auditId}: ${url} is now blocked by robots.txt`;
  if (page && (page.status === 0 || page.status! >= 400)) return `audit ${input.auditId}: ${url} is gone (it answers ${page.status || 'nothing'})`;
  if (page && ON_PAGE.has(task.type) && !input.indexable(url)) return `audit ${input.auditId}: ${url} no longer asks to be indexed, so its on-page details do not reach search results`;
  const named = evidence.flatMap((e) => (typeof e.check_id === 'string' && typeof e.url === 'string' ? [{ check: e.check_id, url: e.url }] : []));
  if (named.length === 0 || !named.every((e) => input.checked.has(e.check))) return undefined;
  // Only what this crawl saw can be said to be fixed: a page it did not reach keeps its proposal.
  if (!named.some((e) => input.pageByUrl.has(e.url))) return undefined;
  const still = named.some((e) => input.found.has(findingKey(e.check, e.url)));
  return still ? undefined : `audit ${input.auditId} no longer finds the problem (${[...new Set(named.map((e) => e.check))].join(', ')} on ${url})`;
}

/** Withdraws (cancels, actor agent:strategy, reason in the history) every open proposal whose problem is gone. */
export async function withdrawStale(tasks: Pick<TasksService, 'openProposals' | 'withdraw'>, siteId: string, input: WithdrawalInput): Promise<number> {
  let withdrawn = 0;
  for (const task of await tasks.openProposals(siteId)) {
    const reason = withdrawalReason(task, input);
    if (reason && (await tasks.withdraw(task.id, reason))) withdrawn += 1;
  }
  return withdrawn;
}
