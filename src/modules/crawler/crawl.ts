import { setTimeout as sleep } from 'node:timers/promises';
import { createOutboundAgent } from '../../lib/safe-http.ts';
import { detach } from '../../lib/strings.ts';
import { isActionUrl } from './action-urls.ts';
import type { AiAccess, CrawledPage, CrawlOptions, CrawlResult, RenderingSummary } from './crawl.types.ts';
import { createExtractor, extractPageFacts, type PageFacts } from './extract.ts';
import { compareRender, failedRender, type PageRendering } from './render-compare.ts';
import { renderRuleFor, type RenderReason } from './render-rules.ts';
import { createRenderer, type Renderer } from './renderer.ts';
import { fetchOnce, type FetchOptions, type FetchResult } from './fetch-page.ts';
import { parseRobots, type RobotsRules } from './robots.ts';
import { evaluateCrawlerAccess, readLlmsTxt } from './ai-access.ts';
import { LinkStore, NO_LINKS } from './link-store.ts';
import { parseSitemap, SITEMAP_MAX_BYTES } from './sitemap.ts';
import { anchorHashes, fragmentOf } from './fragments.ts';
import { TrapDetector } from './traps.ts';
import { normalizeUrl, sameSite } from './urls.ts';

export type { AiAccess, CrawledPage, CrawlOptions, CrawlResult, RenderingSummary } from './crawl.types.ts';

const MAX_REDIRECTS = 10;
const MAX_SITEMAPS = 50;
const MAX_IMAGES_MEASURED = 2000;
const MAX_FRAGMENT_LINKS = 200_000;
/** Pages shorter than this share a text hash too easily to be called copies of each other. */
const MIN_WORDS_FOR_COPY = 20;
// Most pages have no X-Robots-Tag, no redirects and so on: they share these instead of
// each holding empty arrays of their own (a 20,000-page crawl keeps every page record).
const NONE: string[] = [];
const NO_HOPS: CrawledPage['redirectChain'] = [];
/**
 * The template sample's render shows JavaScript's own content (and every page is rendered, at some pages a second
 * instead of hundreds) when under this share of its main text is in the raw HTML...
 */
const TEMPLATE_TEXT_IN_RAW = 0.7;
/**
 * ...or when it adds this many internal links and at least this share of the rendered page's (a widget of "trending"
 * links a script fills is not a site built by JavaScript)...
 */
const TEMPLATE_NEW_LINKS = 5;
const TEMPLATE_NEW_LINKS_SHARE = 0.25;
/** ...or when it changes one of these (a title or a directive set by script is set on every page). */
const TEMPLATE_FIELDS = new Set(['title', 'robots', 'canonical', 'h1']);
export const CHROMIUM_MISSING = 'the browser that renders pages is not installed on this server, so pages were audited as raw HTML; your administrator can install it';

export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const agent = createOutboundAgent({
    allowPrivate: options.allowPrivate,
    connectionsPerOrigin: options.concurrency ?? 8,
    timeoutMs: options.timeoutMs ?? 15_000,
  });
  try {
    return await new Crawl(options, agent).run();
  } finally {
    await agent.close();
  }
}

class Crawl {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly pages: CrawledPage[] = [];
  private readonly linkQueue: Array<{ url: string; depth: number }> = [];
  private readonly sitemapQueue: string[] = [];
  private readonly sitemapUrls = new Set<string>();
  private readonly sitemapsFetched: CrawlResult['sitemapsFetched'] = [];
  private readonly images = new Map<string, string>();
  /** Root-relative hrefs ("/about") resolve the same on every page of the start origin. */
  private readonly rootRelative = new Map<string, string | undefined>();
  /** Header values repeat on every page: one string each. */
  private readonly contentTypes = new Map<string, string>();
  private readonly links = new LinkStore();
  private readonly traps = new TrapDetector((url) => this.ids.has(url));
  private readonly fragmentLinks: CrawlResult['fragmentLinks'] = [];
  private homeAssets: string[] = [];
  private readonly imageBytes = new Map<string, number>();
  private robots!: RobotsRules;
  private robotsStatus = 0;
  private startHost = '';
  private startUrl = '';
  private pausedUntil = 0;
  private gate: Promise<void> = Promise.resolve();
  private claimed = 0;
  private homeHeaders: Record<string, string> = {};
  private readonly fetchOptions: FetchOptions;
  private readonly options: CrawlOptions;
  private active = 0;
  private renderer: Renderer | undefined;
  private readonly renderSummary: RenderingSummary | undefined;

  constructor(options: CrawlOptions, agent: FetchOptions['agent']) {
    this.options = options;
    this.fetchOptions = {
      agent,
      allowPrivate: options.allowPrivate,
      maxBytes: options.maxBytes ?? 5 * 1024 * 1024,
      onBackoff: (waitMs) => (this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs)),
    };
    const rendering = options.rendering;
    if (rendering) {
      this.renderSummary = {
        mode: rendering.mode, available: rendering.mode !== 'never' && rendering.chromiumPath !== undefined,
        rendered: 0, failed: 0, by_reason: {}, template_renders_content: false, render_ms: 0, peak_memory_bytes: 0,
        ...(rendering.mode !== 'never' && rendering.chromiumPath === undefined ? { unavailable: CHROMIUM_MISSING } : {}),
      };
      if (rendering.mode !== 'never' && rendering.chromiumPath !== undefined) {
        this.renderer = createRenderer({
          executablePath: rendering.chromiumPath, agent, allowPrivate: options.allowPrivate,
          concurrency: rendering.concurrency ?? 2, timeoutMs: rendering.timeoutMs ?? 15_000,
          // The site's own resources robots.txt disallows are not fetched: a search engine renders without them.
          isAllowed: (url) => !sameSite(url, this.startHost) || this.robots.isAllowed(url),
        });
      }
    }
  }

  async run(): Promise<CrawlResult> {
    try {
      return await this.crawl();
    } finally {
      if (this.renderer && this.renderSummary) {
        this.renderSummary.peak_memory_bytes = this.renderer.peakMemoryBytes;
        const unavailable = this.renderer.unavailable;
        if (unavailable) Object.assign(this.renderSummary, { available: false, unavailable });
      }
      await this.renderer?.close();
    }
  }

  private async crawl(): Promise<CrawlResult> {
    this.renderer?.warm();
    const startUrl = await this.chooseStartUrl();
    this.startUrl = startUrl;
    this.startHost = new URL(startUrl).host;
    const robotsUrl = new URL('/robots.txt', startUrl).href;
    const robots = await fetchOnce(robotsUrl, { ...this.fetchOptions, keepBody: true, maxBytes: 512 * 1024 });
    this.robotsStatus = robots.status;
    this.robots = parseRobots(robotsUrl, robots.status, robots.body);
    await this.readSitemaps(startUrl);

    this.enqueueLink(startUrl, 0);
    const workers = this.robots.crawlDelayMs > 0 ? 1 : (this.options.concurrency ?? 8);
    await Promise.all(Array.from({ length: workers }, () => this.work()));
    await this.measureImages(workers);
    const wordpressApi = await this.probeWordPressApi();
    const aiAccess = await this.aiAccess(robotsUrl, robots.status, robots.body);
    // Unreachable: the home page got no answer, and no page of a sitemap did either. Nothing to
    // audit either when it answers an error and no page of the site answered with content (a
    // directory served without an index): a 404 is not a site that is 78% healthy.
    const home = this.pages.find((p) => p.url === startUrl);
    const answered = this.pages.some((p) => p.status !== null && p.status > 0);
    const content = this.pages.some((p) => p.status !== null && p.status >= 200 && p.status < 300);
    const unreachable = home?.status === 0 && !answered
      ? `${startUrl} did not answer: ${home.error ?? 'no response'}`
      : home?.status && home.status >= 400 && !content
        ? `${startUrl} answers ${home.status}, and no page of the site (from its links or its sitemap) answered with content`
        : undefined;
    return {
      startUrl,
      pages: this.pages,
      urls: this.urls,
      sitemapUrls: this.sitemapUrls,
      sitemapsFetched: this.sitemapsFetched,
      robots: { status: this.robotsStatus, blocksEverything: this.robots.blocksEverything },
      homeHeaders: this.homeHeaders,
      imageBytes: this.imageBytes,
      platformHints: { homeAssets: this.homeAssets, wordpressApi },
      aiAccess,
      stoppedAtPageCap: this.claimed >= this.options.maxPages && this.uncrawled() > 0,
      pageCap: this.options.maxPages,
      uncrawled: this.uncrawled(),
      traps: [...this.traps.patterns.values()],
      fragmentLinks: this.fragmentLinks,
      ...(this.renderSummary ? { rendering: this.renderSummary } : {}),
      ...(unreachable ? { unreachable } : {}),
    };
  }

  /** Queued URLs not fetched (the trap rules would have skipped some of them too). */
  private uncrawled(): number {
    return this.linkQueue.length + this.sitemapQueue.filter((url) => !this.ids.has(url)).length;
  }

  /** https://{domain}/, falling back to http:// when https is not served. */
  private async chooseStartUrl(): Promise<string> {
    const https = `https://${this.options.domain}/`;
    const probe = await fetchOnce(https, { ...this.fetchOptions, maxBytes: 0, retries: 0 });
    return probe.status === 0 && !probe.error?.startsWith('blocked') ? `http://${this.options.domain}/` : https;
  }

  private async readSitemaps(startUrl: string) {
    const pending = [...new Set([...this.robots.sitemaps, new URL('/sitemap.xml', startUrl).href])];
    const seen = new Set<string>();
    while (pending.length > 0 && seen.size < MAX_SITEMAPS) {
      const url = pending.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const result = await fetchOnce(url, { ...this.fetchOptions, raw: true, maxBytes: SITEMAP_MAX_BYTES });
      const fetched: CrawlResult['sitemapsFetched'][number] = { url, status: result.status, ...(result.error ? { error: result.error } : {}) };
      this.sitemapsFetched.push(fetched);
      if (result.status !== 200 || !result.bytesBody) continue;
      const document = parseSitemap(result.bytesBody, { truncated: result.truncated });
      fetched.kind = document.kind;
      if (document.problem) fetched.problem = document.problem;
      const foreign: string[] = [];
      for (const loc of document.locations) {
        const normalized = normalizeUrl(loc, url);
        if (!normalized) continue;
        if (!sameSite(normalized, this.startHost)) foreign.push(normalized);
        else if (document.kind === 'sitemapindex') pending.push(normalized);
        else if (this.sitemapUrls.size < this.options.maxPages * 4) {
          this.sitemapUrls.add(normalized);
          if (!this.ids.has(normalized)) this.sitemapQueue.push(normalized);
        }
      }
      // Search engines ignore entries of another host (without cross-host proof): say so.
      if (foreign.length > 0) fetched.problem ??= `lists ${foreign.length} URL(s) of another host, e.g. ${foreign[0]}`;
    }
  }

  /** WordPress answers /wp-json/ with its REST index, whatever its theme hides. */
  private async probeWordPressApi(): Promise<boolean> {
    const url = new URL('/wp-json/', this.startUrl).href;
    if (!this.robots.isAllowed(url) || this.options.signal?.aborted) return false;
    await this.politeness();
    const result = await fetchOnce(url, { ...this.fetchOptions, keepBody: true, maxBytes: 64 * 1024, retries: 0 });
    return result.status === 200 && /json/i.test(result.contentType) && /"namespaces"\s*:/.test(result.body ?? '');
  }

  /**
   * robots.txt read for each known search and AI crawler, against the home page, the sitemaps
   * and the audited pages; and /llms.txt, fetched once (a well-known file, like robots.txt).
   */
  private async aiAccess(robotsUrl: string, status: number, body: string | undefined): Promise<AiAccess> {
    const sitemaps = new Set([
      ...this.robots.sitemaps,
      ...this.sitemapsFetched.filter((s) => s.status === 200 && s.kind !== undefined && s.kind !== 'invalid').map((s) => s.url),
    ]);
    const pageUrls = this.pages.filter((p) => !p.trap && !p.blockedByRobots && p.status !== null).map((p) => p.url);
    const crawlers = evaluateCrawlerAccess({ robotsUrl, status, body, homeUrl: this.startUrl, sitemaps: [...sitemaps], pageUrls });
    if (this.options.signal?.aborted) return { robots_status: status, crawlers, llms_txt: { url: new URL('/llms.txt', this.startUrl).href, status: 'missing', http_status: 0, problems: [] } };
    await this.politeness();
    const llms = await readLlmsTxt(this.startUrl, this.fetchOptions, (url) => sameSite(url, this.startHost));
    return { robots_status: status, crawlers, llms_txt: llms };
  }

  /** HEAD each same-site image once (robots.txt and politeness apply as to pages). */
  private async measureImages(workers: number) {
    const queue = [...this.images.keys()].filter((url) => this.robots.isAllowed(url)).slice(0, MAX_IMAGES_MEASURED);
    const worker = async () => {
      for (let url = queue.shift(); url !== undefined && !this.options.signal?.aborted; url = queue.shift()) {
        await this.politeness();
        const result = await fetchOnce(url, { ...this.fetchOptions, method: 'HEAD', retries: 1 });
        const length = Number(result.headers['content-length']);
        if (result.status === 200 && Number.isFinite(length)) this.imageBytes.set(url, length);
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
  }

  private idOf(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.urls.push(url) - 1;
      this.ids.set(url, id);
    }
    return id;
  }

  private enqueueLink(url: string, depth: number) {
    if (this.ids.has(url)) return;
    this.idOf(url);
    if (this.traps.skipOnDiscovery(url)) return;
    this.linkQueue.push({ url, depth });
    this.report();
  }

  private next(): { url: string; depth: number | null } | undefined {
    if (this.claimed >= this.options.maxPages || this.options.signal?.aborted) return undefined;
    for (let link = this.linkQueue.shift(); link; link = this.linkQueue.shift()) {
      if (this.admit(link.url, link.depth)) return link;
    }
    while (this.sitemapQueue.length > 0) {
      const url = this.sitemapQueue.shift()!;
      if (!this.ids.has(url)) {
        this.idOf(url);
        if (!this.traps.skipOnDiscovery(url) && this.admit(url, null)) return { url, depth: null };
      }
    }
    return undefined;
  }

  /**
   * Whether a URL is fetched. A crawl trap's URL is skipped (counted by its pattern); one
   * robots.txt disallows is recorded as blocked, unfetched: neither spends the page budget.
   */
  private admit(url: string, depth: number | null): boolean {
    if (this.traps.skipLearnt(url)) return false;
    if (this.robots.isAllowed(url)) return true;
    const page = this.newPage(url, depth);
    page.blockedByRobots = true;
    this.pages.push(page);
    this.options.onPage?.(page, this.startUrl);
    return false;
  }

  private newPage(url: string, depth: number | null): CrawledPage {
    return {
      url, depth, status: null, blockedByRobots: false, redirectChain: NO_HOPS, contentType: '', ttfbMs: 0,
      truncated: false, xRobotsTag: NONE, hsts: false, outlinks: NO_LINKS, images: NONE,
    };
  }

  private async work() {
    for (;;) {
      const item = this.next();
      if (!item) {
        // Another worker may still add links: wait for it unless everyone is idle.
        if (this.active === 0 || this.claimed >= this.options.maxPages || this.options.signal?.aborted) return;
        await sleep(5);
        continue;
      }
      this.claimed += 1;
      this.active += 1;
      try {
        await this.visit(item.url, item.depth);
      } finally {
        this.active -= 1;
        this.report();
      }
    }
  }

  private report() {
    this.options.onProgress?.({ crawled: this.claimed, discovered: this.urls.length + this.sitemapQueue.length });
  }

  /** Waits out a host's Retry-After and spaces requests by its Crawl-delay. */
  private async politeness() {
    const delay = this.robots.crawlDelayMs;
    const turn = this.gate.then(async () => {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await sleep(wait);
      if (delay > 0) await sleep(delay);
    });
    this.gate = delay > 0 ? turn : Promise.resolve();
    await turn;
  }

  private async visit(url: string, depth: number | null) {
    try {
      const page = await this.fetchPage(url, depth);
      this.options.onPage?.(page, this.startUrl);
    } finally {
      // The home page's visit is over: if it gave no verdict (an error, not HTML, a redirect to a page already known),
      // the pages waiting for one go on without (their own rules decide).
      if (depth === 0) this.settleTemplate(false);
    }
  }

  private async fetchPage(url: string, depth: number | null): Promise<CrawledPage> {
    const page = this.newPage(url, depth);
    this.pages.push(page);
    let current = url;
    const visited = new Set<string>([url]);
    for (;;) {
      await this.politeness();
      const extractor = createExtractor();
      const result = await fetchOnce(current, { ...this.fetchOptions, keepText: this.renderer !== undefined, onText: (t) => extractor.write(t) });
      const isRedirect = result.status >= 300 && result.status < 400 && result.location;
      if (current === url) this.recordResponse(page, result);
      if (!isRedirect) {
        // The chain's end is a page of its own, recorded once whoever reaches it first.
        if (current !== url && !this.ids.has(current)) {
          this.idOf(current);
          this.claimed += 1;
          await this.recordFinal(current, depth, result, extractor);
        } else if (current === url && result.status === 200 && /html/i.test(result.contentType)) {
          this.recordFacts(page, await this.rendered(page, extractor.end(), result), depth);
        }
        return page;
      }
      if (page.redirectChain === NO_HOPS) page.redirectChain = [];
      page.redirectChain.push({ url: current, status: result.status });
      const next = normalizeUrl(result.location!, current);
      if (!next) return page;
      page.redirectTarget = next;
      if (visited.has(next)) {
        page.redirectLoop = true;
        return page;
      }
      // Followed to the end even through known URLs, so the chain's length is true.
      if (page.redirectChain.length >= MAX_REDIRECTS || !sameSite(next, this.startHost)) return page;
      visited.add(next);
      current = next;
    }
  }

  private recordResponse(page: CrawledPage, result: FetchResult) {
    page.status = result.status;
    if (result.error) page.error = result.error;
    page.contentType = this.contentTypes.get(result.contentType) ?? result.contentType;
    if (this.contentTypes.size < 100) this.contentTypes.set(page.contentType, page.contentType);
    page.ttfbMs = Math.round(result.ttfbMs);
    page.truncated = result.truncated;
    const robotsHeader = result.headers['x-robots-tag'];
    page.xRobotsTag = robotsHeader ? robotsHeader.toLowerCase().split(',').map((d) => d.trim()).filter(Boolean) : NONE;
    page.hsts = 'strict-transport-security' in result.headers;
    if (page.depth === 0) this.homeHeaders = result.headers;
    const charset = result.charset;
    if (charset?.header && charset.page && charset.header !== charset.page) page.charsetConflict = `header ${charset.header}, page ${charset.page}`;
  }

  private async recordFinal(url: string, depth: number | null, result: FetchResult, extractor: ReturnType<typeof createExtractor>) {
    const page = this.newPage(url, depth);
    this.pages.push(page);
    this.recordResponse(page, result);
    if (depth === 0) this.homeHeaders = result.headers;
    if (result.status === 200 && /html/i.test(result.contentType)) this.recordFacts(page, await this.rendered(page, extractor.end(), result), depth);
    this.options.onPage?.(page, this.startUrl);
  }

  /**
   * The facts the checks and the agent read: the rendered page's when it is rendered (page.rendering then compares it
   * with the raw HTML), the raw page's otherwise and when the render fails.
   */
  private async rendered(page: CrawledPage, raw: PageFacts, result: FetchResult): Promise<PageFacts> {
    const renderer = this.renderer;
    if (!renderer || this.options.signal?.aborted) return raw;
    const reason = await this.renderReason(page, raw);
    if (reason === undefined) return raw;
    let rendersContent = false;
    try {
      const render = await renderer.render(page.url, result.body === undefined ? undefined : { contentType: result.contentType, body: result.body });
      const summary = this.renderSummary!;
      summary.render_ms += render.ms;
      summary.by_reason[reason] = (summary.by_reason[reason] ?? 0) + 1;
      const requests = { made: render.requests, refused: render.refused, failed: render.failed, disallowed: render.disallowed };
      const common = { reason, ms: render.ms, pageUrl: page.url, host: this.startHost, raw, requests };
      if (render.html === undefined) {
        summary.failed += 1;
        page.rendering = failedRender({ ...common, error: render.error ?? 'the render failed' });
        return raw;
      }
      summary.rendered += 1;
      const facts = extractPageFacts(render.html);
      page.rendering = compareRender({ ...common, rawHtml: result.body, rendered: facts });
      rendersContent = jsAddsContent(page.rendering);
      return facts;
    } finally {
      // Settled whatever happened: the other pages wait for this verdict.
      if (reason === 'template_sample') this.settleTemplate(rendersContent);
    }
  }

  /** In auto, the home page's verdict: settled once, by its render, or false when it was not rendered (not HTML, failed, aborted). */
  private templateSettled = false;
  private resolveTemplate: ((rendersContent: boolean) => void) | undefined;
  private readonly templateVerdict = new Promise<boolean>((resolve) => (this.resolveTemplate = resolve));
  private settleTemplate(rendersContent: boolean) {
    if (this.templateSettled) return;
    this.templateSettled = true;
    if (this.renderSummary) this.renderSummary.template_renders_content = rendersContent;
    this.resolveTemplate!(rendersContent);
  }

  /** Why this page is rendered, or undefined to audit its raw HTML. */
  private async renderReason(page: CrawledPage, raw: PageFacts): Promise<RenderReason | undefined> {
    const mode = this.options.rendering?.mode;
    if (mode === 'always') return 'always';
    if (mode !== 'auto') return undefined;
    // The home page (or where it redirects: depth 0) is the sample; the other pages wait for what it shows.
    if (page.depth === 0 && !this.templateSettled) return 'template_sample';
    if (await this.templateVerdict) return 'template_renders_content';
    return renderRuleFor(raw);
  }

  /** normalizeUrl, memoised for root-relative hrefs: nav and footer links repeat on every page. */
  private resolve(href: string, pageUrl: string): string | undefined {
    if (href.charCodeAt(0) !== 47 /* / */ || href.charCodeAt(1) === 47 || !pageUrl.startsWith(this.startUrl)) {
      return normalizeUrl(href, pageUrl);
    }
    const known = this.rootRelative.get(href);
    if (known !== undefined || this.rootRelative.has(href)) return known;
    const resolved = normalizeUrl(href, this.startUrl);
    if (this.rootRelative.size < 50_000) this.rootRelative.set(detach(href), resolved);
    return resolved;
  }

  private recordFacts(page: CrawledPage, facts: PageFacts, depth: number | null) {
    page.facts = facts;
    if (depth === 0 || page.url === this.startUrl) this.homeAssets = facts.assets.map(detach);
    // A trap's copy is not followed at all; a page served under too many URLs keeps only
    // its links to URLs already known (the copies' relative links are what grows a trap).
    const verdict = facts.wordCount >= MIN_WORDS_FOR_COPY ? this.traps.afterFetch(page.url, facts.textHash) : undefined;
    if (verdict === 'trap') {
      page.trap = true;
      return;
    }
    if (facts.anchorIds.length > 0) page.anchors = anchorHashes(facts.anchorIds);
    const outlinks = new Set<number>();
    const nextDepth = (depth ?? 0) + 1;
    for (const link of facts.links) {
      const target = this.resolve(link.href, page.url);
      if (!target) continue;
      // A URL with an id is of the site (only same-site URLs are ever given one): the menu's and the footer's
      // links, on every page, are looked up once, not parsed for their host again.
      let id = this.ids.get(target);
      if (id === undefined) {
        // (Nor an action's address: "?add-to-cart=1240" fills a cart and shows the page it was on again.)
        if (!sameSite(target, this.startHost) || verdict === 'copy' || isActionUrl(target)) continue;
        if (nextDepth <= (this.options.maxDepth ?? 10)) this.enqueueLink(target, nextDepth);
        id = this.idOf(target);
      }
      outlinks.add(id);
      const fragment = fragmentOf(link.href);
      if (fragment !== undefined && this.fragmentLinks.length < MAX_FRAGMENT_LINKS) {
        this.fragmentLinks.push({ from: page.url, to: this.urls[id]!, fragment: detach(fragment) });
      }
    }
    page.outlinks = this.links.store(outlinks);
    const images = new Set<string>();
    for (const image of facts.images) {
      const src = image.src ? this.resolve(image.src, page.url) : undefined;
      if (!src || !sameSite(src, this.startHost)) continue;
      const known = this.images.get(src) ?? src; // one string per image URL across pages
      this.images.set(src, known);
      images.add(known);
    }
    if (images.size > 0) page.images = [...images];
    // Canonical and hreflang targets are crawled too (their status matters to the checks),
    // but they are not links: they add no click path and do not rescue an orphan.
    for (const href of [...facts.canonicals, ...facts.hreflangs.map((h) => h.href)]) {
      const target = normalizeUrl(href, page.url);
      if (target && sameSite(target, this.startHost)) this.enqueueLink(target, (depth ?? 0) + 1);
    }
  }
}

/** The template sample's verdict: JavaScript adds main text, links or directives the raw HTML does not have. */
function jsAddsContent(rendering: PageRendering): boolean {
  const newLinks = rendering.links_only_rendered.count;
  return (rendering.text_in_raw !== null && rendering.text_in_raw < TEMPLATE_TEXT_IN_RAW)
    || (newLinks >= TEMPLATE_NEW_LINKS && newLinks >= TEMPLATE_NEW_LINKS_SHARE * (rendering.rendered?.internal_links ?? 0))
    || rendering.changes.some((c) => TEMPLATE_FIELDS.has(c.field));
}
