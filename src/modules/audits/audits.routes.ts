import type { FastifyInstance } from 'fastify';
import { CsvResponse, sendCsv } from '../../lib/csv-export.ts';
import { exportLimit } from '../../plugins/rate-limits.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Paged } from '../../lib/pagination.ts';
import { Nullable, Uuid } from '../../lib/schema.ts';
import { AuditReportSchema, AuditSchema, IssuePageQuery, IssueParams, StartAuditBody } from './audits.schemas.ts';
import type { AuditsService } from './audits.service.ts';
import { AiAccessSchema } from './ai-access.schemas.ts';
import { RenderingQuery, RenderingReportSchema } from './rendering.schemas.ts';
import { PageSpeedReportSchema } from './page-speed.schemas.ts';

export async function auditsRoutes(app: FastifyInstance, deps: { audits: AuditsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['audits'];

  r.post(
    '/audits',
    { schema: { tags, operationId: 'startAudit', summary: 'Start an audit of a site (or get the one already running)', body: StartAuditBody, response: { 202: AuditSchema } } },
    async (request, reply) => reply.code(202).send(await deps.audits.startAudit(request.actor.sub, request.body)),
  );

  r.get(
    '/audits/site/:site_id/latest',
    { schema: { tags, operationId: 'getLatestAudit', summary: "The site's latest audit with its score and issues by check", params: Type.Object({ site_id: Uuid() }), response: { 200: AuditReportSchema } } },
    (request) => deps.audits.latestReport(request.actor.sub, request.params.site_id),
  );

  r.post(
    '/audits/:audit_id/agent',
    {
      schema: {
        tags,
        operationId: 'retryAuditAgent', summary: "Run the strategy agent again on an audit whose agent run failed (no new crawl); 409 unless it failed",
        params: Type.Object({ audit_id: Uuid() }),
        response: { 202: AuditSchema },
      },
    },
    async (request, reply) => reply.code(202).send(await deps.audits.retryAgent(request.actor.sub, request.params.audit_id)),
  );

  r.get(
    '/audits/:audit_id/ai-access',
    {
      schema: {
        tags, operationId: 'getAuditAiAccess',
        summary: "What each known search and AI crawler may fetch under the site's robots.txt, the site's /llms.txt checked against llmstxt.org, and a drafted llms.txt; 409 while the audit has not completed",
        params: Type.Object({ audit_id: Uuid() }),
        response: { 200: AiAccessSchema },
      },
    },
    (request) => deps.audits.aiAccess(request.actor.sub, request.params.audit_id),
  );

  r.get(
    '/audits/:audit_id/rendering',
    {
      schema: {
        tags, operationId: 'getAuditRendering',
        summary: 'How the audit rendered JavaScript (Chromium): which pages and why, and each rendered page raw against rendered (what only JavaScript shows); 409 while the audit has not completed',
        params: Type.Object({ audit_id: Uuid() }),
        querystring: RenderingQuery,
        response: { 200: RenderingReportSchema },
      },
    },
    (request) => deps.audits.rendering(request.actor.sub, request.params.audit_id, request.query.page ?? 1, request.query.page_size ?? 20),
  );

  r.get(
    '/audits/:audit_id/page-speed',
    {
      schema: {
        tags, operationId: 'getAuditPageSpeed',
        summary: 'Core Web Vitals of an audit: Lighthouse on one page per template (mobile lab: score, LCP, CLS, TBT and what to fix), and the Chrome UX Report (real visits, p75) beside it; 404 when none were measured, 409 while the audit has not completed',
        params: Type.Object({ audit_id: Uuid() }),
        response: { 200: PageSpeedReportSchema },
      },
    },
    (request) => deps.audits.pageSpeed(request.actor.sub, request.params.audit_id),
  );

  r.get(
    '/audits/:audit_id/issues/export',
    {
      onRequest: exportLimit(app, 'issues'),
      schema: {
        tags, operationId: 'exportAuditIssues', summary: "Every issue of an audit (or of one check) as a CSV file: most severe checks first, each affected URL with its value and how to fix it (streamed)",
        params: Type.Object({ audit_id: Uuid() }),
        querystring: Type.Object({ check_id: Type.Optional(IssueParams.properties.check_id) }, { additionalProperties: false }),
        response: { 200: CsvResponse('The issues, a heading row first') },
      },
    },
    async (request, reply) => sendCsv(reply, await deps.audits.exportIssues(request.actor.sub, request.params.audit_id, request.query.check_id)),
  );
  r.get(
    '/audits/:audit_id/issues/:check_id',
    {
      schema: {
        tags,
        operationId: 'listAuditIssues', summary: 'Every affected URL of one check, paged',
        params: IssueParams,
        querystring: IssuePageQuery,
        response: { 200: Paged(Type.Object({ url: Type.String(), value: Nullable(Type.String()) })) },
      },
    },
    (request) =>
      deps.audits.issuePage(request.actor.sub, request.params.audit_id, request.params.check_id, request.query.page ?? 1, request.query.page_size ?? 50),
  );
}
