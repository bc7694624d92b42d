import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { createContainer, type Container } from './container.ts';
import type { Database } from './db/client.ts';
import type { JobQueue, JobQueueTuning } from './jobs/queue.ts';
import { validatorCompiler } from './lib/validation.ts';
import { ProblemError } from './lib/problem.ts';
import { loggerOptions } from './lib/logger.ts';
import { namedRedisStore } from './plugins/rate-limit-store.ts';
import { traceRequests } from './plugins/tracing.ts';
import { runInRequest } from './lib/request-context.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { auditsRoutes } from './modules/audits/audits.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { browserSessionRoutes } from './modules/auth/browser-session.routes.ts';
import { connectorsRoutes } from './modules/connectors/connectors.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { googleRoutes } from './modules/integrations/google/google.routes.ts';
import { keywordsRoutes } from './modules/keywords/keywords.routes.ts';
import { progressRoutes } from './modules/progress/progress.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { rollbacksRoutes } from './modules/rollbacks/rollbacks.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.ts';
import { webhooksRoutes } from './modules/notifications/webhooks.routes.ts';
import { emailNotificationsRoutes } from './modules/notifications/email-notifications.routes.ts';
import { requireAuthentication } from './plugins/authenticate.ts';
import { problemServerOptions, registerErrorHandling } from './plugins/errors.ts';
import { drainConnectionsOnClose } from './plugins/graceful-close.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { perAddressLimit, perUserLimit } from './plugins/rate-limits.ts';
import { webApp } from './plugins/web.ts';
import cookie from '@fastify/cookie';

export const VERSION = '0.1.0';
const ONE_MIB = 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface AppOptions {
  config: Config;
  database: Database;
  /** Overrides the logger built from config (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Job queue timings (tests shorten them to see a dead worker's job retried quickly). */
  jobTuning?: JobQueueTuning | undefined;
  /** Work jobs in this process (default: JOBS_IN_PROCESS). False: enqueue only, as an API-only instance would. */
  workJobs?: boolean | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue this instance enqueues to and works from. */
    jobs: JobQueue;
    /** The container's services (server.ts's demo journey; routes get theirs as plugin options). */
    services: Container['services'];
    /** The metrics listener's port once ready (METRICS_PORT), else undefined. */
    metricsPort: () => number | undefined;
  }
}

/**
 * The HTTP service as a Fastify instance: plugins and routes over the container's services.
 * What server.ts listens with and what tests inject into.
 */
export async function buildApp({ config, database, logger, jobTuning, workJobs = config.jobsInProcess }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    bodyLimit: ONE_MIB,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    // A client's X-Request-Id is kept when it is a sane token, so logs join across services.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // While closing, requests on open connections are served and told to close (graceful-close.ts).
    return503OnClosing: false,
    // Node answers an HTTP/1.1 request without Host with its own bare 400; the hook below answers it as a problem.
    http: { requireHostHeader: false },
    ...problemServerOptions,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      throw new ProblemError('bad_request', 'The request has no Host header, which HTTP/1.1 requires');
    }
  });
  registerErrorHandling(app);
  drainConnectionsOnClose(app);

  const container = await createContainer({ config, database, log: app.log, jobTuning, role: 'api' });
  const { redis, services: s } = container;
  await app.register(rateLimit, { global: false, ...(redis ? { store: namedRedisStore(redis) } : {}) });
  // Cookies for the web app's session: set by its session routes and by the Google sign-in callback.
  await app.register(cookie);
  await registerOpenApi(app, VERSION, config.publicUrl);
  app.decorate('jobs', container.queue);
  app.decorate('services', container.services);
  app.decorate('metricsPort', container.metricsPort);
  // The request's id follows its async work: the jobs it sends carry it (jobs/queue.ts), and their log lines say it.
  app.addHook('onRequest', (request, _reply, done) => runInRequest(request.id, done));
  traceRequests(app);
  // Every request's duration by its route's template (never its address: ids would make a series each); only where the
  // metrics are served (METRICS_PORT), so a service that does not expose them does not pay for them per request.
  if (config.metrics) {
    app.addHook('onResponse', async (request, reply) => {
      container.metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });
  }

  requireAuthentication(app, {
    auth: s.auth,
    afterAuthentication: perUserLimit(app, config.rateLimitPerMinute),
    unauthenticated: perAddressLimit(app, config.rateLimitAnonymousPerMinute),
  });
  await app.register(healthRoutes, { database, redis });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth: s.auth, users: s.users });
      await api.register(browserSessionRoutes, { auth: s.auth, refreshTtlSeconds: config.refreshTokenTtlSeconds });
      await api.register(usersRoutes, { users: s.users });
      await api.register(accountsRoutes, { accounts: s.accounts });
      await api.register(agentsRoutes, { users: s.users, repo: s.agents });
      await api.register(workspacesRoutes, { workspaces: s.workspaces, auth: s.auth, users: s.users });
      await api.register(webhooksRoutes, { webhooks: s.webhooks });
      await api.register(emailNotificationsRoutes, { notifications: s.emailNotifications });
      await api.register(sitesRoutes, { sites: s.sites });
      await api.register(progressRoutes, { progress: s.progress });
      await api.register(auditsRoutes, { audits: s.audits });
      await api.register(connectorsRoutes, { connectors: s.connectors });
      await api.register(tasksRoutes, { tasks: s.tasks });
      await api.register(rollbacksRoutes, { rollbacks: s.rollbacks });
      await api.register(analyticsRoutes, { analytics: s.analytics, performance: s.performance, engagement: s.engagement, segments: s.segments });
      await api.register(keywordsRoutes, { keywords: s.keywords });
      await api.register(reportsRoutes, { reports: s.reports, schedules: s.reportSchedules });
      await api.register(googleRoutes, { google: s.google, auth: s.auth, refreshTtlSeconds: config.refreshTokenTtlSeconds });
    },
    { prefix: '/api/v1' },
  );
  await app.register(webApp);

  app.addHook('onReady', async () => {
    await container.startMetrics();
    if (config.adminEmail && config.adminPassword) {
      await s.users.ensureBootstrapAdmin(config.adminEmail, config.adminPassword, app.log);
    }
    await container.revocations.start();
    await container.startJobs(workJobs);
  });
  app.addHook('onClose', () => container.close());
  return app;
}
