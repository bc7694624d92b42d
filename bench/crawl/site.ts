// A generated shop-like website of N pages, ~30 KB of realistic HTML each, with robots.txt
// and a sitemap, built on the fly (nothing is held in memory). Run as its own process.
import http from 'node:http';

const pages = Number(process.argv[2] ?? 2000);
const port = Number(process.argv[3] ?? 0);

const WORDS = 'garden kitchen lamp chair table oak linen ceramic bowl vase cotton wool shelf mirror rug basket candle frame clock stool'.split(' ');
const text = (seed: number, words: number) =>
  Array.from({ length: words }, (_, i) => WORDS[(seed * 31 + i * 7 + (i >> 3)) % WORDS.length]).join(' ');
const path = (i: number) => (i === 0 ? '/' : `/p/${i}`);

function page(i: number): string {
  const nav = Array.from({ length: 40 }, (_, k) => `<li><a href="${path(1 + k)}">Category ${k} ${WORDS[k % WORDS.length]}</a></li>`).join('');
  const related = Array.from({ length: 20 }, (_, k) => `<li><a href="${path((i * 7 + k * 13 + 1) % pages)}">Related ${text(i + k, 3)}</a></li>`).join('');
  const footer = Array.from({ length: 30 }, (_, k) => `<a href="${path((k * 97 + 3) % pages)}">Footer link ${k}</a>`).join(' ');
  const images = Array.from({ length: 5 }, (_, k) => `<img src="/img/${(i + k) % 10}.jpg" alt="Photo of ${text(i + k, 4)}" width="600" height="400">`).join('');
  let body = '';
  for (let p = 0; body.length < 22_000; p++) body += `<p>${text(i * 100 + p, 60)}.</p>\n`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Product ${i} ${text(i, 3)} | Example Store</title>
<meta name="description" content="Buy product ${i}: ${text(i, 14)}. Free delivery and returns within thirty days.">
<link rel="canonical" href="http://${host}${path(i)}"><link rel="stylesheet" href="/assets/site.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Product ${i}","sku":"SKU-${i}"}</script>
<style>${'.c{color:#333}'.repeat(150)}</style></head>
<body><header><nav><ul>${nav}</ul></nav></header>
<main><h1>Product ${i}: ${text(i, 4)}</h1><div class="gallery">${images}</div>
<h2>Description</h2>${body}<h2>Related products</h2><ul>${related}</ul></main>
<footer>${footer}<p>© Example Store</p></footer></body></html>`;
}

let host = '';
const server = http.createServer((request, response) => {
  const url = request.url ?? '/';
  const match = url === '/' ? 0 : /^\/p\/(\d+)$/.exec(url)?.[1];
  const send = (status: number, type: string, body: string | Buffer) => {
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  if (url === '/robots.txt') return send(200, 'text/plain', `User-agent: *\nAllow: /\nSitemap: http://${host}/sitemap.xml\n`);
  if (url === '/sitemap.xml') {
    const entries = Array.from({ length: pages }, (_, i) => `<url><loc>http://${host}${path(i)}</loc></url>`).join('');
    return send(200, 'application/xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
  }
  if (url.startsWith('/img/')) return send(200, 'image/jpeg', Buffer.alloc(45_000));
  if (url.startsWith('/assets/')) return send(200, 'text/css', 'body{margin:0}');
  if (match !== undefined && Number(match) < pages) return send(200, 'text/html; charset=utf-8', page(Number(match)));
  send(404, 'text/html', '<html><body>Not found</body></html>');
});
server.listen(port, '127.0.0.1', () => {
  host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  console.log(host);
});
