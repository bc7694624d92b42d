/** Absolute http(s) URL without fragment (default ports are dropped by URL itself), or undefined. */
export function normalizeUrl(href: string, base: string | URL): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
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
 * URL#host of an http(s) address as normalizeUrl writes it (URL#href): between "//" (and any user info) and the path. An address
 * not written so (a default port, a host not in lower-case ASCII, no host) is parsed.
 */
export function hostOfNormalizedHref(url: string): string | undefined {
  const start = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  const end = start === -1 ? -1 : url.indexOf('/', start);
  if (end > start) {
    const authority = url.slice(url.lastIndexOf('@', end) + 1 || start, end);
    if (authority !== '' && /^[a-z0-9.:[\]-]+$/.test(authority) && !/:(?:80|443)$/.test(authority) && !/^[\d.]+$/.test(authority)) return authority;
  }
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
