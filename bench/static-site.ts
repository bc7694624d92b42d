import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.png': 'image/png', '.gif': 'image/gif', '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml', '.txt': 'text/plain', '.xml': 'application/xml',
};

/**
 * A directory served as a plain web server serves it, for benchmarks that audit real sites
 * (Debian's documentation packages): index.html for a directory, a 301 from a directory
 * without its slash, Content-Type by extension, HEAD answered without a body.
 */
export function serveDirectory(root: string): Promise<{ origin: string; close: () => void }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) return void response.writeHead(403).end();
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
      if (!url.pathname.endsWith('/')) return void response.writeHead(301, { location: `${url.pathname}/` }).end();
      file = path.join(file, 'index.html');
    }
    if (!fs.existsSync(file)) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
    const body = fs.readFileSync(file);
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => void server.close() })));
}
