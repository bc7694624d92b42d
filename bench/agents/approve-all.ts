// node bench/agents/approve-all.ts DIR [DIR...]: serves each directory as a static site,
// audits it through the service, approves every proposal the agent makes, and counts how
// each ends (issue 19: an approved task never fails for the product's own reasons). The
// site has no CMS connector, so every change is handed over as the exact edit to make.
// Example: node bench/agents/approve-all.ts /usr/share/doc/valgrind/html /usr/share/doc/python3-pip/html
// DUMP=file.json writes every proposal (its type, title and configuration: before -> after) for reading as the site's owner.
// `pages:DIR` serves one of the example set's written shops or landing pages (scripts/drafting/pages/<site>) at its own
// addresses, descriptions removed (pages-site.ts): node bench/agents/approve-all.ts pages:scripts/drafting/pages/roastery
import fs from 'node:fs';
import path from 'node:path';
import { call, signUp, startTestApp } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';
import { serveDirectory } from '../static-site.ts';
import { servePages } from './pages-site.ts';

const ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0' });
const owner = await signUp(ctx);
const api = (method: 'GET' | 'POST', url: string, payload?: object) => call(ctx, { method, url, token: owner.accessToken, ...(payload ? { payload } : {}) });

const proposals: Array<{ site: string; type: string; title: string; configuration: unknown }> = [];
// What the agent refused to propose, and why (the owner reads these too: a refusal is a page left for them to write).
const refusals: Array<{ site: string; type: string; target: string; reason: string }> = [];
for (const root of process.argv.slice(2)) {
  const site = root.startsWith('pages:') ? await servePages(path.resolve(root.slice('pages:'.length))) : await serveDirectory(path.resolve(root));
  const siteId = (await api('POST', '/api/v1/sites', { name: root, domain: new URL(site.origin).host })).data.id;
  const started = await api('POST', '/api/v1/audits', { site_id: siteId, max_pages: Number(process.env.MAX_PAGES ?? 3000) });
  await until(async () => (await api('GET', `/api/v1/audits/site/${siteId}/latest`)).data,
    (a) => a.id === started.data.id && (a.agent_summary !== null || a.status === 'failed'), 'audit', 900_000);
  const queue = (await api('GET', `/api/v1/tasks/awaiting-approval?site_id=${siteId}&page_size=100`)).data.items as Array<{ id: string }>;
  for (const task of queue) {
    const { type, title, configuration } = (await api('GET', `/api/v1/tasks/${task.id}`)).data;
    proposals.push({ site: root, type, title, configuration });
  }
  const refused = await ctx.database.db.selectFrom('task_rejections').select(['type', 'target', 'reason']).where('site_id', '=', siteId).execute();
  refusals.push(...refused.map((r) => ({ site: root, type: r.type, target: r.target.replace(site.origin, ''), reason: r.reason })));
  for (const task of queue) await api('POST', `/api/v1/tasks/${task.id}/approve`);
  const all = await until(async () => (await api('GET', `/api/v1/tasks?site_id=${siteId}&page_size=100`)).data.items as Array<{ id: string; type: string; status: string }>,
    (items) => items.every((t) => t.status !== 'queued' && t.status !== 'in_progress'), 'every approved task to end', 900_000);
  const byOutcome = new Map<string, number>();
  for (const t of all) byOutcome.set(`${t.type} ${t.status}`, (byOutcome.get(`${t.type} ${t.status}`) ?? 0) + 1);
  console.log(`\n=== ${root}: ${queue.length} proposals approved`);
  for (const [key, n] of [...byOutcome].sort()) console.log(`  ${n} x ${key}`);
  for (const t of all.filter((x) => x.status === 'failed')) console.log(`  FAILED ${t.type}: ${JSON.stringify((await api('GET', `/api/v1/tasks/${t.id}`)).data.error)}`);
  console.log(`failed: ${all.filter((t) => t.status === 'failed').length} of ${queue.length}`);
  site.close();
}
if (process.env.DUMP) fs.writeFileSync(process.env.DUMP, JSON.stringify({ proposals, refusals }, null, 1));
await ctx.close();
process.exit(0);
