import LinkHeader from 'http-link-header';
import { interceptors, request, type Dispatcher } from 'undici';
import { assertPublicUrl, type PrivateTargets } from '../../../lib/safe-http.ts';
import { USER_AGENT } from '../../crawler/fetch-page.ts';
import { ConnectorError } from '../connector-error.ts';

/** A refusal or failure reported by WordPress (its `code` when it sent one) or by the network. */
export class WordPressError extends ConnectorError {
  readonly wpCode: string | undefined;
  constructor(message: string, status?: number, wpCode?: string) {
    super('wordpress', message, status);
    this.name = 'WordPressError';
    this.wpCode = wpCode;
  }

  override details() {
    return { ...super.details(), wordpress_code: this.wpCode ?? null };
  }
}

/** A post, page or other REST resource: its collection's REST base and its id. */
export interface WpRef {
  kind: string;
  id: number;
}

/** The edit-context representation of a post or page, as far as the connector uses it. */
export interface WpItem {
  id: number;
  link: string;
  title: { raw: string };
  content: { raw: string };
  excerpt: { raw: string };
  meta: Record<string, unknown>;
}

const MAX_JSON_BYTES = 10 * 1024 * 1024;
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const API_REL = 'https://api.w.org/';
const RESOURCE_PATH = /\/wp\/v2\/([a-z0-9_-]+)\/(\d+)\/?$/;

export interface WordPressClientOptions {
  baseUrl: string;
  username: string;
  applicationPassword: string;
  /** The SSRF-guarded dispatcher for this user-given host. */
  agent: Dispatcher;
  allowPrivate: PrivateTargets;
}

/**
 * The WordPress REST API with an application password (HTTP Basic). The API root is
 * discovered from the site's `Link: <…>; rel="https://api.w.org/"` header, as WordPress
 * advertises it, so sites without pretty permalinks (`?rest_route=`) work too.
 * Transient failures (429, 502-504, resets) are retried by undici's retry interceptor;
 * every write sets absolute values, so a retried write is harmless.
 */
export function createWordPressClient(options: WordPressClientOptions) {
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.applicationPassword}`).toString('base64')}`;
  const dispatcher = options.agent.compose(
    interceptors.retry({
      maxRetries: 2, minTimeout: 300, maxTimeout: 5000, throwOnError: false,
      methods: ['GET', 'POST'], statusCodes: [429, 502, 503, 504],
    }),
  );
  let apiRoot: Promise<string> | undefined;

  async function send(method: 'GET' | 'POST', url: URL, init: { auth: boolean; body?: unknown; maxBytes: number }) {
    try {
      assertPublicUrl(url, options.allowPrivate);
      const response = await request(url, {
        method,
        dispatcher,
        headers: {
          'user-agent': USER_AGENT,
          accept: 'application/json, text/html;q=0.9',
          ...(init.auth ? { authorization } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > init.maxBytes) {
          response.body.destroy();
          throw new WordPressError(`${url.origin} sent more than ${init.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof WordPressError) throw error;
      const cause = error instanceof Error ? error.message : String(error);
      throw new WordPressError(`${url.origin} could not be reached: ${cause}`);
    }
  }

  /** GET a public page, following at most three redirects (each hop checked by the address guard). */
  async function fetchPublic(pageUrl: string) {
    let url = new URL(pageUrl);
    for (let hop = 0; hop <= 3; hop++) {
      const response = await send('GET', url, { auth: false, maxBytes: MAX_PAGE_BYTES });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
        url = new URL(location, url);
        continue;
      }
      return { ...response, url: url.href };
    }
    throw new WordPressError(`${pageUrl} redirects more than three times`);
  }

  const links = (headers: Record<string, string | string[] | undefined>) => {
    const value = headers.link;
    return LinkHeader.parse(Array.isArray(value) ? value.join(', ') : (value ?? ''));
  };

  function discover(): Promise<string> {
    apiRoot ??= fetchPublic(options.baseUrl).then(
      (page) => {
        const advertised = links(page.headers).rel(API_REL)[0]?.uri;
        return advertised ? new URL(advertised, page.url).href : new URL('/wp-json/', options.baseUrl).href;
      },
      (error: unknown) => {
        apiRoot = undefined; // try again next time
        throw error;
      },
    );
    return apiRoot;
  }

  /** A route under the API root, for both `/wp-json/` and `?rest_route=` roots. */
  function routeUrl(root: string, route: string, query: Record<string, string>) {
    const url = new URL(root);
    if (url.searchParams.has('rest_route')) {
      url.searchParams.set('rest_route', `${url.searchParams.get('rest_route')!.replace(/\/$/, '')}/${route}`);
    } else {
      url.pathname = `${url.pathname.replace(/\/$/, '')}/${route}`;
    }
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url;
  }

  async function call<T>(method: 'GET' | 'POST', route: string, init: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
    const url = routeUrl(await discover(), route, init.query ?? {});
    const response = await send(method, url, { auth: true, body: init.body, maxBytes: MAX_JSON_BYTES });
    let json: unknown;
    try {
      json = JSON.parse(response.text);
    } catch {
      throw new WordPressError(`${method} ${route} answered ${response.status} with a body that is not JSON (is this a WordPress site with its REST API enabled?)`, response.status);
    }
    if (response.status >= 400) {
      const body = json as { code?: unknown; message?: unknown };
      const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
      throw new WordPressError(`WordPress answered ${response.status} to ${method} ${route}: ${message}`, response.status, typeof body.code === 'string' ? body.code : undefined);
    }
    return json as T;
  }

  /** The REST resource behind a public URL: WordPress names it in a Link header on singular pages. */
  function refFromLinks(headers: Record<string, string | string[] | undefined>): WpRef | undefined {
    for (const link of links(headers).rel('alternate')) {
      if (link.type !== 'application/json') continue;
      const url = new URL(link.uri, options.baseUrl);
      const match = RESOURCE_PATH.exec(url.searchParams.get('rest_route') ?? url.pathname);
      if (match) return { kind: match[1]!, id: Number(match[2]) };
    }
    return undefined;
  }

  const sameUrl = (a: string, b: string) => {
    const clean = (u: string) => {
      const url = new URL(u);
      return `${url.host}${url.pathname.replace(/\/$/, '')}${url.search}`;
    };
    return clean(a) === clean(b);
  };

  return {
    /** The API index: its namespaces tell which plugins expose routes. */
    index: () => call<{ name?: string; namespaces?: string[] }>('GET', ''),
    /** Checks the credentials: the user behind the application password. */
    me: () => call<{ id: number; name: string; capabilities?: Record<string, boolean> }>('GET', 'wp/v2/users/me', { query: { context: 'edit' } }),

    /** The live page (public, unauthenticated) and the REST resource that produces it, if any. */
    async locate(pageUrl: string): Promise<{ ref: WpRef | undefined; html: string; status: number }> {
      const page = await fetchPublic(pageUrl);
      const byLink = refFromLinks(page.headers);
      if (byLink) return { ref: byLink, html: page.text, status: page.status };
      // Older sites: by slug (the last path segment), matched on the exact permalink.
      const url = new URL(pageUrl);
      const id = url.searchParams.get('page_id') ?? url.searchParams.get('p');
      if (id && /^\d+$/.test(id)) return { ref: { kind: url.searchParams.has('page_id') ? 'pages' : 'posts', id: Number(id) }, html: page.text, status: page.status };
      const slug = url.pathname.split('/').filter(Boolean).at(-1);
      if (slug) {
        for (const kind of ['pages', 'posts']) {
          const found = await call<WpItem[]>('GET', `wp/v2/${kind}`, { query: { slug: decodeURIComponent(slug), context: 'edit' } });
          const item = found.find((candidate) => sameUrl(candidate.link, pageUrl));
          if (item) return { ref: { kind, id: item.id }, html: page.text, status: page.status };
        }
      }
      return { ref: undefined, html: page.text, status: page.status };
    },

    /** A public page's HTML (no credentials sent). */
    page: async (pageUrl: string) => (await fetchPublic(pageUrl)).text,

    read: (ref: WpRef) => call<WpItem>('GET', `wp/v2/${ref.kind}/${ref.id}`, { query: { context: 'edit' } }),
    /** WordPress answers an update with the item in edit context: that answer is the read-back. */
    update: (ref: WpRef, fields: Record<string, unknown>) => call<WpItem>('POST', `wp/v2/${ref.kind}/${ref.id}`, { query: { context: 'edit' }, body: fields }),
  };
}

export type WordPressClient = ReturnType<typeof createWordPressClient>;
