import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { transactor } from './db/transact.ts';
import { createHousekeeping } from './jobs/housekeeping.ts';
import { createHousekeepingRepo } from './jobs/housekeeping.repo.ts';
import { createJobQueue, retryDelayOf, type JobQueueTuning } from './jobs/queue.ts';
import { createMetrics } from './lib/metrics.ts';
import { startMetricsServer, type MetricsServer } from './plugins/metrics-server.ts';
import { JOBS, type DeadHandlers, type JobHandlers } from './jobs/registry.ts';
import { resolveLocalSecret } from './lib/local-secret.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createAccountsRepo } from './modules/accounts/accounts.repo.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createAgentsRepo } from './modules/agents/agents.repo.ts';
import { createLlmWriter } from './modules/agents/llm-writer.ts';
import { createSearchPlanner } from './modules/agents/search-planner.ts';
import { createStrategyAgent } from './modules/agents/strategy.ts';
import { createAnalyticsRepo } from './modules/analytics/analytics.repo.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createPerformanceRepo } from './modules/analytics/performance.repo.ts';
import { createPerformanceService } from './modules/analytics/performance.service.ts';
import { createEngagementService } from './modules/analytics/engagement.service.ts';
import { createEngagementRepo } from './modules/analytics/engagement.repo.ts';
import { createSegmentsRepo } from './modules/analytics/segments.repo.ts';
import { createSegmentsService } from './modules/analytics/segments.service.ts';
import { createAuditsRepo } from './modules/audits/audits.repo.ts';
import { createAuditsService } from './modules/audits/audits.service.ts';
import { createAccessTokens } from './modules/auth/access-tokens.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { createAuthService, FAILURE_WINDOW_MS } from './modules/auth/auth.service.ts';
import { memoryFailureCounter, redisFailureCounter } from './modules/auth/login-throttle.ts';
import { createRevocationList } from './modules/auth/revocations.ts';
import { createConnectorsRepo } from './modules/connectors/connectors.repo.ts';
import { createConnectorsService } from './modules/connectors/connectors.service.ts';
import { createExecutor } from './modules/execution/executor.ts';
import { createVerifier } from './modules/execution/verifier.ts';
import { createGoogleClient } from './modules/integrations/google/google-client.ts';
import { createCruxClient } from './modules/page-speed/crux-client.ts';
import { createGoogleRepo } from './modules/integrations/google/google.repo.ts';
import { createGoogleService } from './modules/integrations/google/google.service.ts';
import { createSearchSync } from './modules/integrations/google/search-sync.ts';
import { createMailer } from './modules/notifications/mailer.ts';
import { createEmailNotificationsRepo } from './modules/notifications/email-notifications.repo.ts';
import { createEmailNotificationsService } from './modules/notifications/email-notifications.service.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createNotificationSendsRepo } from './modules/notifications/notification-sends.repo.ts';
import { createSendOnce } from './modules/notifications/send-once.ts';
import { createUnsubscribeTokens } from './modules/notifications/unsubscribe-token.ts';
import { createWebhookDeliverer } from './modules/notifications/webhook-delivery.ts';
import { createWebhookDisabledNotice } from './modules/notifications/webhook-disabled-notice.ts';
import { createWebhookOutcomes } from './modules/notifications/webhook-failures.ts';
import { createWebhooksRepo } from './modules/notifications/webhooks.repo.ts';
import { createWebhooksService } from './modules/notifications/webhooks.service.ts';
import { createEvents } from './modules/events/events.service.ts';
import { createKeywordsRepo } from './modules/keywords/keywords.repo.ts';
import { createKeywordsService } from './modules/keywords/keywords.service.ts';
import { createRollbacksRepo } from './modules/rollbacks/rollbacks.repo.ts';
import { createRollbacksService } from './modules/rollbacks/rollbacks.service.ts';
import { createSearchDataRepo } from './modules/search-data/search-data.repo.ts';
import { createSearchDataService } from './modules/search-data/search-data.service.ts';
import { createProgressService } from './modules/progress/progress.service.ts';
import { createPdfRenderer } from './modules/reports/pdf-renderer.ts';
import { createReportsRepo } from './modules/reports/reports.repo.ts';
import { createReportsService } from './modules/reports/reports.service.ts';
import { createReportSchedulesRepo } from './modules/reports/report-schedules.repo.ts';
import { createReportSchedulesService } from './modules/reports/report-schedules.service.ts';
import { createSitesRepo } from './modules/sites/sites.repo.ts';
import { createSitesService } from './modules/sites/sites.service.ts';
import { createTasksRepo } from './modules/tasks/tasks.repo.ts';
import { createAccess } from './modules/workspaces/access.ts';
import { createAccessRepo } from './modules/workspaces/access.repo.ts';
import { createInvitationMailer } from './modules/notifications/invitation-mail.ts';
import { createInvitationsRepo } from './modules/workspaces/invitations.repo.ts';
import { createWorkspacesRepo } from './modules/workspaces/workspaces.repo.ts';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.ts';
import { createTasksService } from './modules/tasks/tasks.service.ts';
import { createUsersRepo } from './modules/users/users.repo.ts';
import { createUsersService } from './modules/users/users.service.ts';

export interface ContainerOptions {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  /** Job queue timings (tests shorten them to see a dead worker's job retried quickly). */
  jobTuning?: JobQueueTuning | undefined;
  /** Which process this is, as the job queue's instance registry names it. */
  role?: 'api' | 'worker' | 'cli';
}

/**
 * The composition root: config and the database in, every service and job handler out. The
 * HTTP app (app.ts), the worker (worker.ts) and the CLI build the same services here; events
 * between modules are durable jobs (jobs/registry.ts), never callbacks.
 */
export async function createContainer({ config, database, log, jobTuning, role }: ContainerOptions) {
  const db = database.db;
  const transact = transactor(db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  // The queue reports each job's outcome to the metrics, which read the queue's depth at scrape time.
  const queue = createJobQueue(database, log, jobTuning, { ...(role ? { instanceName: role } : {}), onJob: (...job) => metrics.job(...job) });
  const metrics = createMetrics({ role: role ?? 'api', queues: queue.stats, pool: database.poolUse, served: config.metrics !== undefined });
  let metricsServer: MetricsServer | undefined;
  const allowPrivateTargets = config.allowPrivateTargets;
  const secretsKey = await resolveLocalSecret({ configured: config.secretsKey, dataDir: config.dataDir, file: 'secrets-key', envName: 'SECRETS_KEY', log });
  const secrets = createSecretBox(secretsKey);

  const users = createUsersService({ repo: createUsersRepo(db) });
  const googleClient = config.google ? createGoogleClient(config.google) : undefined;
  const google = createGoogleService({ config: config.google, publicUrl: config.publicUrl, client: googleClient, repo: createGoogleRepo(db), secrets, queue, log });
  const authRepo = createAuthRepo(db);
  const revocations = createRevocationList({ repo: authRepo, log });
  const auth = createAuthService({
    users,
    google,
    repo: authRepo,
    accessTokens: createAccessTokens({
      secret: await resolveLocalSecret({ configured: config.jwtSecret, dataDir: config.dataDir, file: 'jwt-secret', envName: 'JWT_SECRET', log }),
      ttlSeconds: config.accessTokenTtlSeconds,
    }),
    revocations,
    failures: redis ? redisFailureCounter(redis, FAILURE_WINDOW_MS) : memoryFailureCounter(FAILURE_WINDOW_MS),
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    log,
  });
  const accounts = createAccountsService({ repo: createAccountsRepo(db), users, auth, queue, transact, secrets, log });
  const mailer = createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, log });
  const notifications = createNotificationsService({ users, mailer, secrets, publicUrl: config.publicUrl });
  const invitationsRepo = createInvitationsRepo(db);
  const workspaces = createWorkspacesService({
    repo: createWorkspacesRepo(db), invitations: invitationsRepo, transact, queue, secrets, publicUrl: config.publicUrl,
    signIn: (input) => auth.login(input),
  });
  const invitationMailer = createInvitationMailer({ invitations: invitationsRepo, mailer, secrets, publicUrl: config.publicUrl });
  const sendOnce = createSendOnce({ repo: createNotificationSendsRepo(db), mailer });
  const emailNotificationsRepo = createEmailNotificationsRepo(db);
  const emailNotifications = createEmailNotificationsService({
    repo: emailNotificationsRepo, workspaces, queue, sendOnce, tokens: createUnsubscribeTokens(secretsKey), publicUrl: config.publicUrl,
  });
  const events = createEvents({ queue, publicUrl: config.publicUrl });
  const webhooksRepo = createWebhooksRepo(db);
  const webhooks = createWebhooksService({ repo: webhooksRepo, workspaces, events, secrets, transact, allowPrivateTargets });
  const webhookOutcomes = createWebhookOutcomes({ transact, queue });
  const webhookDisabledNotice = createWebhookDisabledNotice({ webhooks: webhooksRepo, members: emailNotificationsRepo, sendOnce, publicUrl: config.publicUrl });
  const webhookDeliverer = createWebhookDeliverer({
    repo: webhooksRepo, outcomes: webhookOutcomes, secrets, allowPrivateTargets, log,
    maxAttempts: JOBS['webhook.deliver'].retryLimit + 1, retryDelaySeconds: retryDelayOf(JOBS['webhook.deliver'], jobTuning),
  });
  const sites = createSitesService({ repo: createSitesRepo(db), allowPrivateTargets, queue, access: createAccess(createAccessRepo(db)), workspaces });
  const connectors = createConnectorsService({ repo: createConnectorsRepo(db), sites, secrets, allowPrivateTargets, log });
  const searchData = createSearchDataService(createSearchDataRepo(db));
  const tasks = createTasksService({ repo: createTasksRepo(db), sites, queue, transact, events, search: searchData, latestRollback: (taskId) => rollbacks.latestFor(taskId) });
  const rollbacks = createRollbacksService({ repo: createRollbacksRepo(db), tasks, connectors, sites, transact, log });
  const executor = createExecutor({ tasks, connectors, log, metrics });
  const verifier = createVerifier({ tasks, queue, allowPrivateTargets, chromiumPath: config.chromiumPath, log });
  // Field Core Web Vitals (the Chrome UX Report) only with an API key; Lighthouse (lab) wherever Chromium is.
  const crux = config.crux ? createCruxClient(config.crux) : undefined;
  const audits = createAuditsService({
    repo: createAuditsRepo(db), sites, queue, transact, events, allowPrivateTargets, chromiumPath: config.chromiumPath, log, metrics,
    pageSpeed: { maxPages: config.pageSpeedPages, crux },
  });
  const agentsRepo = createAgentsRepo(db);
  const llm = config.llm ? createLlmWriter(config.llm, log) : undefined;
  const keywords = createKeywordsService({ repo: createKeywordsRepo(db), sites });
  const searchPlanner = createSearchPlanner({ search: searchData, keywords, sites, audits, tasks, repo: agentsRepo, log });
  const strategy = createStrategyAgent({
    audits, tasks, sites, repo: agentsRepo, allowPrivateTargets, llm, log, metrics, pageMetrics: (siteId) => searchData.pageMetrics(siteId), searchPlanner,
  });
  const searchSync = createSearchSync({ google, client: googleClient, searchData, sites, queue, log });

  const performance = createPerformanceService({ repo: createPerformanceRepo(db), analytics: createAnalyticsRepo(db), sites });
  // One Chromium for report PDFs, started at the first one and closed with the container.
  const pdf = createPdfRenderer({ executablePath: config.chromiumPath, log });
  const reports = createReportsService({ repo: createReportsRepo(db), sites, workspaces, performance, audits, tasks, pdf });
  const reportSchedules = createReportSchedulesService({ repo: createReportSchedulesRepo(db), sites, reports, pdf, sendOnce, queue, transact, log });

  const housekeeping = createHousekeeping({ repo: createHousekeepingRepo(db), log });

  /** Every job of the registry and what runs it; the compiler refuses a missing one. */
  const handlers: JobHandlers = {
    'audit.run': ({ auditId }) => audits.runAudit(auditId),
    'audit.schedule': () => audits.enqueueDueAudits(),
    'agent.plan-from-audit': ({ auditId }) => strategy.planFromAudit(auditId),
    'agent.plan-from-search': ({ siteId }) => searchPlanner.proposeFromSearch(siteId),
    'task.execute': ({ taskId }) => executor.runTask(taskId),
    'task.verify': ({ taskId, attempt }) => verifier.verify(taskId, attempt),
    'search.sync': ({ siteId }) => searchSync.syncSite(siteId),
    'search.sync-all': () => searchSync.queueAll(),
    'search.sync-user': ({ userId }) => searchSync.queueUserSites(userId),
    'account.reset-password': ({ email }) => accounts.issuePasswordReset(email),
    'mail.password-reset': (event) => notifications.sendPasswordReset(event),
    'mail.invitation': (event) => invitationMailer.send(event),
    'webhook.deliver': ({ deliveryId }) => webhookDeliverer.deliver(deliveryId),
    'housekeeping.daily': () => housekeeping(),
    'notify.digest': () => emailNotifications.queueDigests(),
    'mail.digest': (event) => emailNotifications.sendDigest(event),
    'notify.audit-ended': ({ auditId }) => emailNotifications.auditEnded(auditId),
    'mail.alert': (event) => emailNotifications.sendAlert(event),
    'mail.webhook-disabled': (event) => webhookDisabledNotice(event),
    'report.schedule': () => reportSchedules.queueDue(),
    'report.deliver': (delivery) => reportSchedules.deliver(delivery),
  };
  const deadHandlers: DeadHandlers = {
    'audit.run': ({ auditId }) => audits.abandonAudit(auditId),
    'agent.plan-from-audit': ({ auditId }) => strategy.abandonPlan(auditId),
    'task.execute': ({ taskId }) => executor.abandonTask(taskId),
    'webhook.deliver': ({ deliveryId }) => webhookOutcomes.abandoned(deliveryId),
    'report.deliver': (delivery) => reportSchedules.abandonDelivery(delivery),
  };

  return {
    config,
    database,
    redis,
    queue,
    metrics,
    revocations,
    services: {
      users, auth, accounts, workspaces, webhooks, emailNotifications, sites, connectors, tasks, rollbacks, audits, google, searchData,
      agents: agentsRepo,
      progress: createProgressService({ sites, audits, tasks }),
      analytics: createAnalyticsService({ repo: createAnalyticsRepo(db), sites }),
      performance,
      engagement: createEngagementService({ repo: createEngagementRepo(db), analytics: createAnalyticsRepo(db), sites }),
      segments: createSegmentsService({ repo: createSegmentsRepo(db), analytics: createAnalyticsRepo(db), sites }),
      keywords,
      reports,
      reportSchedules,
    },

    /** Starts the metrics listener when METRICS_PORT is set; its port (0 in the setting: one the system chose). */
    async startMetrics() {
      if (!config.metrics) return undefined;
      metricsServer = await startMetricsServer(metrics, config.metrics, log);
      return metricsServer.port;
    },
    metricsPort: () => metricsServer?.port,

    /** Creates the queues and, with `work`, works every job in this process. */
    startJobs: (work: boolean) =>
      queue.start(work ? { work: true, handlers, deadHandlers, taskWorkers: config.taskWorkers } : { work: false }),

    /** Stops the jobs (finishing those in hand) and closes every outbound connection. */
    async close() {
      await metricsServer?.close();
      revocations.stop();
      await queue.stop();
      await llm?.close();
      await connectors.closeAll();
      await googleClient?.close();
      await crux?.close();
      mailer.close();
      await webhookDeliverer.close();
      await redis?.quit();
      await pdf.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
