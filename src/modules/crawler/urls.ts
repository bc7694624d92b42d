/** Absolute http(s) URL without fragment (default ports are dropped by URL itself), or undefined. */
export function normalizeUrl(href: string, base: string | URL): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // Only a reference with a '#' can give the URL a fragment (the base's is never kept): for the others the setter,
    // which serialises the whole URL again, is skipped (it was half of this function's time on a crawl's links).
    if (href.includes('#')) url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The same site: the start host itself or its www./bare twin, on the same port. For a URL as
 * normalizeUrl writes it (its host in lower case, default port dropped) the host is read from
 * the string: this is asked of every link of every page, and parsing a URL costs more.
 */
export function sameSite(url: string, startHost: string): boolean {
  const host = hostOfNormalizedHref(url);
  if (host === undefined) return false;
  return host === startHost || host === `www.${startHost}` || `www.${host}` === startHost;
}

/**
 * A host as URL writes it: a name whose last label starts with a letter, or an IPv4 address in four decimal parts without leading
 * zeros; a port of its own (none of IPv6, "1.2.3", "0x7f.0.0.1", "017.1.1.1", ":0080", which URL rewrites).
 */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const WRITTEN_HOST = new RegExp(`^(?:(?:[a-z0-9-]+\\.)*[a-z][a-z0-9-]*\\.?|${OCTET}(?:\\.${OCTET}){3})(?::[1-9]\\d{0,4})?$`);
/**
 * URL#host of an http(s) address as normalizeUrl writes it (URL#href): between "//" (and any user info) and the path, for a host
 * written as URL writes it (WRITTEN_HOST); any other (a default port, a host in another script, none) is parsed.
 */
export function hostOfNormalizedHref(url: string): string | undefined {
  const start = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  const end = start === -1 ? -1 : url.indexOf('/', start);
  if (end > start) {
    const authority = url.slice(url.lastIndexOf('@', end) + 1 || start, end);
    if (WRITTEN_HOST.test(authority) && !/:(?:80|443)$/.test(authority)) return authority;
  }
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
