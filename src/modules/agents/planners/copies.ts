import type { AuditPage } from '../planning-context.ts';

/** The checks that show one page under several URLs: its copies repeat its title and description. */
export const DUPLICATE_CHECKS = ['title_duplicate', 'meta_description_duplicate'];

/** One page served under several URLs: the URL to keep, and the copies that should point at it. */
export interface CopyGroup {
  preferred: string;
  copies: string[];
  urls: string[];
}

/**
 * One page under several URLs (/guide/ and /guide/index.html, or a tree of copies: the same
 * content hash) that shows as duplicate titles or descriptions. The URL kept is the one the
 * site links to most (after a clean one: the home page, a directory over its index file), then
 * the shallowest, then the shortest. A copy's fix is its canonical; every other change is
 * made once, on the page it copies.
 */
export function findCopies(pages: readonly AuditPage[], flagged: ReadonlySet<string>): CopyGroup[] {
  const byHash = new Map<string, string[]>();
  for (const page of pages) {
    if (page.status === 200 && page.content_hash) byHash.set(page.content_hash, [...(byHash.get(page.content_hash) ?? []), page.url]);
  }
  const weight = new Map(pages.map((p) => [p.url, p]));
  const groups: CopyGroup[] = [];
  for (const urls of byHash.values()) {
    if (urls.length < 2 || !urls.some((url) => flagged.has(url))) continue;
    const [preferred, ...copies] = [...urls].sort((a, b) =>
      cleanness(a, urls) - cleanness(b, urls) || weight.get(b)!.inlinks - weight.get(a)!.inlinks
      || (weight.get(a)!.depth ?? 99) - (weight.get(b)!.depth ?? 99) || a.length - b.length || a.localeCompare(b));
    groups.push({ preferred: preferred!, copies, urls });
  }
  return groups;
}

/** 0 for the home page, 1 for a directory URL whose index file is a copy (/guide/ over /guide/index.html), 2 otherwise. */
function cleanness(url: string, group: readonly string[]): number {
  const path = new URL(url).pathname;
  if (path === '/') return 0;
  return path.endsWith('/') && group.some((other) => /\/index\.(html?|php|asp)$/i.test(other) && other.startsWith(url)) ? 1 : 2;
}
