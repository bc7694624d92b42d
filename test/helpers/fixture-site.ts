import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureResponse {
  /** Drop the connection without answering (an unreachable page). */
  destroy?: boolean;
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
export type FixtureRoute =
  | FixtureResponse
  | ((request: http.IncomingMessage, hit: number) => FixtureResponse | Promise<FixtureResponse>);

/** A website on loopback, built by a test: path -> response. Unknown paths are 404. */
export async function startFixtureSite(routes: Record<string, FixtureRoute>) {
  const hits: Array<{ path: string; at: number; userAgent: string | undefined }> = [];
  const counts = new Map<string, number>();
  const server = http.createServer(async (request, response) => {
    const path = request.url ?? '/';
    hits.push({ path, at: Date.now(), userAgent: request.headers['user-agent'] });
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const route = routes[path];
    const spec = typeof route === 'function' ? await route(request, counts.get(path)!) : route;
    if (spec?.destroy) return void request.socket.destroy();
    const status = spec?.status ?? (spec ? 200 : 404);
    const body = spec?.body ?? (spec ? '' : '<html><body>Not found</body></html>');
    // Like a real server, say the length (HEAD requests rely on it).
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body), ...spec?.headers });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    hits,
    hitsFor: (path: string) => hits.filter((h) => h.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small valid HTML page; pass what differs. */
export function page(options: { title?: string; description?: string; body?: string; head?: string; lang?: string } = {}) {
  const title = options.title ?? 'A page title that is long enough to pass';
  const description =
    options.description ?? 'A meta description that is long enough to be useful to searchers and short enough to be shown in full.';
  return `<!doctype html><html lang="${options.lang ?? 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<meta name="description" content="${description}">${options.head ?? ''}</head>
<body>${options.body ?? '<h1>Heading</h1><p>Some text.</p>'}</body></html>`;
}
