import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { withoutDescriptions } from '../../scripts/drafting/without-descriptions.ts';

/**
 * A site of the drafting example set's written pages (scripts/drafting/pages/<site>: shops and landing pages modelled on Shopify,
 * WooCommerce, Webflow and Squarespace) served as its owner's server serves it: each page at its own address (its canonical's
 * path, else /<file>), its links to the site's own host pointed at this server, its editors' descriptions removed (the agent
 * is asked to write them). For bench/agents/approve-all.ts (`pages:<dir>`), so that the owner's reading covers shops too.
 */
export function servePages(dir: string): Promise<{ origin: string; close: () => void }> {
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/u.exec(html)?.[1];
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html'));
  const home = canonicalOf(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'));
  const host = home ? new URL(home).origin : undefined;
  const pages = new Map<string, string>();
  for (const f of files) {
    const html = fs.readFileSync(path.join(dir, f), 'utf8');
    const canonical = canonicalOf(html);
    pages.set(canonical ? new URL(canonical).pathname : f === 'index.html' ? '/' : `/${f.replace(/\.html$/u, '')}`, withoutDescriptions(html, new Set()));
  }
  let origin = '';
  const server = http.createServer((request, response) => {
    const page = pages.get(new URL(request.url ?? '/', 'http://x').pathname);
    if (page === undefined) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
    const body = Buffer.from(host ? page.split(host).join(origin) : page);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve({ origin, close: () => void server.close() });
  }));
}
