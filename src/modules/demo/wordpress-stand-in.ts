import http from 'node:http';
import type { AddressInfo } from 'node:net';

const ROBOTS_TXT = [
  'User-agent: *', 'Disallow: /wp-admin/', 'Allow: /wp-admin/admin-ajax.php', '',
  'User-agent: GPTBot', 'Disallow: /', '',
  'User-agent: CCBot', 'Disallow: /', '',
  'User-agent: Google-Extended', 'Disallow: /', '',
].join('\n');

/**
 * A local stand-in for a WordPress site: public pages rendered the way a default theme
 * does (title with " – Site name", the site's name and tagline as paragraphs in the
 * header, the post title as the h1, a registered SEO meta field printed as the meta
 * description) and the REST API's wire format (discovery Link headers, each its own header
 * line as WordPress 6.1 sends them, /wp-json/ index, wp/v2 posts and pages with
 * context=edit, application-password Basic auth, WordPress error bodies). Only what the
 * connector relies on is imitated; what the real WordPress taught us is in it (see
 * real-wordpress.test.ts).
 */
export interface WpItem {
  id: number;
  type: 'post' | 'page';
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  meta: Record<string, string>;
}

export interface WordPressServerOptions {
  siteName?: string;
  username?: string;
  /** As WordPress shows it once: groups of four separated by spaces. */
  applicationPassword?: string;
  /** Meta keys registered with show_in_rest (the SEO description field is the first). */
  registeredMeta?: string[];
  namespaces?: string[];
  items?: Array<Omit<WpItem, 'id' | 'meta' | 'excerpt'> & Partial<Pick<WpItem, 'meta' | 'excerpt'>>>;
  /** A page id to serve as the front page; otherwise "/" is the blog index. */
  frontPage?: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const wpError = (status: number, code: string, message: string) => ({ status, body: { code, message, data: { status } } });

export async function startWordPressServer(options: WordPressServerOptions = {}) {
  const siteName = options.siteName ?? 'Garden Shop';
  const username = options.username ?? 'editor';
  const appPassword = options.applicationPassword ?? 'abcd EFGH 1234 ijkl MNOP 5678';
  // A key no SEO plugin uses, as a site's own registration would be: the connector must find it by its name.
  const registeredMeta = options.registeredMeta ?? ['sos_meta_description'];
  const namespaces = options.namespaces ?? ['oembed/1.0', 'wp/v2', 'wp-site-health/v1'];
  const items = new Map<number, WpItem>();
  let nextId = 10;
  for (const item of options.items ?? []) {
    const id = nextId++;
    items.set(id, { excerpt: '', ...item, id, meta: Object.fromEntries(registeredMeta.map((k) => [k, item.meta?.[k] ?? ''])) });
  }
  const requests: Array<{ method: string; path: string; authorized: boolean; body?: unknown }> = [];
  const faults: Array<{ status: number; method?: string; path?: string }> = [];
  let origin = '';

  const link = (item: WpItem) => (options.frontPage === item.slug ? `${origin}/` : `${origin}/${item.slug}/`);
  const route = (item: WpItem) => `${item.type === 'page' ? 'pages' : 'posts'}/${item.id}`;
  const represent = (item: WpItem, context: 'view' | 'edit') => ({
    id: item.id,
    type: item.type,
    slug: item.slug,
    status: 'publish',
    link: link(item),
    title: context === 'edit' ? { raw: item.title, rendered: escapeHtml(item.title) } : { rendered: escapeHtml(item.title) },
    content: context === 'edit' ? { raw: item.content, rendered: item.content, protected: false } : { rendered: item.content, protected: false },
    excerpt: context === 'edit' ? { raw: item.excerpt, rendered: `<p>${escapeHtml(item.excerpt)}</p>` } : { rendered: `<p>${escapeHtml(item.excerpt)}</p>` },
    meta: { ...item.meta },
  });

  const renderPage = (item: WpItem) => {
    const description = item.meta[registeredMeta[0] ?? ''] ?? '';
    return `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(item.title)} &#8211; ${escapeHtml(siteName)}</title>
${description ? `<meta name="description" content="${escapeHtml(description)}">` : ''}
<link rel="https://api.w.org/" href="${origin}/wp-json/"><link rel="alternate" title="JSON" type="application/json" href="${origin}/wp-json/wp/v2/${route(item)}">
<link rel="canonical" href="${link(item)}"></head><body><header id="masthead"><p class="site-title"><a href="${origin}/">${escapeHtml(siteName)}</a></p>
<p class="site-description">Plants and advice from our nursery in the south of England</p></header>
<main id="main"><article><h1 class="entry-title">${escapeHtml(item.title)}</h1><div class="entry-content">${item.content}</div></article></main></body></html>`;
  };

  const authorize = (header: string | undefined): 'none' | 'ok' | 'wrong' => {
    if (!header?.startsWith('Basic ')) return 'none';
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    if (user !== username) return 'wrong';
    // WordPress drops everything but letters and digits before comparing.
    const clean = (s: string) => s.replace(/[^a-z\d]/gi, '');
    return clean(rest.join(':')) === clean(appPassword) ? 'ok' : 'wrong';
  };

  function handleRest(method: string, path: string, url: URL, auth: ReturnType<typeof authorize>, body: unknown) {
    // Like WordPress 6.1 over plain HTTP: a wrong user name or application password is
    // treated as no credentials at all (rest_not_logged_in), not reported as such.
    const authed = auth === 'ok';
    if (path === '/' || path === '') {
      return { status: 200, body: { name: siteName, url: origin, home: origin, namespaces, authentication: { 'application-passwords': {} } } };
    }
    if (path === '/wp/v2/users/me') {
      if (!authed) return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
      return { status: 200, body: { id: 2, name: username, slug: username, capabilities: { edit_posts: true, edit_pages: true, edit_published_posts: true, edit_published_pages: true } } };
    }
    const collection = /^\/wp\/v2\/(posts|pages)$/.exec(path);
    const context = url.searchParams.get('context') === 'edit' ? 'edit' : 'view';
    if (context === 'edit' && !authed && (collection || /^\/wp\/v2\/(posts|pages)\/\d+$/.test(path))) {
      return wpError(401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
    }
    if (collection && method === 'GET') {
      const type = collection[1] === 'pages' ? 'page' : 'post';
      const slug = url.searchParams.get('slug');
      const found = [...items.values()].filter((i) => i.type === type && (slug === null || i.slug === slug));
      return { status: 200, body: found.map((i) => represent(i, context)) };
    }
    const single = /^\/wp\/v2\/(posts|pages)\/(\d+)$/.exec(path);
    if (single) {
      const item = items.get(Number(single[2]));
      if (!item || item.type !== (single[1] === 'pages' ? 'page' : 'post')) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
      if (method === 'GET') return { status: 200, body: represent(item, context) };
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        if (!authed) return wpError(401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
        if (body === undefined) return wpError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
        const update = body as Record<string, unknown>;
        const text = (value: unknown) => (typeof value === 'object' && value !== null ? String((value as { raw?: unknown }).raw ?? '') : String(value));
        if ('title' in update) item.title = text(update.title);
        if ('content' in update) item.content = text(update.content);
        if ('excerpt' in update) item.excerpt = text(update.excerpt);
        if (update.meta && typeof update.meta === 'object') {
          // Like WordPress, unregistered meta keys are ignored, not stored.
          for (const [key, value] of Object.entries(update.meta)) if (registeredMeta.includes(key)) item.meta[key] = String(value);
        }
        return { status: 200, body: represent(item, 'edit') };
      }
    }
    return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  const server = http.createServer((request, response) => {
    // A client that goes away mid-body (ECONNRESET while it is read) ends its own request,
    // never this process: an async listener's rejection would be unhandled.
    handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', origin);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const method = request.method ?? 'GET';
    const auth = authorize(request.headers.authorization);
    const restPath = url.pathname.startsWith('/wp-json') ? url.pathname.slice('/wp-json'.length) : url.searchParams.get('rest_route');
    requests.push({ method, path: url.pathname + url.search, authorized: auth === 'ok', ...(body === undefined ? {} : { body }) });
    const send = (status: number, headers: Record<string, string | string[]>, payload: string) => {
      response.writeHead(status, { 'content-length': String(Buffer.byteLength(payload)), link: `<${origin}/wp-json/>; rel="https://api.w.org/"`, ...headers });
      response.end(payload);
    };
    if (restPath !== null) {
      const fault = faults.findIndex((f) => (!f.method || f.method === method) && (!f.path || restPath.replace(/\/$/, '') === f.path));
      if (fault >= 0) {
        const { status } = faults.splice(fault, 1)[0]!;
        return send(status, { 'content-type': 'application/json; charset=UTF-8' }, JSON.stringify(wpError(status, 'internal_server_error', 'There has been a critical error on this website.').body));
      }
      const result = handleRest(method, restPath.replace(/\/$/, '') || '/', url, auth, body);
      return send(result.status, { 'content-type': 'application/json; charset=UTF-8' }, JSON.stringify(result.body));
    }
    // WordPress's own rules, and the opt-out of model training many site owners add (the audit's AI-crawler section shows it).
    if (url.pathname === '/robots.txt') return send(200, { 'content-type': 'text/plain' }, ROBOTS_TXT);
    const slug = url.pathname.replace(/^\/|\/$/g, '');
    const item = [...items.values()].find((i) => (slug === '' ? i.slug === options.frontPage : i.slug === slug));
    if (item) {
      return send(200, {
        'content-type': 'text/html; charset=UTF-8',
        link: [`<${origin}/wp-json/>; rel="https://api.w.org/"`, `<${origin}/wp-json/wp/v2/${route(item)}>; rel="alternate"; type="application/json"`, `<${origin}/?p=${item.id}>; rel=shortlink`],
      }, renderPage(item));
    }
    if (slug === '') {
      const list = [...items.values()].map((i) => `<li><a href="${link(i)}">${escapeHtml(i.title)}</a></li>`).join('');
      return send(200, { 'content-type': 'text/html; charset=UTF-8' },
        `<!DOCTYPE html><html lang="en-US"><head><title>${escapeHtml(siteName)}</title></head><body><h1>${escapeHtml(siteName)}</h1><ul>${list}</ul></body></html>`);
    }
    return send(404, { 'content-type': 'text/html; charset=UTF-8' }, '<!DOCTYPE html><html><head><title>Page not found</title></head><body>Not found</body></html>');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    host: new URL(origin).host,
    username,
    applicationPassword: appPassword,
    requests,
    /** The stored item with this slug (what WordPress's database holds). */
    item: (slug: string) => [...items.values()].find((i) => i.slug === slug),
    /** Changes a stored item behind the connector's back (an editor at work). */
    edit: (slug: string, change: Partial<Omit<WpItem, 'id'>>) => Object.assign([...items.values()].find((i) => i.slug === slug)!, change),
    /** The next REST request (of this method, to this REST path such as /wp/v2/pages/12) answers with this status. */
    failNext: (status: number, method?: string, path?: string) => void faults.push({ status, ...(method ? { method } : {}), ...(path ? { path } : {}) }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WordPressServer = Awaited<ReturnType<typeof startWordPressServer>>;
