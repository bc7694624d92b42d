import { CHECKS_BY_ID } from './catalogue.ts';

/** One affected URL of one check, with the offending value where there is one. */
export interface Finding {
  url: string;
  value?: string;
}

/** A page with hundreds of broken links lists the first this many. */
export const MAX_TARGETS_PER_PAGE = 200;

/**
 * Collects findings per check id. A URL counts once per check; a per-target check (every
 * broken link of a page) keeps one finding per URL and value, and counts the URL once.
 */
export class Findings {
  readonly byCheck = new Map<string, Finding[]>();
  private readonly seen = new Set<string>();
  /** check id -> affected URLs (distinct). */
  private readonly urls = new Map<string, number>();
  private readonly targets = new Map<string, number>();

  add(checkId: string, url: string, value?: string) {
    const pageKey = `${checkId}\u0000${url}`;
    const newUrl = !this.seen.has(pageKey);
    if (CHECKS_BY_ID.get(checkId)?.perTarget && value !== undefined) {
      const key = `${pageKey}\u0000${value}`;
      const onPage = this.targets.get(pageKey) ?? 0;
      if (this.seen.has(key) || onPage >= MAX_TARGETS_PER_PAGE) return;
      this.seen.add(key);
      this.targets.set(pageKey, onPage + 1);
    } else if (!newUrl) return;
    this.seen.add(pageKey);
    if (newUrl) this.urls.set(checkId, (this.urls.get(checkId) ?? 0) + 1);
    const list = this.byCheck.get(checkId) ?? [];
    list.push(value === undefined ? { url } : { url, value: value.slice(0, 500) });
    this.byCheck.set(checkId, list);
  }

  /** Distinct URLs the check affects. */
  count(checkId: string): number {
    return this.urls.get(checkId) ?? 0;
  }
}
