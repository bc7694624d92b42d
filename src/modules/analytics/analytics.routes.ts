import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notImplemented } from '../../lib/problem.ts';
import { DashboardQuery, DashboardSchema, TrendSchema, TrendsQuery } from './analytics.schemas.ts';

// Search Console and GA4 data arrive with the search-data issue: until then these answer 501.
const pending = async () => {
  throw notImplemented('Analytics');
};

export async function analyticsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['analytics'];
  r.get('/analytics/dashboard', { schema: { tags, summary: "A site's headline metrics for a period", querystring: DashboardQuery, response: { 200: DashboardSchema } } }, pending);
  r.get('/analytics/trends', { schema: { tags, summary: 'Daily values of one metric over a period', querystring: TrendsQuery, response: { 200: TrendSchema } } }, pending);
}
