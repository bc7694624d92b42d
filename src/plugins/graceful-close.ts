import type { FastifyInstance } from 'fastify';

/**
 * While the server closes, requests already in flight still get their answer, but with
 * `Connection: close`: otherwise a keep-alive client would hold its socket open after the
 * response and server.close() would wait out the keep-alive timeout.
 */
export function closeConnectionsWhenClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
