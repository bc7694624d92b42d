import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { toProblemBody } from './problem.ts';

/**
 * What answers on the service's port while it waits for its database at start: /live says
 * the process runs, /ready and everything else say 503, so an orchestrator starting the
 * database and the service together sees "not ready yet" instead of a refused connection.
 */
export async function startStandbyServer(port: number, host: string): Promise<{ address: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const [status, type, body] =
      path === '/live' ? [200, 'application/json', { status: 'ok' }]
      : path === '/ready' ? [503, 'application/json', { status: 'unavailable', checks: { database: 'waiting' } }]
      : [503, 'application/problem+json', toProblemBody('service_unavailable', 'The service is starting: its database is not reachable yet', path)];
    response.writeHead(status, {
      'content-type': `${type}; charset=utf-8`,
      'x-request-id': randomUUID(),
      'connection': 'close',
      ...(status === 503 ? { 'retry-after': '5' } : {}),
    });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = server.address();
  const address = typeof bound === 'object' && bound ? `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}` : String(bound);
  return {
    address,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
