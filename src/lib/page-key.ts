/**
 * One page however an address writes it: Search Console, a crawl and a page's links may
 * differ by a trailing slash, the host's letter case, a default port or a fragment. Used to
 * compare addresses (a task's claims, a live check), never to fetch.
 */
export function pageKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    const path = u.pathname.replace(/\/+$/, '') || '/';
    return `${u.protocol}//${u.host.toLowerCase()}${path}${u.search}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}
