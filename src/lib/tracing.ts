import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { setTracingStarted } from './trace-api.ts';

/**
 * OpenTelemetry traces, off unless started (OTEL_EXPORTER_OTLP_ENDPOINT, or a test's in-memory exporter): registers the
 * process's tracer provider (AsyncLocalStorage context, W3C propagation) and the undici instrumentation, so outbound
 * fetches (the crawler's, Google's, WordPress's, webhooks') are spans. HTTP requests (plugins/tracing.ts), database
 * queries (db/client.ts) and the job queue's send and process spans (pg-boss's own, linked through the trace context it
 * stores on each job) use the global API and cost nothing while it is off.
 */
export function startTracing(options: { serviceName: string; endpoint?: string | undefined; exporter?: SpanExporter; batch?: boolean }) {
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: `${options.endpoint!.replace(/\/$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [options.batch === false ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  provider.register();
  setTracingStarted(true);
  const undici = new UndiciInstrumentation();
  undici.setTracerProvider(provider);
  undici.enable();
  return {
    async shutdown() {
      setTracingStarted(false);
      undici.disable();
      await provider.shutdown();
    },
  };
}
