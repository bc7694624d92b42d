import type { Kysely } from 'kysely';
import type { DB, DigestFrequency } from '../../db/types.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { invalid, notFound } from '../../lib/problem.ts';
import { CHECKS, CHECKS_BY_ID } from '../checks/catalogue.ts';
import type { WorkspacesService } from '../workspaces/workspaces.service.ts';
import { UNREACHABLE_PREFIX, type EmailNotificationsRepo, type NotificationKind } from './email-notifications.repo.ts';
import { alertMail, digestMail, type Alert } from './notification-messages.ts';
import type { SendOnce } from './send-once.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

const TITLES_PER_SITE = 3;
const ISSUES_LISTED = 10;
const CRITICAL = CHECKS.filter((c) => c.severity === 'critical').map((c) => c.id);
const MONDAY = 1;

/**
 * Members' e-mail: a digest of what awaits approval (daily, or weekly on Mondays) and alerts
 * when an audit finds new critical issues or a site stops answering. Each message is a job of
 * its own, built when it goes (settings and membership read then); each carries a one-click
 * unsubscribe link.
 */
export function createEmailNotificationsService(deps: {
  repo: EmailNotificationsRepo;
  workspaces: Pick<WorkspacesService, 'requireWorkspace'>;
  queue: JobSender;
  /** Every message goes through it: a retried or duplicated job never e-mails twice. */
  sendOnce: SendOnce;
  tokens: UnsubscribeTokens;
  publicUrl: string;
}) {
  const { repo } = deps;
  const links = (userId: string, workspaceId: string, kind: NotificationKind) => ({
    settingsLink: `${deps.publicUrl}/workspaces`,
    unsubscribeLink: `${deps.publicUrl}/api/v1/notifications/unsubscribe?token=${deps.tokens.sign({ userId, workspaceId, kind })}`,
  });

  /** What an ended audit tells its members, if anything. */
  async function alertOf(auditId: string, trx?: Kysely<DB>) {
    const audit = await repo.auditWithPrevious(auditId, trx);
    if (!audit?.previous) return undefined; // a first audit has nothing to compare with
    const wasUnreachable = audit.previous.status === 'failed' && audit.previous.error?.startsWith(UNREACHABLE_PREFIX);
    let alert: Alert | undefined;
    if (audit.status === 'failed' && audit.error?.startsWith(UNREACHABLE_PREFIX) && !wasUnreachable) {
      alert = { kind: 'unreachable', error: audit.error };
    } else if (audit.status === 'completed' && audit.previous.status === 'completed') {
      const issues = await repo.newIssues(audit.id, audit.previous.id, CRITICAL, trx);
      if (issues.length > 0) {
        alert = { kind: 'critical', total: issues.length, issues: issues.slice(0, ISSUES_LISTED).map((i) => ({ title: CHECKS_BY_ID.get(i.check_id)?.title ?? i.check_id, url: i.url })) };
      }
    }
    return alert && { audit, alert };
  }

  return {
    async getSettings(userId: string, workspaceId: string) {
      await deps.workspaces.requireWorkspace(userId, workspaceId);
      return repo.settings(userId, workspaceId);
    },

    async saveSettings(userId: string, workspaceId: string, change: { digest?: DigestFrequency; alerts?: boolean }) {
      await deps.workspaces.requireWorkspace(userId, workspaceId);
      return repo.save(userId, workspaceId, change);
    },

    /** What an unsubscribe link would turn off; 422 for a token not made here, 404 once its member has left. */
    async describeUnsubscribe(token: string) {
      const u = deps.tokens.verify(token);
      if (!u) throw invalid('/query/token', 'Not an unsubscribe link of this service');
      const member = await repo.recipient(u.userId, u.workspaceId);
      if (!member) throw notFound('Subscription');
      const what = u.kind === 'digest' ? 'the digest of proposals awaiting approval' : 'alerts about new critical issues and unreachable sites';
      return { kind: u.kind, workspace: member.workspace_name, email: member.email, message: `POST to this link to stop ${what} from ${member.workspace_name} to ${member.email}` };
    },

    /** One-click unsubscribe (RFC 8058): that kind of e-mail off for that member and workspace. */
    async unsubscribe(token: string) {
      const described = await this.describeUnsubscribe(token);
      const u = deps.tokens.verify(token)!;
      await repo.save(u.userId, u.workspaceId, u.kind === 'digest' ? { digest: 'off' } : { alerts: false });
      return { ...described, message: `Done: no more ${u.kind === 'digest' ? 'digests' : 'alerts'} from ${described.workspace} to ${described.email}` };
    },

    /**
     * The daily job: a digest job per member who takes one today (weekly ones on Mondays, UTC)
     * where something awaits. The day is the digest's period: run twice, it still sends one.
     */
    async queueDigests(now = new Date()): Promise<number> {
      const frequencies: DigestFrequency[] = now.getUTCDay() === MONDAY ? ['daily', 'weekly'] : ['daily'];
      const period = now.toISOString().slice(0, 10);
      const recipients = await repo.digestRecipients(frequencies);
      for (const r of recipients) await deps.queue.send('mail.digest', { userId: r.user_id, workspaceId: r.workspace_id, period });
      return recipients.length;
    },

    /** One digest, once for its period; nothing when the member left, turned it off, or nothing awaits any more. */
    async sendDigest({ userId, workspaceId, period }: { userId: string; workspaceId: string; period: string }) {
      const member = await repo.recipient(userId, workspaceId);
      if (!member || member.digest === 'off') return false;
      const sites = await repo.awaiting(workspaceId, TITLES_PER_SITE);
      if (sites.length === 0) return false;
      return deps.sendOnce({ kind: 'digest', userId, workspaceId, subjectKey: period }, digestMail({
        to: member.email, name: member.name, workspace: member.workspace_name, frequency: member.digest, sites,
        approvalsLink: `${deps.publicUrl}/approvals`, ...links(userId, workspaceId, 'digest'),
      }));
    },

    /** Event "an audit ended" (sent in the transaction that ends it): an alert job per member with alerts on, when there is something to say. */
    async auditEnded(auditId: string, trx?: Kysely<DB>) {
      const found = await alertOf(auditId, trx);
      if (!found) return 0;
      const recipients = await repo.alertRecipients(found.audit.workspace_id, trx);
      for (const r of recipients) {
        await deps.queue.send('mail.alert', { userId: r.user_id, workspaceId: found.audit.workspace_id, auditId }, trx ? { tx: trx } : {});
      }
      return recipients.length;
    },

    /** One member's alert about an audit, once. */
    async sendAlert({ userId, workspaceId, auditId }: { userId: string; workspaceId: string; auditId: string }) {
      const member = await repo.recipient(userId, workspaceId);
      if (!member?.alerts) return false;
      const found = await alertOf(auditId);
      if (!found || found.audit.workspace_id !== workspaceId) return false;
      return deps.sendOnce({ kind: 'alert', userId, workspaceId, subjectKey: auditId }, alertMail({
        to: member.email, name: member.name, workspace: member.workspace_name, alert: found.alert,
        site: { name: found.audit.site_name, domain: found.audit.domain }, siteLink: `${deps.publicUrl}/sites/${found.audit.site_id}`,
        ...links(userId, workspaceId, 'alerts'),
      }));
    },
  };
}

export type EmailNotificationsService = ReturnType<typeof createEmailNotificationsService>;
