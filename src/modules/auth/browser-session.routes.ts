import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../../lib/problem.ts';
import { createLimit } from '../../plugins/rate-limits.ts';
import { LoginBody } from './auth.schemas.ts';
import type { AuthService, TokenPair } from './auth.service.ts';

/**
 * Sessions for the web app. The access token stays in the page's memory; the refresh token
 * lives in an httpOnly cookie the page's script cannot read, sent only to these paths.
 *
 * CSRF: the cookie is SameSite=Strict, so other sites' pages never send it. Each request
 * must also carry `X-Session-Request: 1`: an HTML form cannot set a header, and a
 * cross-origin script that sets one needs a CORS preflight this service never grants, so
 * even a sibling subdomain (same site, other origin) cannot ride the cookie. When the
 * browser names an Origin it must be this service's own. A double-submit token would add
 * nothing here: no state-changing request is authorised by the cookie alone except
 * refresh, whose answer (the new access token) only a same-origin script can read.
 * The bearer API (/auth/login, /auth/refresh) is unchanged for non-browser clients.
 */
export const SESSION_PATH = '/api/v1/auth/session';
export const SESSION_COOKIE = 'sos_session';
export const SESSION_HEADER = 'x-session-request';
const PER_IP_PER_MINUTE = 60;

const AccessTokenSchema = Type.Object({
  access_token: Type.String({ description: 'JWT to send as `Authorization: Bearer <token>`; keep it in memory' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
});
const sessionHeaders = Type.Object({ [SESSION_HEADER]: Type.Literal('1', { description: 'CSRF guard: must be sent as 1' }) });

/** The session cookie (a refresh token, or '' with maxAge 0 to drop it): httpOnly, SameSite=Strict, only on the session paths. */
export const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
  reply.setCookie(SESSION_COOKIE, value, {
    path: SESSION_PATH, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', maxAge,
  });

export async function browserSessionRoutes(app: FastifyInstance, deps: { auth: AuthService; refreshTtlSeconds: number }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  const sameOrigin = async (request: FastifyRequest) => {
    if (request.headers[SESSION_HEADER] !== '1') {
      throw new ProblemError('forbidden', `Browser sessions need the ${SESSION_HEADER}: 1 header`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
      throw new ProblemError('forbidden', 'This request came from another origin');
    }
  };
  const perIp = (policy: string, key: string, what: string) => createLimit(app, {
    policy, max: PER_IP_PER_MINUTE, windowSeconds: 60, key: (request) => `${key}:${request.ip}`,
    message: `${what} is limited to ${PER_IP_PER_MINUTE} attempts a minute from one address`,
  });
  // The same counters as /auth/login and /auth/refresh: the cookie path is no way around them.
  const loginPerIp = perIp('login', 'login-ip', 'Sign-in');
  const refreshPerIp = perIp('refresh', 'refresh-ip', 'Token refresh');

  const setCookie = setSessionCookie;
  const answer = (request: FastifyRequest, reply: FastifyReply, pair: TokenPair) => {
    setCookie(request, reply, pair.refresh_token, deps.refreshTtlSeconds);
    reply.header('cache-control', 'no-store');
    return { access_token: pair.access_token, token_type: pair.token_type, expires_in: pair.expires_in };
  };

  r.post('/auth/session', {
    config: { public: true },
    onRequest: [sameOrigin, loginPerIp],
    schema: {
      tags: ['auth'], operationId: 'createBrowserSession', summary: 'Web app sign-in: the access token in the body, the refresh token in an httpOnly cookie',
      headers: sessionHeaders, body: LoginBody, response: { 200: AccessTokenSchema },
    },
  }, async (request, reply) => answer(request, reply, await deps.auth.login({ ...request.body, ip: request.ip })));

  r.post('/auth/session/refresh', {
    config: { public: true },
    onRequest: [sameOrigin, refreshPerIp],
    schema: {
      tags: ['auth'], operationId: 'refreshBrowserSession', summary: "Web app: a new access token from the session cookie (which is rotated)",
      headers: sessionHeaders, response: { 200: AccessTokenSchema },
    },
  }, async (request, reply) => {
    const presented = request.cookies[SESSION_COOKIE];
    if (!presented) throw new ProblemError('unauthorized', 'No session: sign in');
    try {
      return answer(request, reply, await deps.auth.refresh(presented));
    } catch (error) {
      // A cookie that no longer works is dropped, so the page stops presenting it. One that lost a
      // race is still the browser's (the winner's successor replaces it), and a database that does
      // not answer (503) or a limit (429) says nothing about the cookie.
      if (error instanceof ProblemError && error.code === 'unauthorized') setCookie(request, reply, '', 0);
      throw error;
    }
  });

  r.delete('/auth/session', {
    onRequest: sameOrigin,
    schema: {
      tags: ['auth'], operationId: 'endBrowserSession', summary: 'Web app sign-out: ends the session and clears its cookie',
      headers: sessionHeaders, response: { 204: Type.Null({ description: 'Signed out' }) },
    },
  }, async (request, reply) => {
    await deps.auth.logout(request.actor, request.cookies[SESSION_COOKIE]);
    setCookie(request, reply, '', 0);
    return reply.code(204).send(null);
  });
}
