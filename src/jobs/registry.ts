import { Type, type Static, type TSchema } from 'typebox';
import { Uuid } from '../lib/schema.ts';

/** A durable job: its payload schema (checked at send by the compiler, at run time by the queue) and retry policy. */
export interface JobSpec<S extends TSchema = TSchema> {
  payload: S;
  retryLimit: number;
  /** The first retry waits this long (1-2x: pg-boss adds jitter), each next one twice as long (default 1 s). */
  retryDelaySeconds?: number;
  /** Upper bound for one attempt, whatever its heartbeats say. */
  expireInSeconds: number;
  /** Run on this cron schedule (UTC) as well as when sent. */
  cron?: string;
  /**
   * Workers of this queue in one process (a number, or the config key that holds it; default 1).
   * Such queues fetch 4 jobs at a time and again at once while batches come back full.
   */
  concurrency?: number | 'taskWorkers';
  /** A job that fails every attempt moves to `<name>.dead`, worked by the handler's onDead. */
  onDead?: true;
}

const spec = <const J extends JobSpec>(s: J) => s;
const Empty = Type.Object({}, { additionalProperties: false });
const Ids = <K extends string>(...keys: K[]) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Uuid()])) as { [P in K]: ReturnType<typeof Uuid> }, { additionalProperties: false });

/**
 * Every durable job and event of the service, in one place. Modules send by name and the
 * compiler checks the payload; the container binds each name to its handler.
 */
export const JOBS = {
  /** Crawl, check and store an audit. An attempt gets two hours (20,000 pages) before pg-boss retries it. */
  'audit.run': spec({ payload: Ids('auditId'), retryLimit: 2, expireInSeconds: 7200, onDead: true }),
  /** Queues the re-audits that are due. */
  'audit.schedule': spec({ payload: Empty, retryLimit: 1, expireInSeconds: 600, cron: '*/15 * * * *' }),
  /** Event "audit completed" (sent in the transaction that stores the result): the strategy agent plans from it. */
  'agent.plan-from-audit': spec({ payload: Ids('auditId'), retryLimit: 2, expireInSeconds: 3600, onDead: true }),
  /** Event "search data synced": the search-data planner proposes from it. */
  'agent.plan-from-search': spec({ payload: Ids('siteId'), retryLimit: 2, expireInSeconds: 1800 }),
  /** A task may cover up to 50 pages (task-types PAGES_PER_TASK), each a few round trips to the site: 15 minutes an attempt. */
  'task.execute': spec({ payload: Ids('taskId'), retryLimit: 1, expireInSeconds: 900, concurrency: 'taskWorkers', onDead: true }),
  'task.verify': spec({
    payload: Type.Object({ taskId: Uuid(), attempt: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }),
    retryLimit: 2, expireInSeconds: 900, concurrency: 'taskWorkers',
  }),
  'search.sync': spec({ payload: Ids('siteId'), retryLimit: 3, expireInSeconds: 3600 }),
  /** The daily run: queues a sync of every site whose owner has connected Google. */
  'search.sync-all': spec({ payload: Empty, retryLimit: 1, expireInSeconds: 600, cron: '30 5 * * *' }),
  /** Event "Google connected": each of the user's active sites syncs. */
  'search.sync-user': spec({ payload: Ids('userId'), retryLimit: 3, expireInSeconds: 600 }),
  /**
   * Event "a password reset was asked for this e-mail": sent for every request, whether or not
   * the address has an account, so the request is answered the same way in the same time; the
   * handler makes the link (if there is an account) and sends mail.password-reset with it.
   */
  'account.reset-password': spec({
    payload: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false }),
    retryLimit: 2, expireInSeconds: 120,
  }),
  /** E-mails a password-reset link; sent in the transaction that stores the link's hash. The token travels sealed (SECRETS_KEY). */
  'mail.password-reset': spec({
    payload: Type.Object({
      userId: Uuid(),
      resetId: Uuid(),
      token: Type.String({ minLength: 1, maxLength: 1024, description: 'The token, sealed with SECRETS_KEY for this reset' }),
      validMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
    }, { additionalProperties: false }),
    // An SMTP server that is down is retried with backoff for a few minutes; the link lives 30.
    // Retried a minute later, doubling: past a live claim's STALE_CLAIM (send-once.ts), so a worker that died sending is covered.
    retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 120,
  }),
  /** E-mails an invitation's link; sent in the transaction that makes (or, resending, renews) it. The token travels sealed. */
  'mail.invitation': spec({
    payload: Type.Object({
      invitationId: Uuid(),
      token: Type.String({ minLength: 1, maxLength: 1024, description: 'The token, sealed with SECRETS_KEY for this invitation' }),
    }, { additionalProperties: false }),
    // Retried a minute later, doubling: past a live claim's STALE_CLAIM (send-once.ts), so a worker that died sending is covered.
    retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 120,
  }),
  /**
   * One webhook delivery (an event to one endpoint). 6 attempts: retries after about 1-2, 2-4,
   * 4-8, 8-16 and 16-32 minutes, so an endpoint down for up to ~an hour still gets it. A job
   * whose attempts all end without settling the delivery (timed out, worker gone) reaches the
   * dead-letter handler, which marks it failed.
   */
  'webhook.deliver': spec({ payload: Ids('deliveryId'), retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 60, concurrency: 4, onDead: true }),
  /** Event "the service disabled a webhook endpoint" (sent in its transaction): one owner's or admin's e-mail, sent once. */
  'mail.webhook-disabled': spec({ payload: Ids('userId', 'workspaceId', 'webhookId', 'deliveryId'), retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 120 }),
  /** Daily (03:30 UTC): deletes rows past use from the tables that only grow (housekeeping.repo.ts has how long each is kept). */
  'housekeeping.daily': spec({ payload: Empty, retryLimit: 2, expireInSeconds: 900, cron: '30 3 * * *' }),
  /** The daily digest run (07:00 UTC): a mail.digest per member who takes one today (weekly ones on Mondays). */
  'notify.digest': spec({ payload: Empty, retryLimit: 1, expireInSeconds: 600, cron: '0 7 * * *' }),
  /** One member's digest of a workspace for a period (the UTC day it was queued), built when it goes and sent once. */
  'mail.digest': spec({
    payload: Type.Object({ userId: Uuid(), workspaceId: Uuid(), period: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }, { additionalProperties: false }),
    // Retried a minute later, doubling: past a live claim's STALE_CLAIM (send-once.ts), so a worker that died sending is covered.
    retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 120,
  }),
  /** Event "an audit ended" (sent in the transaction that ends it): a mail.alert per member with alerts on, when it found something new. */
  'notify.audit-ended': spec({ payload: Ids('auditId'), retryLimit: 2, expireInSeconds: 300 }),
  /** One member's alert about an audit (new critical issues, the site unreachable). */
  'mail.alert': spec({ payload: Ids('userId', 'workspaceId', 'auditId'), retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 120 }),
  /** Hourly: a report.deliver for each report schedule whose latest settled period has not been queued. */
  'report.schedule': spec({ payload: Empty, retryLimit: 1, expireInSeconds: 600, cron: '20 * * * *' }),
  /** One site's client report for a period, rendered and e-mailed to its schedule's addresses (each once); sendId: sent on request. */
  'report.deliver': spec({
    payload: Type.Object({
      siteId: Uuid(),
      start: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      end: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      sendId: Type.Optional(Uuid()),
    }, { additionalProperties: false }),
    // A PDF takes seconds (20 s at most) and waits its turn behind two others; retried a minute later, doubling, like mail.
    // After the last attempt, a scheduled period is queued again by the next hourly run.
    retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 300, onDead: true,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = Static<(typeof JOBS)[N]['payload']>;
/** Jobs whose last failure reaches a dead-letter handler. */
export type DeadJobName = { [N in JobName]: (typeof JOBS)[N] extends { onDead: true } ? N : never }[JobName];

/** What the container gives the queue: a handler per job (the compiler checks none is missing) and the dead-letter ones. */
export type JobHandlers = { [N in JobName]: (data: JobPayload<N>) => Promise<unknown> };
export type DeadHandlers = { [N in DeadJobName]: (data: JobPayload<N>) => Promise<unknown> };

export const deadQueue = (name: string) => `${name}.dead`;
