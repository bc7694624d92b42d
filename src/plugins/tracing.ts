import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { tracer, tracingStarted } from '../lib/trace-api.ts';

const SPAN = Symbol('trace span');
type Traced = { [SPAN]?: Span };

/**
 * A SERVER span for every request, made the active context for its hooks and handler (what they query, fetch and send
 * as jobs are its children: pg-boss stores the context on each job, so the job's span is linked to the request that
 * sent it). Named by the route's template, never its address. Added only when this process traces.
 */
export function traceRequests(app: FastifyInstance) {
  if (!tracingStarted()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const span = tracer().startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': request.routeOptions.url ?? '', 'sos.request_id': request.id },
    });
    (request as unknown as Traced)[SPAN] = span;
    // The rest of the request runs inside this call: its async continuations carry the span (AsyncLocalStorage).
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = (request as unknown as Traced)[SPAN];
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
