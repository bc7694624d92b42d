// node bench/agents/real-sites.ts DIR [DIR...]: serves each directory as a static site (like
// a plain web server: index.html for directories, Content-Type by extension, 301 from a
// directory without its slash), audits it through the service, lets the strategy agent
// propose, and prints the figures issue 11 judges drafts by plus drafts to read.
// DUMP_DIR=dir writes every proposal and refusal to dir/<name>.json.
// Example: node bench/agents/real-sites.ts /usr/share/doc/apache2-doc/manual /usr/share/doc/sqlite3 /usr/share/doc/git-doc
import fs from 'node:fs';
import path from 'node:path';
import { call, signUp, startTestApp } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';
import { endsDangling } from '../../src/modules/agents/writers.ts';
import { pagesOf } from '../../src/modules/task-types/index.ts';
import { serveDirectory } from '../static-site.ts';

const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0' });
const owner = await signUp(ctx);
const TEMPLATE_MARKERS = /Available Languages|Apache HTTP Server Version|Modules \| Directives|See also|Copyright|This document refers to|Report a bug|Small\. Fast\. Reliable|git\s*\[--version\]/i;

for (const root of process.argv.slice(2)) {
  const site = await serveDirectory(path.resolve(root));
  const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: root, domain: new URL(site.origin).host } })).data.id;
  const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId, max_pages: Number(process.env.MAX_PAGES ?? 3000) } });
  const audit = await until(
    async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data,
    (a) => a.id === started.data.id && (a.agent_summary !== null || a.status === 'failed'), 'audit', 900_000,
  );
  const tasks = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).execute();
  const rejections = await ctx.database.db.selectFrom('task_rejections').select(['type', 'target', 'reason']).where('site_id', '=', siteId).execute();
  // A task may cover several pages (one problem on many pages): drafts are read page by page.
  const perPage = (list: typeof tasks) => list.flatMap((t) => pagesOf(t));
  const descriptionTasks = tasks.filter((t) => t.type.includes('meta_description'));
  const titleTasks = tasks.filter((t) => t.type === 'fix_title_tag');
  const descriptions = perPage(descriptionTasks);
  const titles = perPage(titleTasks);
  const after = (t: { configuration: unknown }) => String((t.configuration as { after?: unknown }).after ?? '');
  const before = (t: { configuration: unknown }) => String((t.configuration as { before?: unknown }).before ?? '');
  const metaTitle = [...descriptionTasks, ...titleTasks];
  const byType = new Map<string, number>();
  for (const t of tasks) byType.set(t.type, (byType.get(t.type) ?? 0) + 1);
  const reasons = new Map<string, number>();
  for (const r of rejections) reasons.set(`${r.type}: ${r.reason.replace(/https?:\/\/\S+/g, 'URL').slice(0, 110)}`, (reasons.get(`${r.type}: ${r.reason.replace(/https?:\/\/\S+/g, 'URL').slice(0, 110)}`) ?? 0) + 1);
  console.log(`\n=== ${root}: audit ${audit.status}, ${audit.pages_crawled} pages, agent ${JSON.stringify(audit.agent_summary)}, agent time ${((Date.parse(audit.agent_summary?.finished_at) - Date.parse(audit.finished_at)) / 1000).toFixed(1)} s`);
  console.log('proposals by type', Object.fromEntries(byType));
  console.log('pages covered by type', Object.fromEntries([...byType.keys()].map((type) => [type, perPage(tasks.filter((t) => t.type === type)).length])));
  console.log('descriptions', descriptions.length, 'with template text', descriptions.filter((t) => TEMPLATE_MARKERS.test(after(t))).length,
    'with U+FFFD', descriptions.filter((t) => after(t).includes('\uFFFD')).length, 'ending in an ellipsis', descriptions.filter((t) => /(\.\.\.|…)$/.test(after(t))).length);
  for (const t of descriptions.filter((d) => TEMPLATE_MARKERS.test(after(d)))) console.log(`  template? ${t.target.replace(site.origin, '')}: ${after(t)}`);
  console.log('titles', titles.length, 'ending on a dangling word', titles.filter((t) => endsDangling(after(t))).length, 'with U+FFFD', titles.filter((t) => after(t).includes('\uFFFD')).length);
  console.log('high among description/title tasks', metaTitle.filter((t) => t.priority === 'high').length, 'of', metaTitle.length,
    'priorities', JSON.stringify(Object.fromEntries(['critical', 'high', 'medium', 'low'].map((p) => [p, tasks.filter((t) => t.priority === p).length]))));
  console.log('refusals', rejections.length);
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${n} x ${reason}`);
  const sample = (list: typeof tasks, n: number) => list.filter((_, i) => i % Math.max(1, Math.floor(list.length / n)) === 0).slice(0, n);
  console.log('--- descriptions');
  for (const t of sample(descriptions, Number(process.env.SAMPLES ?? 25))) console.log(`${t.priority.padEnd(6)} ${t.target.replace(site.origin, '')}\n   before: ${before(t) || '(none)'}\n   after:  ${after(t)}`);
  console.log('--- titles');
  for (const t of sample(titles, Number(process.env.SAMPLES ?? 25))) console.log(`${t.priority.padEnd(6)} ${t.target.replace(site.origin, '')}: ${before(t)}  ->  ${after(t)}`);
  const others = perPage(tasks.filter((t) => t.type === 'fix_canonical' || t.type === 'expand_thin_content')).slice(0, 6);
  console.log('--- canonical / thin');
  for (const t of others) console.log(`${t.type} ${t.target.replace(site.origin, '')}: ${JSON.stringify(t.configuration).replaceAll(site.origin, '').slice(0, 300)}`);
  if (process.env.DUMP_DIR) {
    // Every proposal page by page and every refusal, for reading all the drafts rather than a sample.
    fs.mkdirSync(process.env.DUMP_DIR, { recursive: true });
    const rel = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(site.origin, ''));
    const dump = {
      audit: rel(audit),
      tasks: tasks.map((t) => rel({ id: t.id, type: t.type, priority: t.priority, title: t.title, description: t.description, target: t.target, configuration: t.configuration, evidence: t.evidence })),
      pages: tasks.flatMap((t) => pagesOf(t).map((p) => rel({ task: t.id, type: t.type, priority: t.priority, target: p.target, before: before(p), after: after(p) }))),
      rejections: rel(rejections),
    };
    fs.writeFileSync(path.join(process.env.DUMP_DIR, `${path.resolve(root).split(path.sep).slice(-2).join("-")}.json`), JSON.stringify(dump, null, 1));
  }
  site.close();
}
await ctx.close();
process.exit(0);
