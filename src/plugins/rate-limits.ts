import '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ProblemError } from '../lib/problem.ts';

interface Limit {
  /** Names the quota in the RateLimit-Policy / RateLimit headers (IETF httpapi draft). */
  policy: string;
  max: number;
  windowSeconds: number;
  key: (request: FastifyRequest) => string;
  message: string;
}

/**
 * A counter from @fastify/rate-limit (in memory, or shared through Redis when the plugin
 * was registered with one) that answers with problem+json and the standard headers.
 */
export function createLimit(app: FastifyInstance, limit: Limit) {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator: limit.key });
  const policyHeader = `"${limit.policy}";q=${limit.max};w=${limit.windowSeconds}`;

  return async function enforce(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const result = await check(request);
    if (result.isAllowed) return;
    reply.header('ratelimit-policy', policyHeader);
    reply.header('ratelimit', `"${limit.policy}";r=${result.remaining};t=${result.ttlInSeconds}`);
    if (result.isExceeded) {
      throw new ProblemError('rate_limited', `${limit.message}; retry in ${result.ttlInSeconds} seconds`, {
        headers: { 'retry-after': String(result.ttlInSeconds) },
      });
    }
  };
}

/** The per-user API limit (RATE_LIMIT_PER_MINUTE; 0 turns it off). */
export function perUserLimit(app: FastifyInstance, perMinute: number): onRequestHookHandler | undefined {
  if (perMinute === 0) return undefined;
  return createLimit(app, {
    policy: 'api',
    max: perMinute,
    windowSeconds: 60,
    key: (request) => `user:${request.actor.sub}`,
    message: `This account is limited to ${perMinute} API requests a minute`,
  });
}

/**
 * Requests that carry no valid token (public API routes, failed authentication), per client
 * address (RATE_LIMIT_ANONYMOUS_PER_MINUTE; 0 turns it off). Login and refresh keep their
 * own, tighter per-address limits on top.
 */
export function perAddressLimit(app: FastifyInstance, perMinute: number) {
  if (perMinute === 0) return undefined;
  return createLimit(app, {
    policy: 'anonymous',
    max: perMinute,
    windowSeconds: 60,
    key: (request) => `anon-ip:${request.ip}`,
    message: `Unauthenticated requests are limited to ${perMinute} a minute from one address`,
  });
}

/** Exports a member may start a minute, per kind of export: each reads a whole filtered set, where a page of the list reads 50 rows. */
export const EXPORTS_PER_MINUTE = 30;
/** The per-user limit on one kind of export (its own counter). */
export function exportLimit(app: FastifyInstance, kind: string) {
  return createLimit(app, {
    policy: `export-${kind}`,
    max: EXPORTS_PER_MINUTE,
    windowSeconds: 60,
    key: (request) => `export:${kind}:${request.actor.sub}`,
    message: `An account may start ${EXPORTS_PER_MINUTE} exports of ${kind} a minute`,
  });
}

/** Reports a site may e-mail on request an hour, and an account across its sites: each goes to up to 10 addresses outside the workspace. */
export const REPORT_SENDS_PER_HOUR = { site: 5, account: 20 } as const;
/**
 * The limits on sending a report on request, counted by the route once the caller has passed the admin check (a limit
 * counted before it would let anyone who knows a site's id use up its admins' sends).
 */
export function reportSendLimits(app: FastifyInstance) {
  const perSite = createLimit(app, {
    policy: 'report-send',
    max: REPORT_SENDS_PER_HOUR.site,
    windowSeconds: 3600,
    key: (request) => `report-send:${(request.params as { site_id?: string }).site_id ?? ''}`,
    message: `A site's report may be sent on request ${REPORT_SENDS_PER_HOUR.site} times an hour`,
  });
  const perAccount = createLimit(app, {
    policy: 'report-send-account',
    max: REPORT_SENDS_PER_HOUR.account,
    windowSeconds: 3600,
    key: (request) => `report-send-account:${request.actor.sub}`,
    message: `An account may send reports on request ${REPORT_SENDS_PER_HOUR.account} times an hour`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await perAccount(request, reply);
    await perSite(request, reply);
  };
}
