import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { request } from 'undici';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';
import { until } from '../../test/helpers/wait.ts';
import { startTracing } from '../lib/tracing.ts';
import { tracer } from '../lib/trace-api.ts';
import { createOutboundAgent } from '../lib/safe-http.ts';
import { createTasksRepo } from '../modules/tasks/tasks.repo.ts';

// The process's tracer provider, with spans kept in memory: this file runs in a process of its own.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'tracing-test', exporter, batch: false });

let ctx: TestContext;
let owner: SignedInUser;

before(async () => {
  ctx = await startTestApp({});
  owner = await signUp(ctx);
});
after(async () => {
  await ctx.close();
  await tracing.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry traces', () => {
  it('link the execution of an approved task to the request that approved it', async () => {
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Traced', domain: 'traced.example.org' } })).data.id;
    const target = 'https://traced.example.org/about';
    const taskId = (await createTasksRepo(ctx.database.db).insertProposal({
      siteId, type: 'fix_title_tag', category: 'seo', priority: 'high', title: 'Rewrite the about page title', description: 'd', target,
      configuration: { url: target, after: 'About the traced shop and its people' }, evidence: [{ check_id: 'title_too_short' }],
    }))!;
    const approved = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${taskId}/approve`, token: owner.accessToken });
    assert.equal(approved.statusCode, 200, approved.body);

    const request = await until(async () => spans().find((s) => s.name === 'POST /api/v1/tasks/:task_id/approve'), (s) => s !== undefined, 'the request span');
    assert.equal(request!.kind, SpanKind.SERVER);
    assert.equal(request!.attributes['http.response.status_code'], 200);
    const traceId = request!.spanContext().traceId;
    // Its database queries are its children.
    assert.ok(spans().some((s) => s.name === 'db.query' && parentOf(s) === request!.spanContext().spanId), 'the approval\'s queries under its span');
    // The job it sent, in its transaction: pg-boss's producer span, in the request's trace.
    const sent = spans().find((s) => s.kind === SpanKind.PRODUCER && s.spanContext().traceId === traceId && String(s.attributes['messaging.destination.name']) === 'task.execute');
    assert.ok(sent, `a send of task.execute in the request's trace: ${spans().filter((s) => s.kind === SpanKind.PRODUCER).map((s) => s.name).join(', ')}`);
    // The execution: pg-boss's consumer span, in the same trace or linked to the send.
    const executed = await until(
      async () => spans().find((s) => s.kind === SpanKind.CONSUMER && String(s.attributes['messaging.destination.name']) === 'task.execute'),
      (s) => s !== undefined, 'the execution span', 30_000,
    );
    const linked = executed!.spanContext().traceId === traceId || executed!.links.some((l) => l.context.traceId === traceId && l.context.spanId === sent.spanContext().spanId);
    const describe = (x: ReadableSpan) => `${x.name} ${x.spanContext().traceId}/${x.spanContext().spanId} links ${JSON.stringify(x.links.map((l) => l.context))}`;
    assert.ok(linked, `the execution span continues, or links to, the approving request's trace: request ${traceId}, sent ${describe(sent)}; ${spans().filter((x) => x.kind === SpanKind.CONSUMER).map(describe).join('; ')}`);
  });

  it('mark the span that fetched with what the SSRF guard decided, and make the fetch a span of its own', async () => {
    const agent = createOutboundAgent({ allowPrivate: false, connectionsPerOrigin: 1, timeoutMs: 5000 });
    const fetched = tracer().startSpan('crawl a page');
    await context.with(trace.setSpan(context.active(), fetched), async () => {
      await assert.rejects(request('http://localhost:9/', { dispatcher: agent }), /private|blocked|not public/i);
    });
    fetched.end();
    await agent.close();
    const done = spans().find((s) => s.name === 'crawl a page')!;
    assert.equal(done.attributes['sos.ssrf.verdict'], 'refused');
    assert.match(String(done.attributes['sos.ssrf.address']), /^(127\.0\.0\.1|::1)$/);
    assert.ok(spans().some((s) => s.kind === SpanKind.CLIENT && parentOf(s) === done.spanContext().spanId && /GET/.test(s.name)), 'the fetch itself (undici)');
  });
});
