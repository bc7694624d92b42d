import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DashboardQuery, DashboardSchema, TrendSchema, TrendsQuery } from './analytics.schemas.ts';
import type { AnalyticsService } from './analytics.service.ts';
import { PerformanceQuery, PerformanceSchema } from './performance.schemas.ts';
import type { PerformanceService } from './performance.service.ts';

export async function analyticsRoutes(app: FastifyInstance, deps: { analytics: AnalyticsService; performance: PerformanceService }) {
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
}
