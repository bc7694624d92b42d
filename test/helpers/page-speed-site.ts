import http from 'node:http';
import type net from 'node:net';
import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * A real PNG of noise (it does not compress, so it weighs what a photo does): width x height RGB, made with zlib as
 * the format says (signature, IHDR, IDAT, IEND, each chunk with its CRC-32).
 */
export function noisePng(width: number, height: number): Buffer {
  return encodePng(width, height, crypto.randomBytes((width * 3 + 1) * height));
}

/** Rows of RGB pixels, each led by its filter byte, as a PNG file. */
function encodePng(width: number, height: number, raw: Buffer): Buffer {
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0; // each row's filter byte: none
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, deflate, no filter method, no interlace
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const LEAD = 'Single-origin beans, roasted to order on Mondays and Thursdays.';
const TEXT = 'Our roastery sources green coffee from farms we visit every harvest, roasts it in small batches and ships it within two days. '.repeat(6);

/** A PNG of one flat colour: a few hundred bytes whatever its size (it compresses to nothing). */
export function flatPng(width: number, height: number): Buffer {
  return encodePng(width, height, Buffer.alloc((width * 3 + 1) * height, 0x99));
}

/**
 * A small shop whose home page is slow the ways Lighthouse names: a style sheet that blocks rendering (answered late),
 * a hero photo 1200 px wide shown at 360 and lazy-loaded although it is the largest paint, an image without
 * dimensions that shifts the layout, and a script that keeps the main thread busy. Its other pages are fast.
 * `elsewhere` (an address the guard must refuse) is embedded in the home page as an image and fetched by a script.
 */
export async function startPageSpeedSite(options: { elsewhere?: string } = {}) {
  const heavy = { hero: noisePng(1200, 800), late: noisePng(300, 200) };
  // What a developer hands back after the improve_page_speed brief: light images, sized, the hero loaded first, no blocking CSS.
  const light = { hero: flatPng(760, 506), late: flatPng(300, 200) };
  let fixed = false;
  const hits = new Map<string, number>();
  const page = (title: string, body: string, head = '') =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><meta name="description" content="${title}: coffee roasted in small batches and shipped within two days.">${head}</head><body>${body}</body></html>`;
  const slowHome = () => page('Northwind Roasters', [
        '<header><a href="/">Home</a> <a href="/coffee/ethiopia">Ethiopia</a> <a href="/coffee/colombia">Colombia</a> <a href="/about">About</a></header>',
        '<main><h1>Small-batch coffee, shipped fresh</h1>',
        '<img src="/img/hero.png" alt="Our roastery" loading="lazy" style="width:100%;height:auto">',
        `<p>${LEAD}</p><img src="/img/late.png" alt="A cup"><p>${LEAD}</p></main>`,
        options.elsewhere ? `<img src="${options.elsewhere}/pixel.png" alt="">` : '',
        `<script src="/js/app.js"></script>`,
        options.elsewhere ? `<script>fetch(${JSON.stringify(`${options.elsewhere}/api`)}).catch(() => {});</script>` : '',
      ].join(''), '<link rel="stylesheet" href="/css/site.css">');
  const fastHome = () => page('Northwind Roasters', [
    '<header><a href="/">Home</a> <a href="/coffee/ethiopia">Ethiopia</a> <a href="/coffee/colombia">Colombia</a> <a href="/about">About</a></header>',
    '<main><h1>Small-batch coffee, shipped fresh</h1>',
    '<img src="/img/hero.png" alt="Our roastery" width="760" height="506" fetchpriority="high" style="width:100%;height:auto">',
    `<p>${LEAD}</p><img src="/img/late.png" alt="A cup" width="300" height="200"><p>${LEAD}</p></main>`,
  ].join(''), '<style>body{font-family:sans-serif;margin:0 16px}h1{font-size:28px}</style>');
  const routes: Record<string, { type: string; body: string | Buffer | (() => string | Buffer); delayMs?: number }> = {
    '/': { type: 'text/html; charset=utf-8', body: () => (fixed ? fastHome() : slowHome()) },
    '/coffee/ethiopia': { type: 'text/html; charset=utf-8', body: page('Ethiopia Guji', `<main><h1>Ethiopia Guji</h1><p>${TEXT}</p></main>`) },
    '/coffee/colombia': { type: 'text/html; charset=utf-8', body: page('Colombia Huila', `<main><h1>Colombia Huila</h1><p>${TEXT}</p></main>`) },
    '/about': { type: 'text/html; charset=utf-8', body: page('About us', `<main><h1>About us</h1><p>${TEXT}</p></main>`) },
    '/css/site.css': { type: 'text/css', body: 'body{font-family:sans-serif;margin:0 16px}h1{font-size:28px}', delayMs: 700 },
    '/js/app.js': { type: 'text/javascript', body: 'const end = Date.now() + 400; let n = 0; while (Date.now() < end) n++; document.body.dataset.n = String(n);' },
    '/img/hero.png': { type: 'image/png', body: () => (fixed ? light : heavy).hero },
    '/img/late.png': { type: 'image/png', body: () => (fixed ? light : heavy).late, delayMs: 900 },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const body = typeof route.body === 'function' ? route.body() : route.body;
    setTimeout(() => res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-cache' }).end(body), route.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    hits,
    /** The home page as a developer leaves it after the brief. */
    fix() {
      fixed = true;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
