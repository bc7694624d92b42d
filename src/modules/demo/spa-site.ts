import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

/**
 * A client-rendered shop built with Preact: every address answers the same empty shell, and the page's text, links,
 * title, description and canonical exist only once its script has run (the article's text comes from a JSON API).
 * The demo audits it to show what only JavaScript shows; the rendering tests audit it in `auto`, `always` and `never`.
 */

interface SpaPage {
  title: string;
  /** Set by the script; absent pages get a drafted one from the agent. */
  description?: string;
  h1: string;
  paragraphs?: string[];
  /** The paragraphs come from this JSON endpoint (what a headless CMS serves). */
  api?: string;
  /** The script adds <meta name="robots" content="noindex">: a directive JavaScript changes. */
  noindex?: boolean;
}

export const SPA_PAGES: Record<string, SpaPage> = {
  '/': {
    title: 'Northwind Roasters: small-batch coffee, roasted every Monday',
    description: 'Single-origin coffee from farms we visit, roasted in small batches every Monday and shipped the same week.',
    h1: 'Coffee roasted every Monday, shipped the same week',
    paragraphs: [
      'Northwind Roasters buys green coffee directly from eleven farms in Ethiopia, Colombia and Guatemala, and roasts it in small batches in our workshop in Leeds every Monday morning.',
      'Every bag carries its roast date and the name of the farm it came from. Orders placed before Sunday night leave the roastery on Tuesday, so the coffee reaches you within a week of roasting, when its flavour is at its best.',
    ],
  },
  '/shop/ethiopia-guji': {
    title: 'Ethiopia Guji Natural, 250 g whole bean | Northwind Roasters',
    h1: 'Ethiopia Guji Natural',
    paragraphs: [
      'Guji Natural is a sun-dried coffee from smallholder farms around Shakiso in southern Ethiopia, grown at 2,000 metres and sorted by hand on raised beds for three weeks.',
      'Roasted light to keep its fruit, it tastes of blueberry, dark chocolate and jasmine, and suits a pour-over or an AeroPress. Each 250 g bag is roasted to order and sent in a resealable valve bag.',
    ],
  },
  '/journal/brewing-at-altitude': {
    title: 'Why water boils cooler in the mountains, and what it does to your coffee',
    h1: 'Brewing coffee at altitude',
    api: '/api/articles/brewing-at-altitude.json',
  },
  '/about': {
    title: 'About Northwind Roasters',
    description: 'A two-person roastery in Leeds, buying green coffee directly from eleven farms since 2017.',
    h1: 'About us',
    paragraphs: [
      'Northwind Roasters is Amira and Tom, who started roasting in a garage in 2017 and moved to a workshop in Leeds two years later. We still visit every farm we buy from, at least once every two years.',
    ],
    noindex: true,
  },
};

export const SPA_ARTICLE = {
  paragraphs: [
    'Water boils at a lower temperature the higher you go: at 2,000 metres it boils at about 93 °C instead of 100 °C, because the air pressing on its surface is lighter.',
    'Coffee brewed with cooler water extracts more slowly, so at altitude a brew tastes thin and sour unless you grind a little finer or let it steep a minute longer. A pressure brewer such as a moka pot avoids the problem by raising the boiling point again.',
    'We tested both fixes with our Guji Natural on a trip to the Alps, and the finer grind won: it kept the fruit without the bitterness that a longer steep brought.',
  ],
};

const NAV = [['/', 'Home'], ['/shop/ethiopia-guji', 'Ethiopia Guji Natural'], ['/journal/brewing-at-altitude', 'Brewing at altitude'], ['/about', 'About']] as const;

/** The shell: what a crawler that runs no script (and the raw HTML audit) sees on every page. */
const shell = (beacon?: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Roasters</title>
${beacon ? `<script>window.BEACON = ${JSON.stringify(beacon)};</script>\n` : ''}<script type="module" src="/assets/app.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
</body>
</html>`;

const APP = `import { h, render } from '/assets/preact.mjs';
const PAGES = ${JSON.stringify(SPA_PAGES)};
const NAV = ${JSON.stringify(NAV)};
function meta(name, content) {
  let tag = document.querySelector('meta[name="' + name + '"]');
  if (!tag) { tag = document.createElement('meta'); tag.name = name; document.head.append(tag); }
  tag.content = content;
}
function canonical(href) {
  const link = document.createElement('link');
  link.rel = 'canonical';
  link.href = href;
  document.head.append(link);
}
async function main() {
  const root = document.getElementById('app');
  const page = PAGES[location.pathname];
  if (!page) {
    document.title = 'Page not found | Northwind Roasters';
    render(h('main', null, h('h1', null, 'Page not found')), root);
    return;
  }
  const paragraphs = page.api ? (await (await fetch(page.api)).json()).paragraphs : page.paragraphs;
  document.title = page.title;
  if (page.description) meta('description', page.description);
  if (page.noindex) meta('robots', 'noindex');
  canonical(location.origin + location.pathname);
  render(h('div', null,
    h('header', null, h('nav', null, NAV.map(([href, text]) => h('a', { href }, text)))),
    h('main', null, h('article', null, h('h1', null, page.h1), paragraphs.map((p) => h('p', null, p)))),
    h('footer', null, h('span', { role: 'link', onClick: () => location.assign('/careers') }, 'Careers at Northwind'), ' · © Northwind Roasters'),
  ), root);
  // A call the page makes to an address of the caller's choosing (window.BEACON): the renderer's guard must refuse it.
  if (window.BEACON) fetch(window.BEACON).catch(() => {});
}
main();
`;

const require = createRequire(import.meta.url);
let preact: string | undefined;
const preactModule = () => (preact ??= readFileSync(require.resolve('preact').replace(/preact\.js$/, 'preact.mjs'), 'utf8'));

/** Serves the shop on loopback. `beacon`: an address the page's script fetches (a private one, in the guard's test). */
export async function startSpaSite(options: { beacon?: string } = {}) {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push(path);
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (path === '/assets/app.js') return send(200, 'text/javascript; charset=utf-8', APP);
    if (path === '/assets/preact.mjs') return send(200, 'text/javascript; charset=utf-8', preactModule());
    if (path === '/api/articles/brewing-at-altitude.json') return send(200, 'application/json', JSON.stringify(SPA_ARTICLE));
    if (path === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
    if (path.startsWith('/api/') || path.startsWith('/assets/') || path === '/favicon.ico' || path === '/sitemap.xml') return send(404, 'text/plain', 'not found');
    // A single-page application: every other address is the shell, the script decides what it shows.
    send(200, 'text/html; charset=utf-8', shell(options.beacon));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
