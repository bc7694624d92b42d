import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ProblemError } from '../lib/problem.ts';
import type { AccessClaims } from '../modules/auth/access-tokens.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every route that is not marked public. */
    actor: AccessClaims;
  }
  interface FastifyContextConfig {
    /** Routes that take no bearer token (login, refresh, health, docs). */
    public?: boolean;
  }
}

const challenge = (error?: string) => ({ 'www-authenticate': error ? `Bearer error="${error}"` : 'Bearer' });

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Every /api route requires a bearer token unless its config says `public: true`. The hook
 * is attached per route when the route is declared, so public routes pay nothing and no
 * route can forget it. The per-user rate limit runs right after, keyed by the caller.
 */
export function requireAuthentication(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    afterAuthentication?: onRequestHookHandler | undefined;
    /** Counts requests without a valid token per address: public API routes and failed authentication. */
    unauthenticated?: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
  },
) {
  app.decorateRequest('actor', null as unknown as AccessClaims);

  const authenticate: onRequestHookHandler = async (request, reply) => {
    const token = bearerToken(request);
    if (!token) {
      await deps.unauthenticated?.(request, reply);
      throw new ProblemError('unauthorized', 'A bearer access token is required', { headers: challenge() });
    }
    const claims = await deps.auth.authenticate(token);
    if (!claims) {
      await deps.unauthenticated?.(request, reply);
      throw new ProblemError('unauthorized', 'The access token is invalid, expired or revoked', {
        headers: challenge('invalid_token'),
      });
    }
    request.actor = claims;
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    if (route.config?.public) {
      const limit = deps.unauthenticated;
      if (limit) route.onRequest = [limit, ...(route.onRequest ? [route.onRequest].flat() : [])];
      route.schema = { ...route.schema, security: [] };
      return;
    }
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [authenticate, ...(deps.afterAuthentication ? [deps.afterAuthentication] : []), ...existing];
    route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
  });
}
