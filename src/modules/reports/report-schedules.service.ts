import { randomUUID } from 'node:crypto';
import type { Transact } from '../../db/transact.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { ProblemError, notFound } from '../../lib/problem.ts';
import { fileNamePart } from '../../lib/csv-export.ts';
import type { MailAttachment } from '../notifications/mailer.ts';
import type { SendOnce } from '../notifications/send-once.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { PdfRenderer } from './pdf-renderer.ts';
import { dayRange } from './format.ts';
import { reportMail } from './report-mail.ts';
import { reportHtml } from './report-html.ts';
import type { ReportSchedulesRepo } from './report-schedules.repo.ts';
import type { ReportScheduleInputType, ReportScheduleView } from './report-schedules.schemas.ts';
import type { ReportsService } from './reports.service.ts';
import { latestSettledPeriod, nextPeriod, parsePeriodKey, periodKey, previousPeriod, sendDayOf, type ReportPeriod } from './schedule-periods.ts';

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
type Row = NonNullable<Awaited<ReturnType<ReportSchedulesRepo['find']>>>;

/** One delivery: a site's report for a period; `sendId` for one sent on request (its own send, whatever was sent before). */
export interface ReportDelivery { siteId: string; start: string; end: string; sendId?: string | undefined }

/**
 * Client reports e-mailed on a schedule: a site's admins choose weekly or monthly and the addresses; an hourly run queues
 * each period once its days have settled (a job per site and period, sent in the transaction that marks it queued), and
 * the job builds the report with the access of the member who set the schedule, renders it (a PDF where Chromium is
 * installed, else the printable page) and sends it to each address once.
 */
export function createReportSchedulesService(deps: {
  repo: ReportSchedulesRepo;
  sites: Pick<SitesService, 'getSite'>;
  reports: Pick<ReportsService, 'report'>;
  pdf: Pick<PdfRenderer, 'render' | 'available'>;
  sendOnce: SendOnce;
  queue: JobSender;
  transact: Transact;
  log: Log;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = () => deps.now?.() ?? new Date();

  function view(row: Row): ReportScheduleView {
    const last = parsePeriodKey(row.last_sent_period);
    const next = last ? nextPeriod(row.frequency, last) : latestSettledPeriod(row.frequency, now());
    return {
      frequency: row.frequency, recipients: row.recipients, compare: row.compare,
      sender: { id: row.sender_id, email: row.sender_email },
      last_period: last, next_period: next, next_send_on: sendDayOf(next), last_error: row.last_error,
      updated_at: row.updated_at.toISOString(),
    };
  }

  async function requireSchedule(siteId: string) {
    const row = await repo.find(siteId);
    if (!row) throw notFound('Report schedule');
    return row;
  }

  /** The report as the file attached: a PDF where the server has Chromium, else the printable page (any browser prints it). */
  async function attachmentOf(html: string, name: string): Promise<MailAttachment> {
    if (!deps.pdf.available) return { filename: `${name}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html, 'utf8') };
    return { filename: `${name}.pdf`, contentType: 'application/pdf', content: await deps.pdf.render(html) };
  }

  return {
    /** Any member of the site's workspace may see it (404 when there is none). */
    async get(userId: string, siteId: string) {
      await deps.sites.getSite(userId, siteId);
      return view(await requireSchedule(siteId));
    },

    /**
     * Admins: the report leaves the workspace, to addresses they choose. The first report of a new schedule is the next
     * period to settle (one set up on the 10th sends the month's report on the 3rd of the next), never one at once.
     */
    async save(userId: string, siteId: string, input: ReportScheduleInputType) {
      await deps.sites.getSite(userId, siteId, 'admin');
      const recipients = [...new Set(input.recipients.map((r) => r.trim().toLowerCase()))];
      await repo.save(siteId, { frequency: input.frequency, compare: input.compare ?? 'previous', recipients, senderId: userId },
        periodKey(latestSettledPeriod(input.frequency, now())));
      return view(await requireSchedule(siteId));
    },

    async remove(userId: string, siteId: string) {
      await deps.sites.getSite(userId, siteId, 'admin');
      if (!(await repo.remove(siteId))) throw notFound('Report schedule');
    },

    /**
     * Admins: the last settled period's report to the schedule's addresses now (to check it, or resend it). `beforeSend`
     * runs once the caller has passed the admin check: the route counts the request against its limits there, so a
     * refused request uses up nobody's sends.
     */
    async sendNow(userId: string, siteId: string, beforeSend: () => Promise<void> = async () => undefined) {
      await deps.sites.getSite(userId, siteId, 'admin');
      const row = await requireSchedule(siteId);
      await beforeSend();
      const period = latestSettledPeriod(row.frequency, now());
      await deps.queue.send('report.deliver', { siteId, ...period, sendId: randomUUID() });
      return { period, recipients: row.recipients, message: `The report for ${dayRange(period)} is on its way to ${row.recipients.length} address${row.recipients.length === 1 ? '' : 'es'}` };
    },

    /** The hourly run: each schedule whose latest settled period has not been queued gets a delivery job, once. */
    async queueDue(): Promise<number> {
      let queued = 0;
      for (const schedule of await repo.all()) {
        const period = latestSettledPeriod(schedule.frequency, now());
        const key = periodKey(period);
        if (schedule.last_sent_period !== null && schedule.last_sent_period >= key) continue;
        const sent = await deps.transact(async (trx) => {
          if (!(await repo.markQueued(schedule.site_id, schedule.frequency, key, trx))) return false;
          await deps.queue.send('report.deliver', { siteId: schedule.site_id, ...period }, { tx: trx });
          return true;
        });
        if (sent) queued++;
      }
      return queued;
    },

    /** One delivery job: the report built, rendered and sent to each address at most once (a retry skips those sent). */
    async deliver(delivery: ReportDelivery): Promise<number> {
      const row = await repo.find(delivery.siteId);
      if (!row) return 0; // the schedule was deleted after the job was queued
      const period: ReportPeriod = { start: delivery.start, end: delivery.end };
      // The setter's access now, as setting it needs: an admin since demoted, or who left, sends nothing more outside.
      try {
        await deps.sites.getSite(row.sender_id, row.site_id, 'admin');
      } catch (error) {
        if (!(error instanceof ProblemError && (error.code === 'not_found' || error.code === 'forbidden'))) throw error;
        deps.log.warn({ siteId: row.site_id, senderId: row.sender_id }, 'scheduled report not sent: the member who set it can no longer manage the site');
        await repo.setLastError(row.site_id, `Not sent: ${row.sender_email}, who set this schedule, can no longer manage the site. An admin who saves the schedule again takes it over.`);
        return 0;
      }
      const report = await deps.reports.report(row.sender_id, row.site_id, { ...period, compare: row.compare });
      const attachment = await attachmentOf(reportHtml(report), `${fileNamePart(report.site.domain)}-report-${period.start}-to-${period.end}`);
      let sent = 0;
      for (const to of row.recipients) {
        const subjectKey = `${row.site_id}:${periodKey(period)}:${delivery.sendId ?? 'scheduled'}:${to}`;
        const mail = reportMail({ to, report, sender: row.sender_email, frequency: row.frequency, attachment });
        if (await deps.sendOnce({ kind: 'report', userId: row.sender_id, workspaceId: row.workspace_id, subjectKey }, mail)) sent++;
      }
      if (row.last_error !== null) await repo.setLastError(row.site_id, null);
      deps.log.info({ siteId: row.site_id, period: periodKey(period), recipients: row.recipients.length, sent, attachment: attachment.contentType }, 'scheduled report delivered');
      return sent;
    },

    /**
     * A delivery that failed every attempt (the mail server or the renderer down for half an hour): a scheduled period is
     * queued again by the next hourly run, and the schedule says why it is late; each address still gets it once.
     */
    async abandonDelivery(delivery: ReportDelivery) {
      if (delivery.sendId) return; // sent on request: the admin sees it did not arrive and sends again
      const row = await repo.find(delivery.siteId);
      if (!row) return;
      const period = { start: delivery.start, end: delivery.end };
      await repo.requeue(row.site_id, periodKey(period), periodKey(previousPeriod(row.frequency, period)),
        'Not sent yet: the mail server or the PDF renderer failed on every attempt. The next hourly run tries again.');
    },
  };
}

export type ReportSchedulesService = ReturnType<typeof createReportSchedulesService>;
