import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Dispatcher } from 'undici';
import { chromiumArgs } from '../../lib/chromium.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import { startDeadEndProxy } from './dead-end-proxy.ts';
import { USER_AGENT_TOKEN } from './fetch-page.ts';
import { descendantsMemory } from './process-memory.ts';
import { createRenderFetch, type RenderInFlight } from './render-fetch.ts';

/**
 * Pages rendered in Chromium as a search engine's renderer sees them: scripts run, the DOM they build is read back.
 *
 * The browser never touches the network itself. Every request it makes (the document, scripts, XHR and fetch() from
 * the page, frames; redirects are followed here) is intercepted and fetched through the crawl's dispatcher, whose
 * address guard refuses private and reserved addresses at connect time (lib/safe-http.ts), exactly as for the
 * crawler's own fetches (render-fetch.ts). Behind that, Chromium's proxy is a listener of ours that drops every
 * connection (dead-end-proxy.ts), so what escapes interception (the browser's own traffic, a worker's request) reaches
 * nothing; shared workers, whose requests interception does not see, are removed from every page.
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
  /**
   * The longest wait for that quiet after `load`: a page whose ads or analytics never stop polling is read then, as a
   * search engine's renderer reads it after its own budget, rather than failing at the deadline.
   */
  settleMs?: number;
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

/** A phone's Chrome, as Google's smartphone crawler renders (mobile-first indexing), naming us as the crawler does. */
export const RENDER_USER_AGENT = `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 (compatible; ${USER_AGENT_TOKEN}/0.1; +https://github.com/site-optimization)`;

export function createRenderer(options: RendererOptions) {
  const concurrency = options.concurrency ?? 2;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const quietMs = options.quietMs ?? 75;
  const settleMs = options.settleMs ?? 5000;
  const serve = createRenderFetch({ agent: options.agent, allowPrivate: options.allowPrivate, maxBytes: options.maxBytes ?? 8 * 1024 * 1024, ...(options.isAllowed ? { isAllowed: options.isAllowed } : {}) });
  let browser: Promise<Browser> | undefined;
  let proxy: Awaited<ReturnType<typeof startDeadEndProxy>> | undefined;
  let closed = false;
  /** Why Chromium did not start: every render after the first failure says so at once, none tries again for 15 s. */
  let unavailable: string | undefined;
  let peakMemory = 0;
  let sampledAt = 0;

  /**
   * A slot: one browser context and its page, kept for the crawl (a new page a render costs 2-4x the render on this
   * kind of machine). Between renders its cookies and storage are cleared, so no render sees another's state.
   */
  interface Slot { context: BrowserContext; page: Page; current?: RenderInFlight }
  let idle: Slot[] = [];
  let slots = 0;
  const waiting: Array<(slot: Slot | undefined | 'closed') => void> = [];

  function launched(): Promise<Browser> {
    if (closed) return Promise.reject(new Error('the crawl ended'));
    browser ??= (async () => {
      proxy ??= await startDeadEndProxy();
      // Loaded on first use: playwright-core is ~40 MB of heap, which a crawl that renders nothing never pays.
      const { chromium } = await import('playwright-core');
      return chromium.launch({
        executablePath: options.executablePath,
        timeout: timeoutMs,
        args: chromiumArgs([
          // "<-loopback>": localhost is not exempt from the proxy either.
          `--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          '--disable-features=DnsPrefetch,NetworkPrediction,MediaRouter,OptimizationHints,Translate',
          // Each renderer's JavaScript heap is bounded: one page cannot take the machine's memory.
          '--js-flags=--max-old-space-size=256',
          `--renderer-process-limit=${concurrency + 1}`,
        ]),
      });
    })().then(
      (b) => {
        b.on('disconnected', () => {
          // A crashed browser's contexts are dead: the slots holding them are given up, and reopened on demand.
          browser = undefined;
          slots -= idle.length;
          idle = [];
        });
        if (closed) void b.close();
        return b;
      },
      (error: unknown) => {
        browser = undefined;
        unavailable = `Chromium did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        throw error;
      },
    );
    return browser;
  }

  async function openSlot(): Promise<Slot> {
    const b = await launched();
    const context = await b.newContext({
      userAgent: RENDER_USER_AGENT, serviceWorkers: 'block', acceptDownloads: false, viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true,
    });
    try {
      const slot: Slot = { context, page: undefined as unknown as Page };
      // A shared worker's requests do not pass through interception: pages get none (they fall back, or do without).
      await context.addInitScript(() => {
        Object.defineProperty(globalThis, 'SharedWorker', { value: undefined, configurable: false, writable: false });
      });
      await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'not available while rendering' }));
      await context.route('**/*', (route) => (slot.current ? serve(route, slot.current) : route.abort('blockedbyclient').catch(() => undefined)));
      slot.page = await context.newPage();
      return slot;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** A free slot, undefined to open one (within the bound), or 'closed' once the renderer is. */
  async function acquire(): Promise<Slot | undefined | 'closed'> {
    if (closed) return 'closed';
    const free = idle.pop();
    if (free) return free;
    if (slots < concurrency) {
      slots++;
      return undefined;
    }
    return new Promise((resolve) => waiting.push(resolve));
  }
  /** Hands the slot (or, for one that was closed, the right to open one) to the next waiting render. */
  function release(slot: Slot | undefined) {
    const next = waiting.shift();
    if (next) return next(closed ? 'closed' : slot);
    if (slot) idle.push(slot);
    else slots--;
  }

  async function renderIn(slot: Slot, current: RenderInFlight, stats: RenderResult) {
    const { page } = slot;
    const response = await page.goto(current.url, { waitUntil: 'load', timeout: timeoutMs });
    if (response && response.status() >= 400) throw new Error(`the page answered ${response.status()} in the browser`);
    // The network quiet for quietMs: scripts have fetched what they render (or settleMs passed).
    // Counted here, where every request is served: no round trip to the browser to ask.
    const settled = Math.min(current.deadline, Date.now() + settleMs);
    while (Date.now() < settled && (current.inflight.count > 0 || Date.now() - current.inflight.last < quietMs)) {
      await sleep(current.inflight.count > 0 ? 20 : Math.max(5, quietMs - (Date.now() - current.inflight.last)));
    }
    stats.finalUrl = page.url();
    // A script that sent the page elsewhere (another host, an error page) leaves nothing of this page to read.
    const final = URL.canParse(stats.finalUrl) ? new URL(stats.finalUrl) : undefined;
    if (!final || !/^https?:$/.test(final.protocol) || final.host !== new URL(current.url).host) throw new Error(`the page's scripts navigated away, to ${stats.finalUrl}`);
    stats.html = await page.content();
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
      if (unavailable) return { ...stats, error: unavailable };
      const acquired = await acquire();
      if (acquired === 'closed') return { ...stats, error: 'the crawl ended' };
      let slot: Slot | undefined = acquired;
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const current: RenderInFlight = { url, stats, inflight: { count: 0, last: Date.now() }, deadline: Date.now() + timeoutMs, ...(raw ? { raw } : {}) };
      // A page whose scripts never let go (an endless loop), or a browser that hangs, would keep the slot for good:
      // opening the slot and rendering are raced against the bound.
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the render took over ${timeoutMs} ms`)), timeoutMs + 1000);
      });
      try {
        await Promise.race([expired, (async () => {
          slot ??= await openSlot();
          slot.current = current;
          await renderIn(slot, current, stats);
          slot.current = undefined;
        })()]);
      } catch (error) {
        stats.error = unavailable ?? (error instanceof Error ? error.message.split('\n')[0]! : 'the render failed');
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

    /** Why Chromium could not be used (it did not start), once a render has found out; undefined otherwise. */
    get unavailable() {
      return unavailable;
    },

    /** The peak memory of Chromium's processes (their proportional set size, shared pages split) seen after a render; 0 off Linux. */
    get peakMemoryBytes() {
      return peakMemory;
    },

    /** Requests that reached the dead-end proxy: what interception did not serve (0 unless something escaped it). */
    get escaped() {
      return proxy?.escaped ?? 0;
    },

    /** What those requests asked for (their first line, up to 20). */
    get escapedTargets(): readonly string[] {
      return proxy?.targets ?? [];
    },

    async close() {
      closed = true;
      for (const next of waiting.splice(0)) next('closed');
      const b = await browser?.catch(() => undefined);
      await b?.close().catch(() => undefined);
      await proxy?.close();
    },
  };

  function sampleMemory() {
    if (Date.now() - sampledAt < 2000) return;
    sampledAt = Date.now();
    const memory = descendantsMemory(process.pid);
    if (memory > peakMemory) peakMemory = memory;
  }
}

export type Renderer = ReturnType<typeof createRenderer>;
