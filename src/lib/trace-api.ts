import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * What the service's code calls to trace (the OpenTelemetry API only: no SDK is loaded unless tracing is started, by
 * lib/tracing.ts). Every call is a no-op while tracing is off.
 */
export const tracer = () => trace.getTracer('site-optimization-service');

let started = false;
/** Whether this process traces (the HTTP hooks are added only then: an untraced service pays nothing per request). */
export const tracingStarted = () => started;
export const setTracingStarted = (on: boolean) => void (started = on);

/** Marks the active span (an outbound fetch's) with what the SSRF guard decided about the address it connects to. */
export function recordSsrfVerdict(verdict: 'allowed' | 'refused', address?: string) {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute('sos.ssrf.verdict', verdict);
  if (address) span.setAttribute('sos.ssrf.address', address);
}

/** A database query as a span, made when it has ended (Kysely's log says how long it took), under the caller's span. */
export function recordQuery(sqlText: string, durationMs: number, error?: unknown) {
  if (!started || !trace.getActiveSpan()) return; // a query outside any traced work (a timer's) is not worth a trace of its own
  const span = tracer().startSpan('db.query', {
    kind: SpanKind.CLIENT,
    startTime: Date.now() - durationMs,
    attributes: { 'db.system.name': 'postgresql', 'db.query.text': sqlText.slice(0, 2000) },
  }, context.active());
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}
