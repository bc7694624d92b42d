import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notImplemented } from '../../lib/problem.ts';
import { Paged } from '../../lib/pagination.ts';
import { KeywordSchema, KeywordStatsQuery, KeywordStatsSchema, ListKeywordsQuery } from './keywords.schemas.ts';

// Keywords come from Search Console with the search-data issue: until then these answer 501.
const pending = async () => {
  throw notImplemented('Keywords');
};

export async function keywordsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['keywords'];
  r.get('/keywords', { schema: { tags, summary: "A site's tracked keywords", querystring: ListKeywordsQuery, response: { 200: Paged(KeywordSchema) } } }, pending);
  r.get('/keywords/stats', { schema: { tags, summary: "Statistics of a site's keywords", querystring: KeywordStatsQuery, response: { 200: KeywordStatsSchema } } }, pending);
}
