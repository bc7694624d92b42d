// node bench/agents/articles-site.ts: the 181 news, blog and magazine pages of the shared
// article-extraction benchmark (../shared/benchmarks/article-extraction, 181 publishers)
// served as one site (each page at /a/<id>/, an index page linking them all, each page's
// canonical link pointed at its own address here), audited through the service, and the
// strategy agent's side tasks printed for reading: every alt text drafted or refused, and
// every page with several h1s with the one kept beside the page's headline (its og:title or
// <title>). DUMP=file.json writes them all, with every proposal and refusal.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { call, signUp, startTestApp } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';
import { pagesOf } from '../../src/modules/task-types/index.ts';

const ROOT = path.resolve(process.argv[2] ?? '../shared/benchmarks/article-extraction/html');
const ids = fs.readdirSync(ROOT).filter((f) => f.endsWith('.html.gz')).map((f) => f.slice(0, -'.html.gz'.length)).sort();
const html = (id: string) => zlib.gunzipSync(fs.readFileSync(path.join(ROOT, `${id}.html.gz`))).toString('utf8');

function serve(): Promise<{ origin: string; close: () => void }> {
  let origin = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      const links = ids.map((id) => `<li><a href="/a/${id}/">${id}</a></li>`).join('');
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html lang="en"><head><title>Articles</title></head><body><h1>Articles</h1><ul>${links}</ul></body></html>`);
    }
    const id = /^\/a\/([0-9a-f]{64})\/$/.exec(url.pathname)?.[1];
    if (!id || !ids.includes(id)) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
    // Its own address is its canonical here: the publisher's would make the page "not indexable" and hide its side tasks.
    const page = html(id).replace(/<link\b[^>]*\brel=["']?canonical["']?[^>]*>/gi, `<link rel="canonical" href="${origin}/a/${id}/">`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve({ origin, close: () => void server.close() });
  }));
}

/** The page's headline as its publisher gives it: og:title, else <title>. */
function headline(id: string): string {
  const page = html(id);
  const og = /<meta\b[^>]*property=["']og:title["'][^>]*content=["']([^"']*)["']/i.exec(page) ?? /<meta\b[^>]*content=["']([^"']*)["'][^>]*property=["']og:title["']/i.exec(page);
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(page);
  return (og?.[1] ?? title?.[1] ?? '').replace(/&amp;/g, '&').replace(/&#39;|&#x27;/g, "'").replace(/&quot;/g, '"').trim();
}

const site = await serve();
const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0' });
const owner = await signUp(ctx);
const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Articles', domain: new URL(site.origin).host } })).data.id;
const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId, max_pages: ids.length + 10 } });
await until(
  async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data,
  (a) => a.id === started.data.id && (a.agent_summary !== null || a.status === 'failed'), 'audit', 900_000,
);
const db = ctx.database.db;
const tasks = await db.selectFrom('tasks').select(['type', 'target', 'priority', 'configuration']).where('site_id', '=', siteId).execute();
const rejections = await db.selectFrom('task_rejections').select(['type', 'target', 'reason']).where('site_id', '=', siteId).execute();
const idOf = (url: string) => /\/a\/([0-9a-f]{64})\//.exec(url)?.[1] ?? url;

const alts = tasks.filter((t) => t.type === 'add_image_alt_text').flatMap((t) => pagesOf(t).flatMap((p) => {
  const c = p.configuration as { url: string; images: Array<{ src: string; alt: string }> };
  return c.images.map((image) => ({ page: idOf(c.url), priority: t.priority, src: image.src, alt: image.alt }));
}));
const h1s = tasks.filter((t) => t.type === 'fix_h1').flatMap((t) => pagesOf(t)).map((p) => {
  const c = p.configuration as { url: string; issue: string; before: unknown; after: string };
  return { page: idOf(c.url), issue: c.issue, h1s: c.before, kept: c.after, headline: headline(idOf(c.url)) };
}).filter((h) => h.issue === 'multiple');
const altRefusals = rejections.filter((r) => r.type === 'add_image_alt_text');

console.log(JSON.stringify({
  pages: ids.length,
  alt_tasks: tasks.filter((t) => t.type === 'add_image_alt_text').length,
  alt_drafts: alts.length,
  alt_pages_refused: altRefusals.length,
  alt_high_priority: alts.filter((a) => a.priority === 'high').length,
  several_h1_pages: h1s.length,
}, null, 2));
for (const a of alts) console.log(`ALT\t${a.priority}\t${a.alt}\t${a.src}`);
for (const h of h1s) console.log(`H1\tkept: ${h.kept}\theadline: ${h.headline}\tall: ${JSON.stringify(h.h1s)}`);
if (process.env.DUMP) {
  const proposals = tasks.map((t) => ({ type: t.type, target: idOf(t.target), priority: t.priority, configuration: t.configuration }));
  fs.writeFileSync(process.env.DUMP, JSON.stringify({ alts, altRefusals, h1s, proposals, refusals: rejections.map((r) => ({ ...r, target: idOf(r.target) })) }, null, 2));
}
site.close();
await ctx.close();
process.exit(0);
