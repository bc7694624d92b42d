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

/** The same site: the start host itself or its www./bare twin, on the same port. */
export function sameSite(url: string, startHost: string): boolean {
  try {
    const host = new URL(url).host;
    return host === startHost || host === `www.${startHost}` || `www.${host}` === startHost;
  } catch {
    return false;
  }
}
