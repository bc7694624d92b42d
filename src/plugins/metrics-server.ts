import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '../lib/metrics.ts';

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * GET /metrics (the Prometheus text format) on a listener of its own: the API's port never serves it, and this one binds
 * to loopback unless METRICS_HOST says otherwise, so the metrics are not public by default. Anything else is a 404.
 */
export async function startMetricsServer(metrics: Pick<Metrics, 'text' | 'contentType'>, options: { host: string; port: number }, log: Log) {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.text().then(
      (body) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body),
      (err: unknown) => {
        log.error({ err }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  log.info({ host: options.host, port }, 'metrics listening (GET /metrics)');
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export type MetricsServer = Awaited<ReturnType<typeof startMetricsServer>>;
