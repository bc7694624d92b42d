import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { request, type Dispatcher } from 'undici';
import { assertPublicUrl, type PrivateTargets } from '../../lib/safe-http.ts';
import { USER_AGENT_TOKEN } from './fetch-page.ts';

/**
 * Pages rendered in Chromium as a search engine's renderer sees them: scripts run, the DOM they build is read back.
 *
 * The browser never touches the network itself. Every request it makes (the document, scripts, XHR and fetch() from
 * the page, redirects, iframes) is intercepted and fetched here through the crawl's dispatcher, whose address guard
 * refuses private and reserved addresses at connect time (lib/safe-http.ts), exactly as for the crawler's own fetches.
 * Behind that, Chromium is started with a proxy that does not exist, so anything that could slip past interception
 * (a WebSocket, a service worker, DNS prefetch, WebRTC) has no route out at all.
 */

export interface RendererOptions {
  executablePath: string;
  /** The crawl's dispatcher: its address guard and its per-origin connection bound apply to the browser's requests. */
  agent: Dispatcher;
  allowPrivate: PrivateTargets;
  /** Pages rendered at once (each a browser context and its renderer process). */
  concurrency?: number;
  /** The whole render: navigation, scripts, and the wait for the network to settle. */
  timeoutMs?: number;
  /** How long the network must be quiet after `load` before the DOM is read. */
  quietMs?: number;
  /** Bytes read of any one response. */
  maxBytes?: number;
  /** Whether robots.txt lets the site's own resources be fetched (Google renders without what it may not fetch). */
  isAllowed?: (url: string) => boolean;
}

/** The document as the crawler fetched it, served to the browser instead of fetching it twice. */
export interface RawDocument {
  contentType: string;
  body: string;
}

export interface RenderResult {
  /** The DOM after scripts ran, serialized; absent when the render failed (see error). */
  html?: string;
  /** The page's address after client-side navigation (history.pushState) or redirects. */
  finalUrl: string;
  error?: string;
  ms: number;
  requests: number;
  /** Requests the address guard refused (a private or reserved address). */
  refused: number;
  /** The site's resources robots.txt disallows: not fetched, as a search engine would not. */
  disallowed: string[];
  /** Requests that failed or timed out (the page may be missing what they carried). */
  failed: number;
}

/** Not loaded: they change no text, link or directive, and they are most of a page's bytes. */
const SKIPPED_TYPES = new Set(['image', 'media', 'font']);
/** The browser asks for it on every page: it is an image, and the audit reads it elsewhere. */
const FAVICON = /^https?:\/\/[^/]+\/favicon\.ico(?:$|\?)/;
/** Request headers the browser sets that a fetch of our own sets itself (or must not forward). */
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding', 'keep-alive', 'upgrade']);
/** Response headers that describe the wire, not the body we hand over (undici has decoded it). */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Scripts and style sheets are fetched once a crawl: every page of a site loads the same bundles, and with interception
 * on Chromium's own cache is off. (A search engine's renderer caches them as hard; a page's data requests are not cached.)
 */
const CACHED_TYPES = new Set(['script', 'stylesheet']);
const ASSET_CACHE_BYTES = 64 * 1024 * 1024;

interface CachedAsset { status: number; headers: Record<string, string>; body: Buffer }

/** Responses by URL, the oldest dropped once their bytes pass the bound. */
function createAssetCache(maxBytes: number) {
  const entries = new Map<string, CachedAsset>();
  let bytes = 0;
  return {
    get: (url: string) => entries.get(url),
    set(url: string, asset: CachedAsset) {
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

export const RENDER_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 (compatible; ${USER_AGENT_TOKEN}/0.1; +https://github.com/site-optimization)`;

export function createRenderer(options: RendererOptions) {
  const concurrency = options.concurrency ?? 2;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const quietMs = options.quietMs ?? 75;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  let browser: Promise<Browser> | undefined;
  let closed = false;
  let peakRssBytes = 0;
  let sampledAt = 0;
  const assets = createAssetCache(ASSET_CACHE_BYTES);

  function launched(): Promise<Browser> {
    // Loaded on first use: playwright-core is ~40 MB of heap, which a crawl that renders nothing never pays.
    browser ??= import('playwright-core').then(({ chromium }) => chromium.launch({
      executablePath: options.executablePath,
      timeout: timeoutMs,
      // The sandbox cannot start as root (containers). The proxy does not exist: interception serves every request,
      // and whatever is not intercepted fails instead of reaching the network. "<-loopback>" stops Chromium from
      // exempting localhost from the proxy.
      args: [
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
        '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-features=DnsPrefetch,NetworkPrediction,MediaRouter', '--no-first-run', '--mute-audio',
        // Each renderer's JavaScript heap is bounded: one page cannot take the machine's memory.
        '--js-flags=--max-old-space-size=256',
        `--renderer-process-limit=${concurrency + 1}`,
      ],
    })).then(
      (b) => {
        b.on('disconnected', () => {
          browser = undefined;
        });
        return b;
      },
      (error: unknown) => {
        browser = undefined;
        throw error;
      },
    );
    return browser;
  }

  /**
   * A slot: one browser context and its page, kept for the crawl (a new page a render costs 2-4x the render on this
   * kind of machine). Between renders its cookies and storage are cleared, so no render sees another's state.
   */
  interface Slot { context: BrowserContext; page: Page; current?: Current }
  interface Current { url: string; raw?: RawDocument; stats: RenderResult; inflight: { count: number; last: number }; deadline: number }
  const idle: Slot[] = [];
  let slots = 0;
  const waiting: Array<(slot: Slot | undefined) => void> = [];

  async function openSlot(): Promise<Slot> {
    const b = await launched();
    const context = await b.newContext({
      userAgent: RENDER_USER_AGENT, serviceWorkers: 'block', acceptDownloads: false, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true,
    });
    const slot: Slot = { context, page: undefined as unknown as Page };
    await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'not available while rendering' }));
    await context.route('**/*', (route) => (slot.current ? serve(route, slot.current) : route.abort('blockedbyclient').catch(() => undefined)));
    slot.page = await context.newPage();
    return slot;
  }

  /** A free slot, or undefined to open one (within the bound). */
  async function acquire(): Promise<Slot | undefined> {
    const free = idle.pop();
    if (free) return free;
    if (slots < concurrency) {
      slots++;
      return undefined;
    }
    return new Promise<Slot | undefined>((resolve) => waiting.push(resolve));
  }
  /** Hands the slot (or, for one that was closed, the right to open one) to the next waiting render. */
  function release(slot: Slot | undefined) {
    const next = waiting.shift();
    if (next) return next(slot);
    if (slot) idle.push(slot);
    else slots--;
  }

  /** Serves one intercepted request: refused, skipped, or fetched through the guarded dispatcher. */
  async function serve(route: Route, current: Current) {
    const { stats, inflight, deadline } = current;
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
        return await route.fulfill({ status: 200, contentType: current.raw.contentType, body: current.raw.body });
      }
      if (options.isAllowed && !options.isAllowed(url)) {
        if (stats.disallowed.length < 20) stats.disallowed.push(url);
        return await route.abort('blockedbyclient');
      }
      stats.requests++;
      try {
        assertPublicUrl(parsed, options.allowPrivate);
      } catch {
        stats.refused++;
        return await route.abort('addressunreachable');
      }
      const cacheable = req.method() === 'GET' && CACHED_TYPES.has(req.resourceType());
      const cached = cacheable ? assets.get(url) : undefined;
      if (cached) return await route.fulfill(cached);
      const headers: Record<string, string> = {};
      // headers(), not allHeaders(): the latter waits on an extra event per request, and cookies are of no use to a crawl.
      for (const [name, value] of Object.entries(req.headers())) {
        if (!DROPPED_HEADERS.has(name) && !name.startsWith(':')) headers[name] = value;
      }
      const remaining = Math.max(1, deadline - Date.now());
      try {
        const response = await request(parsed, {
          dispatcher: options.agent, method: req.method() as Dispatcher.HttpMethod, headers, body: req.postDataBuffer() ?? undefined,
          headersTimeout: remaining, bodyTimeout: remaining,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) {
            response.body.destroy();
            break;
          }
          chunks.push(chunk);
        }
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && !WIRE_HEADERS.has(name)) responseHeaders[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
        }
        const answer = { status: response.statusCode, headers: responseHeaders, body: Buffer.concat(chunks) };
        if (cacheable && response.statusCode === 200 && size <= maxBytes && !/no-store/i.test(responseHeaders['cache-control'] ?? '')) assets.set(url, answer);
        // A 3xx is handed over as it is: Chromium follows it, and the next hop is intercepted and guarded again.
        return await route.fulfill(answer);
      } catch (error) {
        const err = error as { code?: string; cause?: { code?: string } };
        const blocked = err.code === 'E_BLOCKED_ADDRESS' || err.cause?.code === 'E_BLOCKED_ADDRESS';
        if (blocked) stats.refused++;
        else stats.failed++;
        return await route.abort(blocked ? 'addressunreachable' : 'failed');
      }
    } catch {
      // The page or its context closed while this request was in flight: nothing to answer.
    } finally {
      inflight.count--;
      inflight.last = Date.now();
    }
  }

  async function renderIn(slot: Slot, current: Current) {
    const { page } = slot;
    const response = await page.goto(current.url, { waitUntil: 'load', timeout: timeoutMs });
    if (response && response.status() >= 400) throw new Error(`the page answered ${response.status()} in the browser`);
    // The network quiet for quietMs: scripts have fetched what they render (or the deadline came first).
    // Counted here, where every request is served: no round trip to the browser to ask.
    while (Date.now() < current.deadline && (current.inflight.count > 0 || Date.now() - current.inflight.last < quietMs)) {
      await sleep(current.inflight.count > 0 ? 20 : Math.max(5, quietMs - (Date.now() - current.inflight.last)));
    }
    current.stats.finalUrl = page.url();
    current.stats.html = await page.content();
    // What this page stored is not the next page's: a search engine's renderer starts every page afresh.
    await page.evaluate(() => {
      try {
        localStorage.clear();
        sessionStorage.clear();
      } catch {
        // Storage refused (an opaque origin): there is nothing in it.
      }
    });
    await slot.context.clearCookies();
  }

  return {
    /** Starts Chromium ahead of the first render (while robots.txt and the sitemaps are read); a failure waits for the render to report it. */
    warm() {
      launched().catch(() => undefined);
    },

    async render(url: string, raw?: RawDocument): Promise<RenderResult> {
      const stats: RenderResult = { finalUrl: url, ms: 0, requests: 0, refused: 0, disallowed: [], failed: 0 };
      if (closed) return { ...stats, error: 'the crawl ended' };
      let slot = await acquire();
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        slot ??= await openSlot();
        const current: Current = { url, stats, inflight: { count: 0, last: Date.now() }, deadline: Date.now() + timeoutMs, ...(raw ? { raw } : {}) };
        slot.current = current;
        const open = slot;
        // A page whose scripts never let go (an endless loop) would keep its slot for good: the render is raced against the bound.
        const expired = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the render took over ${timeoutMs} ms`)), timeoutMs + 1000);
        });
        await Promise.race([expired, renderIn(open, current)]);
        open.current = undefined;
      } catch (error) {
        stats.error = error instanceof Error ? error.message.split('\n')[0]! : 'the render failed';
        delete stats.html;
        // The slot's page may still be running the failed page's scripts: it is closed, and the next render opens a new one.
        await slot?.context.close().catch(() => undefined);
        slot = undefined;
      } finally {
        clearTimeout(timer);
        stats.ms = Math.round(performance.now() - started);
        sampleMemory();
        release(slot);
      }
      return stats;
    },

    /** The peak memory of Chromium's processes (their proportional set size, shared pages split) seen after a render; 0 off Linux. */
    get peakMemoryBytes() {
      return peakRssBytes;
    },

    async close() {
      closed = true;
      const b = await browser?.catch(() => undefined);
      await b?.close().catch(() => undefined);
    },
  };

  function sampleMemory() {
    if (Date.now() - sampledAt < 2000) return;
    sampledAt = Date.now();
    const memory = descendantsMemory(process.pid);
    if (memory > peakRssBytes) peakRssBytes = memory;
  }
}

export type Renderer = ReturnType<typeof createRenderer>;

/**
 * The memory of every process below `root` (Chromium's browser, renderer and utility processes), from /proc: each one's
 * proportional set size, so the pages they share (the browser's code) are counted once, not once a process.
 */
export function descendantsMemory(root: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so the fields are read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid);
      if (list) list.push(Number(entry));
      else children.set(ppid, [Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // Ended, or not ours to read.
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}
