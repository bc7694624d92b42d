// A local site of N pages for bench:rendering, in its own process: `node bench/rendering/site.ts <spa|ssr> <pages>`.
// ssr: each page's HTML carries its text and links. spa: every page is the same shell; its module script fetches
// the page's JSON and builds the same text and links in the DOM (what a React or Vue app does). Prints host:port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const [mode = 'spa', count = '300'] = process.argv.slice(2);
const pages = Number(count);
const WORDS = 'coffee roasted farm harvest origin brewing grind water temperature flavour acidity body aroma bean roast batch'.split(' ');

function pageOf(i: number) {
  const words = Array.from({ length: 320 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
  const links = Array.from({ length: 5 }, (_, k) => `/p/${(i * 5 + k + 1) % pages}`);
  return { title: `Page ${i}: notes on ${WORDS[i % WORDS.length]}`, h1: `Notes on ${WORDS[i % WORDS.length]} ${i}`, paragraphs: [words.slice(0, 900), words.slice(900)], links };
}

const ssr = (i: number) => {
  const p = pageOf(i);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.title}</title></head><body><main><h1>${p.h1}</h1>${p.paragraphs.map((t) => `<p>${t}</p>`).join('')}</main>`
    + `<nav>${p.links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</nav></body></html>`;
};
const SHELL = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title><script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>';
const APP = `const i = Number(location.pathname.split('/').pop() || 0);
const p = await (await fetch('/api/p/' + i + '.json')).json();
document.title = p.title;
const root = document.getElementById('root');
root.innerHTML = '<main><h1>' + p.h1 + '</h1>' + p.paragraphs.map((t) => '<p>' + t + '</p>').join('') + '</main><nav>' + p.links.map((h) => '<a href="' + h + '">' + h + '</a>').join(' ') + '</nav>';`;

const server = http.createServer((request, response) => {
  const path = request.url ?? '/';
  const send = (type: string, body: string) => {
    response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  if (path === '/robots.txt') return send('text/plain', 'User-agent: *\nAllow: /\n');
  if (path === '/app.js') return send('text/javascript', APP);
  const api = /^\/api\/p\/(\d+)\.json$/.exec(path);
  if (api) return send('application/json', JSON.stringify(pageOf(Number(api[1]))));
  const page = path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? NaN);
  if (!Number.isInteger(page) || page < 0 || page >= pages) {
    response.writeHead(404);
    return response.end();
  }
  send('text/html; charset=utf-8', mode === 'ssr' ? ssr(page) : SHELL);
});
server.listen(0, '127.0.0.1', () => console.log(`127.0.0.1:${(server.address() as AddressInfo).port}`));
