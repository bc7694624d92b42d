import type { Route } from 'playwright-core';
import { request, type Dispatcher } from 'undici';
import { assertPublicUrl, type PrivateTargets } from '../../lib/safe-http.ts';

/** The render a request belongs to: what it counts, and the document the crawler already fetched. */
export interface RenderInFlight {
  url: string;
  raw?: { contentType: string; body: string };
  stats: { requests: number; refused: number; failed: number; disallowed: string[] };
  inflight: { count: number; last: number };
  deadline: number;
}

export interface RenderFetchOptions {
  agent: Dispatcher;
  allowPrivate: PrivateTargets;
  maxBytes: number;
  isAllowed?: (url: string) => boolean;
}

/** Not loaded: they change no text, link or directive, and they are most of a page's bytes. */
const SKIPPED_TYPES = new Set(['image', 'media', 'font']);
/** The browser asks for it on every page: it is an image, and the audit reads it elsewhere. */
const FAVICON = /^https?:\/\/[^/]+\/favicon\.ico(?:$|\?)/;
/** Request headers the browser sets that a fetch of our own sets itself (or must not forward). */
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding', 'keep-alive', 'upgrade']);
/** Response headers that describe the wire, not the body we hand over (undici has decoded it), or a hop we followed. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'location']);
const MAX_HOPS = 10;
/**
 * Scripts and style sheets are fetched once a crawl: every page of a site loads the same bundles, and with interception
 * on Chromium's own cache is off. (A search engine's renderer caches them as hard; a page's data requests are not cached.)
 */
const CACHED_TYPES = new Set(['script', 'stylesheet']);
const ASSET_CACHE_BYTES = 64 * 1024 * 1024;

interface Answer { status: number; headers: Record<string, string>; body: Buffer }

/** Why a request is not fetched: an address the guard refuses, or a path robots.txt disallows. */
class NotFetched extends Error {
  readonly why: 'refused' | 'disallowed';
  readonly url: string;
  constructor(why: 'refused' | 'disallowed', url: string) {
    super(why);
    this.why = why;
    this.url = url;
  }
}

/**
 * Every request of a rendered page, served here: skipped (images, fonts, media), refused (a private or reserved
 * address, checked on every hop), left out (robots.txt), or fetched through the crawl's guarded dispatcher. Redirects
 * are followed here, never handed to Chromium: a 3xx it followed itself (an iframe's) would not come back through
 * interception.
 */
export function createRenderFetch(options: RenderFetchOptions) {
  const assets = createAssetCache(ASSET_CACHE_BYTES);

  /** One hop, then the next, each checked before it is fetched. */
  async function fetchFollowing(start: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, deadline: number): Promise<Answer> {
    let url = start;
    for (let hop = 0; ; hop++) {
      try {
        assertPublicUrl(url, options.allowPrivate);
      } catch {
        throw new NotFetched('refused', url.href);
      }
      if (hop > 0 && options.isAllowed && !options.isAllowed(url.href)) throw new NotFetched('disallowed', url.href);
      const remaining = Math.max(1, deadline - Date.now());
      const response = await request(url, {
        dispatcher: options.agent, method: method as Dispatcher.HttpMethod, headers, body: hop === 0 ? body : undefined,
        headersTimeout: remaining, bodyTimeout: remaining,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && hop < MAX_HOPS) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        url = new URL(location, url);
        if (response.statusCode !== 307 && response.statusCode !== 308) method = 'GET';
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) {
          response.body.destroy();
          break;
        }
        chunks.push(chunk);
      }
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined && !WIRE_HEADERS.has(name)) responseHeaders[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
      }
      return { status: response.statusCode, headers: responseHeaders, body: Buffer.concat(chunks) };
    }
  }

  return async function serve(route: Route, current: RenderInFlight) {
    const { stats, inflight } = current;
    const req = route.request();
    const url = req.url();
    inflight.count++;
    try {
      if (SKIPPED_TYPES.has(req.resourceType()) || FAVICON.test(url)) return await route.abort('blockedbyclient');
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return await route.abort('addressunreachable');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return await route.abort('blockedbyclient');
      if (current.raw && url === current.url && req.isNavigationRequest() && req.frame().parentFrame() === null) {
        stats.requests++;
        // The crawler decoded the page with its charset: it is handed over as UTF-8 text, said so in the header
        // (which a <meta charset> in the page does not override), or a Latin-1 page would read "CafÃ©".
        return await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: current.raw.body });
      }
      if (options.isAllowed && !options.isAllowed(url)) {
        if (stats.disallowed.length < 20) stats.disallowed.push(url);
        return await route.abort('blockedbyclient');
      }
      stats.requests++;
      const cacheable = req.method() === 'GET' && CACHED_TYPES.has(req.resourceType());
      const cached = cacheable ? assets.get(url) : undefined;
      if (cached) return await route.fulfill(cached);
      const headers: Record<string, string> = {};
      // headers(), not allHeaders(): the latter waits on an extra event per request, and cookies are of no use to a crawl.
      for (const [name, value] of Object.entries(req.headers())) {
        if (!DROPPED_HEADERS.has(name) && !name.startsWith(':')) headers[name] = value;
      }
      try {
        const answer = await fetchFollowing(parsed, req.method(), headers, req.postDataBuffer() ?? undefined, current.deadline);
        if (cacheable && answer.status === 200 && answer.body.length <= options.maxBytes && !/no-store/i.test(answer.headers['cache-control'] ?? '')) assets.set(url, answer);
        return await route.fulfill(answer);
      } catch (error) {
        const err = error as { code?: string; cause?: { code?: string } };
        const refused = (error instanceof NotFetched && error.why === 'refused') || err.code === 'E_BLOCKED_ADDRESS' || err.cause?.code === 'E_BLOCKED_ADDRESS';
        if (error instanceof NotFetched && error.why === 'disallowed') {
          if (stats.disallowed.length < 20) stats.disallowed.push(error.url);
        } else if (refused) stats.refused++;
        else stats.failed++;
        return await route.abort(refused ? 'addressunreachable' : 'failed');
      }
    } catch {
      // The page or its context closed while this request was in flight: nothing to answer.
    } finally {
      inflight.count--;
      inflight.last = Date.now();
    }
  };
}

/** Responses by URL, the oldest dropped once their bytes pass the bound. */
function createAssetCache(maxBytes: number) {
  const entries = new Map<string, Answer>();
  let bytes = 0;
  return {
    get: (url: string) => entries.get(url),
    set(url: string, asset: Answer) {
      if (asset.body.length > maxBytes / 4 || entries.has(url)) return;
      entries.set(url, asset);
      bytes += asset.body.length;
      for (const [oldest, entry] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= entry.body.length;
      }
    },
  };
}
