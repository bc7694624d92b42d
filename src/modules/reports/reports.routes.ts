import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ReportParams, ReportQuery, ReportSchema } from './reports.schemas.ts';
import type { ReportsService } from './reports.service.ts';
import { REPORT_CSP } from './report-html.ts';
import { ReportScheduleInput, ReportScheduleSchema, ReportSendResult } from './report-schedules.schemas.ts';
import type { ReportSchedulesService } from './report-schedules.service.ts';
import { reportSendLimits } from '../../plugins/rate-limits.ts';

const page = (description: string) => ({ description, content: { 'text/html': { schema: Type.String({ description }) } } });
const pdfFile = (description: string) => ({ description, content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description }) } } });

export async function reportsRoutes(app: FastifyInstance, deps: { reports: ReportsService; schedules: ReportSchedulesService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['reports'];
  const schema = { tags, params: ReportParams, querystring: ReportQuery };
  r.get(
    '/sites/:site_id/report',
    {
      schema: {
        ...schema, operationId: 'getSiteReport',
        summary: "A site's client report for a period: traffic against a comparison period, top movers, keywords gained and lost, health score, the audit's top problems, work done and proposals waiting",
        response: { 200: ReportSchema },
      },
    },
    (request) => deps.reports.report(request.actor.sub, request.params.site_id, request.query),
  );
  r.get(
    '/sites/:site_id/report.html',
    {
      schema: {
        ...schema, operationId: 'getSiteReportHtml',
        summary: 'The same report as one self-contained page for print (A4, no app chrome, nothing fetched): any browser saves it as PDF',
        response: { 200: page('The printable report (UTF-8 HTML, inline CSS, no script)') },
      },
    },
    async (request, reply) => {
      const body = await deps.reports.html(request.actor.sub, request.params.site_id, request.query);
      return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', REPORT_CSP)
        .header('x-content-type-options', 'nosniff').header('cache-control', 'no-store').send(body);
    },
  );
  r.get(
    '/sites/:site_id/report.pdf',
    {
      schema: {
        ...schema, operationId: 'getSiteReportPdf',
        summary: "The same report as an A4 PDF rendered by the server's Chromium; 503 where none is installed (print report.html instead) or while two others render",
        response: { 200: pdfFile('The report as a PDF file') },
      },
    },
    async (request, reply) => {
      const pdf = await deps.reports.pdf(request.actor.sub, request.params.site_id, request.query);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .header('cache-control', 'no-store').send(pdf.body);
    },
  );

  const scheduleSchema = { tags, params: ReportParams };
  const sendLimits = reportSendLimits(app);
  r.get(
    '/sites/:site_id/report/schedule',
    {
      schema: {
        ...scheduleSchema, operationId: 'getReportSchedule',
        summary: "The site's report schedule: who gets its report by e-mail, how often, and when the next goes out (404 when none is set)",
        response: { 200: ReportScheduleSchema },
      },
    },
    (request) => deps.schedules.get(request.actor.sub, request.params.site_id),
  );
  r.put(
    '/sites/:site_id/report/schedule',
    {
      schema: {
        ...scheduleSchema, operationId: 'putReportSchedule', body: ReportScheduleInput,
        summary: "Sets the site's report schedule (admins): the report of each week or month, e-mailed once its days have settled to up to 10 addresses, with the PDF attached",
        response: { 200: ReportScheduleSchema },
      },
    },
    (request) => deps.schedules.save(request.actor.sub, request.params.site_id, request.body),
  );
  r.delete(
    '/sites/:site_id/report/schedule',
    {
      schema: {
        ...scheduleSchema, operationId: 'deleteReportSchedule', summary: "Stops the site's scheduled report (admins)",
        response: { 204: Type.Null({ description: 'Stopped' }) },
      },
    },
    async (request, reply) => {
      await deps.schedules.remove(request.actor.sub, request.params.site_id);
      return reply.code(204).send(null);
    },
  );
  r.post(
    '/sites/:site_id/report/schedule/send',
    {
      schema: {
        ...scheduleSchema, operationId: 'sendScheduledReport',
        summary: "Sends the last settled period's report to the schedule's addresses now (admins; 5 an hour a site, 20 an account)",
        response: { 202: ReportSendResult },
      },
    },
    async (request, reply) => reply.code(202).send(await deps.schedules.sendNow(request.actor.sub, request.params.site_id, () => sendLimits(request, reply))),
  );
}
