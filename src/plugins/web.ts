import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PATH_SEGMENT_TOO_LONG, sendProblem } from './errors.ts';

export const WEB_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/**
 * Only this origin's scripts, styles and requests; no plugins, no framing, no <base>
 * tricks. uPlot and Preact set styles through the CSSOM, which style-src does not govern,
 * so no 'unsafe-inline' is needed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const NOT_THE_APP = /^\/(api|docs)(\/|$)/;

/**
 * The web app, served by the same process: Vite's hashed assets are cached for a year
 * (a new build has new names), index.html is revalidated on every load so a deploy shows
 * at once, and any other GET that is not the API is the app's own route (history routing).
 */
export async function webApp(app: FastifyInstance, options: { dist?: string } = {}) {
  const dist = options.dist ?? WEB_DIST;
  const indexFile = path.join(dist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ dist }, 'the web app is not built (npm run build:web): only the API is served');
    return;
  }
  const index = fs.readFileSync(indexFile);
  const etag = `"${createHash('sha256').update(index).digest('base64url').slice(0, 27)}"`;

  await app.register(fastifyStatic, {
    root: path.join(dist, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    // The build writes .br and .gz beside each asset; the client's Accept-Encoding picks one.
    preCompressed: true,
    etag: false,
    lastModified: false,
    cacheControl: false,
    setHeaders: (reply: FastifyReply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  app.get('/*', { config: { public: true }, schema: { hide: true } }, (request, reply) => {
    if (NOT_THE_APP.test(request.url)) {
      // With this catch-all route the router falls back here instead of raising
      // FST_ERR_MAX_PARAM_LENGTH, so an API path with an over-long segment is answered as
      // the framework-error handler would have answered it.
      const maxParamLength = app.initialConfig.maxParamLength ?? 100;
      if (request.url.split('?')[0]!.split('/').some((segment) => segment.length > maxParamLength)) {
        return sendProblem(request, reply, 'uri_too_long', PATH_SEGMENT_TOO_LONG);
      }
      return reply.callNotFound();
    }
    reply
      .header('cache-control', 'no-cache')
      .header('etag', etag)
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(index);
  });
}
