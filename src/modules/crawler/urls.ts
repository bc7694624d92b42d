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
  const host = hostOfHref(url);
  if (host === undefined) return false;
  return host === startHost || host === `www.${startHost}` || `www.${host}` === startHost;
}

/** URL#host of an http(s) URL's href: between "//" (and any user info) and the path; parsed when not written so. */
export function hostOfHref(url: string): string | undefined {
  const start = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  const end = start === -1 ? -1 : url.indexOf('/', start);
  if (end !== -1) {
    const authority = url.slice(url.lastIndexOf('@', end) + 1 || start, end);
    if (authority === authority.toLowerCase() && !/[%?#\\]/.test(authority)) return authority;
  }
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
