import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DashboardQuery, DashboardSchema, TrendSchema, TrendsQuery } from './analytics.schemas.ts';
import type { AnalyticsService } from './analytics.service.ts';
import { PerformanceExportQuery, PerformanceQuery, PerformanceSchema } from './performance.schemas.ts';
import { CsvResponse, sendCsv } from '../../lib/csv-export.ts';
import { exportLimit } from '../../plugins/rate-limits.ts';
import type { PerformanceService } from './performance.service.ts';
import { EngagementQuery, EngagementSchema, TimelineQuery, TimelineSchema } from './engagement.schemas.ts';
import type { EngagementService } from './engagement.service.ts';
import { SegmentsQuery, SegmentsSchema } from './segments.schemas.ts';
import type { SegmentsService } from './segments.service.ts';

export async function analyticsRoutes(app: FastifyInstance, deps: { analytics: AnalyticsService; performance: PerformanceService; engagement: EngagementService; segments: SegmentsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['analytics'];
  r.get(
    '/analytics/dashboard',
    { schema: { tags, operationId: 'getDashboard', summary: "A site's headline metrics for a period (ending yesterday) against the period before", querystring: DashboardQuery, response: { 200: DashboardSchema } } },
    (request) => deps.analytics.dashboard(request.actor.sub, request.query.site_id, request.query.period ?? '30d'),
  );
  r.get(
    '/analytics/trends',
    { schema: { tags, operationId: 'getTrends', summary: 'Daily values of one metric over a period (empty when its source is not connected)', querystring: TrendsQuery, response: { 200: TrendSchema } } },
    (request) => deps.analytics.trends(request.actor.sub, request.query.site_id, request.query.metric, request.query.period ?? '30d'),
  );
  r.get(
    '/analytics/performance',
    {
      schema: {
        tags, operationId: 'getPerformance',
        summary: "Search Console's performance report for a site: clicks, impressions, CTR and position in totals and by day against a comparison period, and its queries or pages sorted, searched, filtered and paged",
        querystring: PerformanceQuery, response: { 200: PerformanceSchema },
      },
    },
    (request) => deps.performance.report(request.actor.sub, request.query),
  );
  r.get(
    '/analytics/performance/export',
    {
      onRequest: exportLimit(app, 'performance'),
      schema: {
        tags, operationId: 'exportPerformance',
        summary: "The performance report's queries or pages as a CSV file: every row of the period (filtered, searched and sorted as the report), streamed; with a comparison, its figures and the changes too",
        querystring: PerformanceExportQuery, response: { 200: CsvResponse('The rows, a heading row first') },
      },
    },
    async (request, reply) => sendCsv(reply, await deps.performance.exportRows(request.actor.sub, request.query)),
  );
  r.get(
    '/analytics/engagement',
    {
      schema: {
        tags, operationId: 'getEngagement',
        summary: "GA4's side of the performance report: sessions, page views, engagement rate and key events, in totals and by day, against the same comparison periods",
        querystring: EngagementQuery, response: { 200: EngagementSchema },
      },
    },
    (request) => deps.engagement.report(request.actor.sub, request.query),
  );
  r.get(
    '/analytics/changes',
    {
      schema: {
        tags, operationId: 'getChangeTimeline',
        summary: "The changes the site's tasks made in a period (completed, verified, rolled back), each on its Search Console day: the charts' markers",
        querystring: TimelineQuery, response: { 200: TimelineSchema },
      },
    },
    (request) => deps.engagement.timeline(request.actor.sub, request.query),
  );
  r.get(
    '/analytics/performance/segments',
    {
      schema: {
        tags, operationId: 'getPerformanceSegments',
        summary: "The performance report's countries or devices: each one's clicks, impressions, CTR and position against the comparison period, sorted and paged; with key, one country's or device's totals and days for the charts",
        querystring: SegmentsQuery, response: { 200: SegmentsSchema },
      },
    },
    (request) => deps.segments.report(request.actor.sub, request.query),
  );
}
