import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { validatorCompiler } from './lib/validation.ts';
import { resolveLocalSecret } from './lib/local-secret.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { loggerOptions } from './lib/logger.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createKeywordsService } from './modules/keywords/keywords.service.ts';
import { createJobQueue, type JobQueue, type JobQueueTuning } from './jobs/queue.ts';
import { createAgentsRepo } from './modules/agents/agents.repo.ts';
import { createConnectorsRepo } from './modules/connectors/connectors.repo.ts';
import { connectorsRoutes } from './modules/connectors/connectors.routes.ts';
import { createConnectorsService } from './modules/connectors/connectors.service.ts';
import { createRollbacksRepo } from './modules/rollbacks/rollbacks.repo.ts';
import { createRollbacksService } from './modules/rollbacks/rollbacks.service.ts';
import { createExecutor, EXECUTE_JOB, VERIFY_JOB } from './modules/execution/executor.ts';
import { createVerifier } from './modules/execution/verifier.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { createLlmWriter } from './modules/agents/llm-writer.ts';
import { createSearchPlanner } from './modules/agents/search-planner.ts';
import { createStrategyAgent } from './modules/agents/strategy.ts';
import { createAuditsRepo } from './modules/audits/audits.repo.ts';
import { auditsRoutes } from './modules/audits/audits.routes.ts';
import { AUDIT_JOB, createAuditsService, SCHEDULE_JOB } from './modules/audits/audits.service.ts';
import { createAccessTokens } from './modules/auth/access-tokens.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { browserSessionRoutes } from './modules/auth/browser-session.routes.ts';
import { createAuthService, FAILURE_WINDOW_MS } from './modules/auth/auth.service.ts';
import { memoryFailureCounter, redisFailureCounter } from './modules/auth/login-throttle.ts';
import { createRevocationList } from './modules/auth/revocations.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createGoogleClient } from './modules/integrations/google/google-client.ts';
import { createGoogleRepo } from './modules/integrations/google/google.repo.ts';
import { googleRoutes } from './modules/integrations/google/google.routes.ts';
import { createGoogleService } from './modules/integrations/google/google.service.ts';
import { createSearchSync, SYNC_ALL_JOB, SYNC_JOB } from './modules/integrations/google/search-sync.ts';
import { createSearchDataRepo } from './modules/search-data/search-data.repo.ts';
import { keywordsRoutes } from './modules/keywords/keywords.routes.ts';
import { createSitesRepo } from './modules/sites/sites.repo.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { createSitesService } from './modules/sites/sites.service.ts';
import { createProgressService } from './modules/sites/progress.service.ts';
import { createTasksRepo } from './modules/tasks/tasks.repo.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { createTasksService } from './modules/tasks/tasks.service.ts';
import { createUsersRepo } from './modules/users/users.repo.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { requireAuthentication } from './plugins/authenticate.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { closeConnectionsWhenClosing } from './plugins/graceful-close.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { perUserLimit } from './plugins/rate-limits.ts';
import { webApp } from './plugins/web.ts';

export const VERSION = '0.1.0';
const ONE_MIB = 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface AppOptions {
  config: Config;
  database: Database;
  /** Overrides the logger built from config (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Job queue timings (tests shorten them to see a dead worker's job retried quickly). */
  jobTuning?: JobQueueTuning;
  /** Work jobs in this process (default: JOBS_IN_PROCESS). False: enqueue only, as an API-only instance would. */
  workJobs?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue this instance enqueues to and works from. */
    jobs: JobQueue;
  }
}

/** The whole service as a Fastify instance: what server.ts listens with and what tests inject into. */
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
  });
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  closeConnectionsWhenClosing(app);

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'sos:rate-limit:' } : {}) });
  await registerOpenApi(app, VERSION);

  const db = database.db;
  const usersRepo = createUsersRepo(db);
  const users = createUsersService({ repo: usersRepo });
  const authRepo = createAuthRepo(db);
  const revocations = createRevocationList({ repo: authRepo, log: app.log });
  const auth = createAuthService({
    users,
    repo: authRepo,
    accessTokens: createAccessTokens({
      secret: await resolveLocalSecret({ configured: config.jwtSecret, dataDir: config.dataDir, file: 'jwt-secret', envName: 'JWT_SECRET', log: app.log }),
      ttlSeconds: config.accessTokenTtlSeconds,
    }),
    revocations,
    failures: redis ? redisFailureCounter(redis, FAILURE_WINDOW_MS) : memoryFailureCounter(FAILURE_WINDOW_MS),
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    log: app.log,
  });
  const queue = createJobQueue(database, app.log, jobTuning);
  const sites = createSitesService({
    repo: createSitesRepo(db), allowPrivateTargets: config.allowPrivateTargets,
    onPropertyLinked: (siteId) => queue.send(SYNC_JOB, { siteId }),
  });
  const secrets = createSecretBox(
    await resolveLocalSecret({ configured: config.secretsKey, dataDir: config.dataDir, file: 'secrets-key', envName: 'SECRETS_KEY', log: app.log }),
  );
  const connectors = createConnectorsService({
    repo: createConnectorsRepo(db), sites, secrets, allowPrivateTargets: config.allowPrivateTargets, log: app.log,
  });
  const tasksRepo = createTasksRepo(db);
  const rollbacksRepo = createRollbacksRepo(db);
  const tasks = createTasksService({ repo: tasksRepo, sites, queue, rollbacks: rollbacksRepo });
  const rollbacks = createRollbacksService({ repo: rollbacksRepo, tasks: tasksRepo, connectors, sites, log: app.log });
  const executor = createExecutor({ tasks, connectors, queue, log: app.log });
  const verifier = createVerifier({ tasks, queue, allowPrivateTargets: config.allowPrivateTargets, log: app.log });
  queue.define<{ taskId: string }>({
    name: EXECUTE_JOB, retryLimit: 1, expireInSeconds: 900, concurrency: config.taskWorkers, handler: ({ taskId }) => executor.runTask(taskId),
  });
  queue.define<{ taskId: string; attempt: number }>({
    name: VERIFY_JOB, retryLimit: 2, expireInSeconds: 300, concurrency: config.taskWorkers, handler: ({ taskId, attempt }) => verifier.verify(taskId, attempt),
  });
  app.decorate('jobs', queue);
  const agentsRepo = createAgentsRepo(db);
  const audits = createAuditsService({
    repo: createAuditsRepo(db), sites, queue, allowPrivateTargets: config.allowPrivateTargets, log: app.log,
    onCompleted: (siteId, auditId) => strategy.proposeFromAudit(siteId, auditId),
  });
  const llm = config.llm ? createLlmWriter(config.llm, app.log) : undefined;
  const searchData = createSearchDataRepo(db);
  const strategy = createStrategyAgent({
    audits, tasks, repo: agentsRepo, allowPrivateTargets: config.allowPrivateTargets, llm, log: app.log,
    pageMetrics: (siteId) => searchData.pageMetrics(siteId),
  });
  // An audit may crawl 20,000 pages: an attempt gets two hours before pg-boss retries it.
  queue.define<{ auditId: string }>({
    name: AUDIT_JOB,
    retryLimit: 2,
    expireInSeconds: 7200,
    handler: ({ auditId }) => audits.runAudit(auditId),
    onDead: ({ auditId }) => audits.abandonAudit(auditId),
  });
  queue.define({ name: SCHEDULE_JOB, retryLimit: 1, expireInSeconds: 600, cron: '*/15 * * * *', handler: async () => void (await audits.enqueueDueAudits()) });

  const googleClient = config.google ? createGoogleClient(config.google) : undefined;
  const google = createGoogleService({ config: config.google, publicUrl: config.publicUrl, client: googleClient, repo: createGoogleRepo(db), secrets, log: app.log });
  const searchPlanner = createSearchPlanner({ db, tasks, repo: agentsRepo, log: app.log });
  const searchSync = createSearchSync({
    db, google, client: googleClient, searchData, log: app.log,
    onSynced: (siteId) => searchPlanner.proposeFromSearch(siteId),
  });
  queue.define<{ siteId: string }>({ name: SYNC_JOB, retryLimit: 3, expireInSeconds: 3600, handler: ({ siteId }) => searchSync.syncSite(siteId) });
  queue.define({
    name: SYNC_ALL_JOB, retryLimit: 1, expireInSeconds: 600, cron: '30 5 * * *',
    handler: async () => {
      for (const siteId of await searchSync.sitesToSync()) await queue.send(SYNC_JOB, { siteId });
    },
  });
  /** After connecting Google, each of the user's sites syncs (its property is picked when none is linked). */
  const syncUserSites = async (userId: string) => {
    for (const site of await sites.listSites(userId, { isActive: true }).then((r) => r.items)) await queue.send(SYNC_JOB, { siteId: site.id });
  };

  requireAuthentication(app, { auth, afterAuthentication: perUserLimit(app, config.rateLimitPerMinute) });

  await app.register(healthRoutes, { database, redis });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth, users });
      await api.register(browserSessionRoutes, { auth, refreshTtlSeconds: config.refreshTokenTtlSeconds });
      await api.register(usersRoutes, { users });
      await api.register(agentsRoutes, { users, repo: agentsRepo });
      await api.register(sitesRoutes, { sites, progress: createProgressService({ sites, audits, tasks }) });
      await api.register(auditsRoutes, { audits });
      await api.register(connectorsRoutes, { connectors });
      await api.register(tasksRoutes, { tasks, rollbacks });
      await api.register(analyticsRoutes, { analytics: createAnalyticsService({ db, sites }) });
      await api.register(keywordsRoutes, { keywords: createKeywordsService({ db, sites }) });
      await api.register(googleRoutes, {
        google, onConnected: syncUserSites,
        signIn: async (identity) => auth.issueTokens((await usersRepo.findOrCreateByGoogle(identity)).id),
      });
    },
    { prefix: '/api/v1' },
  );
  await app.register(webApp);

  app.addHook('onReady', async () => {
    if (config.adminEmail && config.adminPassword) {
      await users.ensureBootstrapAdmin(config.adminEmail, config.adminPassword, app.log);
    }
    await revocations.start();
    await queue.start({ work: workJobs });
  });
  app.addHook('onClose', async () => {
    revocations.stop();
    await queue.stop();
    await llm?.close();
    await connectors.closeAll();
    await googleClient?.close();
    await redis?.quit();
  });
  return app;
}
