import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { call, signUp, startTestApp } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';

/**
 * The 181 pages of the shared article-extraction benchmark served as one site (each page at
 * /a/<id>/, an index page linking them all) and audited through the service: what
 * articles-site.ts and drafts.ts read the strategy agent's proposals from.
 */
/** The benchmark's folder: the first argument of the bench, else the shared one beside this checkout. */
export const BENCH_DIR = path.resolve(process.argv[2] ?? '../shared/benchmarks/article-extraction');
const ROOT = path.join(BENCH_DIR, 'html');
export const ids = fs.readdirSync(ROOT).filter((f) => f.endsWith('.html.gz')).map((f) => f.slice(0, -'.html.gz'.length)).sort();
export const raw = (id: string) => zlib.gunzipSync(fs.readFileSync(path.join(ROOT, `${id}.html.gz`))).toString('utf8');
export const idOf = (url: string) => /\/a\/([0-9a-f]{64})\//.exec(url)?.[1] ?? url;

/** Serves each page as `page(id, origin)` returns it, and an index linking them all. */
function serve(page: (id: string, origin: string) => string): Promise<{ origin: string; close: () => void }> {
  let origin = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      const links = ids.map((id) => `<li><a href="/a/${id}/">${id}</a></li>`).join('');
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html lang="en"><head><title>Articles</title><meta name="description" content="An index of the articles of the benchmark, one link for each of its 181 pages."></head><body><h1>Articles</h1><ul>${links}</ul></body></html>`);
    }
    const id = /^\/a\/([0-9a-f]{64})\/$/.exec(url.pathname)?.[1];
    if (!id || !ids.includes(id)) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(id, origin));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve({ origin, close: () => void server.close() });
  }));
}

/** The pages audited as one site until the strategy agent is done; its tasks and refusals, and a close(). */
export async function auditArticles(page: (id: string, origin: string) => string) {
  const site = await serve(page);
  // (A language model, when the environment names one: LLM_BASE_URL=... LLM_MODEL=... npm run bench:drafts measures its summaries.)
  const llm = Object.fromEntries(['LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY'].flatMap((key) => (process.env[key] ? [[key, process.env[key]!]] : [])));
  const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0', ...llm });
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
  return {
    tasks, rejections,
    close: async () => {
      site.close();
      await ctx.close();
    },
  };
}
