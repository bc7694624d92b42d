import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A documentation site served the way the Apache httpd manual's site serves its
 * translations: /mod/core.html is the default language, /de/mod/core.html the German one,
 * and the server collapses stacked language prefixes (/de/fr/mod/core.html serves the French
 * page, no redirect). Pages link their translations relatively (../de/mod/core.html), so a
 * crawler that follows them from a translated page meets ever longer URLs: the trap.
 *
 * `read(language, file)` returns a file's bytes (file relative to the language's root, '/'
 * separated, never starting with '/'), or undefined.
 */
export async function startLanguageSite(options: {
  languages: string[];
  defaultLanguage: string;
  read: (language: string, file: string) => Buffer | undefined;
  extraRoutes?: Record<string, { type: string; body: string | Buffer }>;
}) {
  const languages = new Set(options.languages);
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests += 1;
    const url = new URL(request.url ?? '/', 'http://x');
    const extra = options.extraRoutes?.[url.pathname];
    if (extra) {
      response.writeHead(200, { 'content-type': extra.type });
      return void response.end(extra.body);
    }
    const segments = url.pathname.split('/').slice(1).map((s) => decodeURIComponent(s));
    let language = options.defaultLanguage;
    while (segments.length > 1 && languages.has(segments[0]!)) language = segments.shift()!;
    let file = segments.join('/');
    if (file === '' || file.endsWith('/')) file += 'index.html';
    if (file.split('/').includes('..')) file = '';
    const body = file ? options.read(language, file) : undefined;
    if (!body && file && options.read(language, `${file}/index.html`)) {
      // A directory asked for without its slash: redirected, as Apache's mod_dir does.
      response.writeHead(301, { location: `${url.pathname}/` });
      return void response.end();
    }
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/html' });
      return void response.end('<html><body>Not found</body></html>');
    }
    response.writeHead(200, { 'content-type': contentType(file), 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function contentType(file: string): string {
  const ext = path.extname(file).toLowerCase();
  const types: Record<string, string> = {
    '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.png': 'image/png', '.gif': 'image/gif',
    '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.xml': 'application/xml', '.txt': 'text/plain',
  };
  return types[ext] ?? 'application/octet-stream';
}

/**
 * Debian's apache2-doc (manual/<language>/...) as the real site serves it: its links climb
 * one directory more than the site's (../../de/mod/core.html where the site has
 * ../de/mod/core.html), so that one `../` is dropped from links leaving the language's tree.
 */
export function debianApacheManual(root: string) {
  return (language: string, file: string): Buffer | undefined => {
    const full = path.join(root, language, file);
    if (!full.startsWith(path.join(root, language)) || !fs.existsSync(full) || !fs.statSync(full).isFile()) {
      // Images and styles live beside the languages.
      const shared = path.join(root, file);
      return shared.startsWith(root) && fs.existsSync(shared) && fs.statSync(shared).isFile() ? fs.readFileSync(shared) : undefined;
    }
    const bytes = fs.readFileSync(full);
    if (!file.endsWith('.html')) return bytes;
    const depth = file.split('/').length - 1;
    const climb = '../'.repeat(depth + 1);
    const site = '../'.repeat(depth) || './';
    // latin1 round-trips every byte: the pages' own encodings stay untouched.
    return Buffer.from(bytes.toString('latin1').replaceAll(`"${climb}`, `"${site}`), 'latin1');
  };
}
