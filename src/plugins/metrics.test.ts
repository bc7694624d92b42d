import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../test/helpers/fixture-site.ts';
import { until } from '../../test/helpers/wait.ts';
import { isBrief } from '../modules/task-types/index.ts';
import { startMetricsServer } from './metrics-server.ts';

let ctx: TestContext;
let owner: SignedInUser;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
const scrape = async () => (await fetch(`http://127.0.0.1:${ctx.app.metricsPort()}/metrics`)).text();
/** A sample's value, by its name and labels as written ("sos_x{a=\"b\"}"), summed over the series that match; 0 when none. */
function value(text: string, name: string, labels: Record<string, string> = {}) {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const prose = Array.from({ length: 11 }, (_, i) => `Our oak tables are made by hand in our Devon workshop, batch ${i + 1} of the season, and each one is checked twice before it ships.`).join(' ');

before(async () => {
  const links = ['/a', '/b', '/c'].map((p) => `<a href="${p}">Page ${p}</a>`).join(' ');
  site = await startFixtureSite({
    '/': { body: page({ title: 'The metrics fixture shop home page', body: `<h1>Home</h1>${links}<p>Welcome.</p>` }) },
    '/a': { body: page({ title: 'Hi', body: '<h1>A</h1><p>Short.</p>' }) },
    // No description, and prose to draft one from: a proposal the site's connector carries out.
    '/b': { body: `<!doctype html><html lang="en"><head><title>Oak tables made by hand in Devon</title></head><body><h1>Oak tables</h1><p>${prose}</p></body></html>` },
    '/c': { body: page({ title: 'The third page of the metrics fixture shop', body: '<h1>C</h1><img src="/x.png">' }) },
  });
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', METRICS_PORT: '0' });
  owner = await signUp(ctx);
});
after(async () => {
  await ctx.close();
  await site.close();
});

describe('Prometheus metrics', () => {
  it('are served on their own loopback listener, not on the API\'s port', async () => {
    assert.ok((ctx.app.metricsPort() ?? 0) > 0);
    const text = await scrape();
    assert.match(text, /^# HELP sos_http_request_duration_seconds /m);
    assert.ok(value(text, 'sos_nodejs_eventloop_lag_seconds') >= 0 && text.includes('sos_nodejs_eventloop_lag_p99_seconds'), 'event-loop lag');
    assert.ok(value(text, 'sos_process_resident_memory_bytes') > 0, 'process memory');
    assert.match(text, /role="api"/);
    // The pool of a PostgreSQL server (the embedded database has one session, no pool).
    if (ctx.database.kind === 'postgres') assert.equal(value(text, 'sos_db_pool_connections', { state: 'max' }), 10);
    else assert.doesNotMatch(text, /sos_db_pool_connections/);
    const onApi = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    assert.ok(!onApi.body.includes('sos_http_request_duration_seconds'), 'the API never serves them');
    assert.equal((await fetch(`http://127.0.0.1:${ctx.app.metricsPort()}/other`)).status, 404);
    // Off unless METRICS_PORT is set.
    const plain = await startTestApp({}, { database: ctx.database, workJobs: false });
    try {
      assert.equal(plain.app.metricsPort(), undefined);
    } finally {
      await plain.close();
    }
  });

  it('move with an audit and an approval: requests by route, jobs, audits, pages, proposals, connector calls, queues', async () => {
    const before = await scrape();
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Metrics', domain: site.host } })).data.id;
    const audit = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId }, headers: { 'x-request-id': 'metrics-audit-1' } });
    assert.equal(audit.statusCode, 202, audit.body);
    // The request's id travels with the job it sent (its log lines in the worker say it).
    const job = (await ctx.app.jobs.findJobs('audit.run')).find((j) => (j.data as { auditId?: string }).auditId === audit.data.id);
    assert.equal((job?.data as { _requestId?: string })._requestId, 'metrics-audit-1');
    const done = await until(async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data,
      (a) => a.id === audit.data.id && (a.agent_summary !== null || a.status === 'failed'), 'the audit and its agent', 60_000);
    assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 500));
    const queue = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/awaiting-approval?site_id=${siteId}&page_size=100`, token: owner.accessToken })).data;
    assert.ok(queue.total > 0, 'the agent proposed something');
    // One the site's connector carries out (a brief is handed to a person without a connector call).
    const task = queue.items.find((t: { type: string; configuration: unknown }) => !isBrief(t as never));
    assert.ok(task, JSON.stringify(queue.items.map((t: { type: string }) => t.type)));
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${task.id}/approve`, token: owner.accessToken })).statusCode, 200);
    await until(async () => (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${task.id}`, token: owner.accessToken })).data,
      (t) => ['completed', 'failed'].includes(t.status), 'the approved task', 60_000);

    const text = await until(scrape, (t) => value(t, 'sos_job_duration_seconds_count', { queue: 'task.execute' }) > 0, 'the execution job in the metrics');
    const moved = (name: string, labels: Record<string, string> = {}) => value(text, name, labels) - value(before, name, labels);
    assert.equal(moved('sos_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/audits', status_code: '202' }), 1);
    assert.equal(moved('sos_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/tasks/:task_id/approve', status_code: '200' }), 1, 'by route template, not address');
    assert.equal(moved('sos_job_duration_seconds_count', { queue: 'audit.run', outcome: 'completed' }), 1);
    assert.equal(moved('sos_job_duration_seconds_count', { queue: 'agent.plan-from-audit', outcome: 'completed' }), 1);
    assert.equal(moved('sos_job_duration_seconds_count', { queue: 'task.execute', outcome: 'completed' }), 1);
    assert.equal(moved('sos_audit_duration_seconds_count', { outcome: 'completed' }), 1);
    assert.equal(moved('sos_crawl_pages_total'), 4);
    assert.equal(moved('sos_agent_proposals_total', { result: 'proposed' }), queue.total);
    assert.equal(moved('sos_connector_calls_total', { connector: 'manual' }), 1);
    assert.match(text, /^sos_queue_jobs_waiting\{queue="audit\.run",role="api"\} \d+$/m, 'queue depth per queue');
    assert.match(text, /^sos_queue_jobs_active\{queue="task\.execute",role="api"\} \d+$/m);
  });

  it('answer 500, and log why, when they cannot be collected (a queue read that fails)', async () => {
    const errors: unknown[] = [];
    const server = await startMetricsServer({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: () => Promise.reject(new Error('the database is gone')) },
      { host: '127.0.0.1', port: 0 }, { info: () => undefined, error: (obj) => void errors.push(obj) });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      assert.equal(res.status, 500);
      assert.doesNotMatch(await res.text(), /database is gone/, 'the reason stays in the log');
      assert.equal(errors.length, 1);
    } finally {
      await server.close();
    }
  });
});
