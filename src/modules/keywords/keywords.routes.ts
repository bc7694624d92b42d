import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Paged } from '../../lib/pagination.ts';
import { AddKeywordBody, ExportKeywordsQuery, KeywordTagsSchema, UpdateKeywordBody, KeywordHistoryQuery, KeywordHistorySchema, KeywordParams, KeywordSchema, KeywordStatsQuery, KeywordStatsSchema, ListKeywordsQuery } from './keywords.schemas.ts';
import { CsvResponse, sendCsv } from '../../lib/csv-export.ts';
import { exportLimit } from '../../plugins/rate-limits.ts';
import type { KeywordsService } from './keywords.service.ts';

export async function keywordsRoutes(app: FastifyInstance, deps: { keywords: KeywordsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['keywords'];
  r.get(
    '/keywords',
    { schema: { tags, operationId: 'listKeywords', summary: "A site's keywords, most clicked first", querystring: ListKeywordsQuery, response: { 200: Paged(KeywordSchema) } } },
    (request) => deps.keywords.list(request.actor.sub, request.query),
  );
  r.get(
    '/keywords/export',
    {
      onRequest: exportLimit(app, 'keywords'),
      schema: {
        tags, operationId: 'exportKeywords', summary: "Every keyword of a site as a CSV file, in the list's order, with its last 28 days' clicks and impressions (streamed)",
        querystring: ExportKeywordsQuery, response: { 200: CsvResponse('The keywords, a heading row first') },
      },
    },
    async (request, reply) => sendCsv(reply, await deps.keywords.exportAll(request.actor.sub, request.query)),
  );
  r.get(
    '/keywords/:keyword_id/history',
    {
      schema: {
        tags, operationId: 'getKeywordHistory',
        summary: "A keyword's rank history: its daily position, clicks and impressions from Search Console, the page that ranked each day and the days it changed, and when Search Console last reported it",
        params: KeywordParams, querystring: KeywordHistoryQuery, response: { 200: KeywordHistorySchema },
      },
    },
    (request) => deps.keywords.history(request.actor.sub, request.params.keyword_id, request.query),
  );
  r.patch(
    '/keywords/:keyword_id',
    {
      schema: {
        tags, operationId: 'updateKeyword', summary: "Set a keyword's tags (editor and up); the sync keeps them",
        params: KeywordParams, body: UpdateKeywordBody, response: { 200: KeywordSchema },
      },
    },
    (request) => deps.keywords.update(request.actor.sub, request.params.keyword_id, request.body),
  );
  r.get(
    '/keywords/tags',
    { schema: { tags, operationId: 'listKeywordTags', summary: "The tags a site's keywords carry, most used first (at most 200)", querystring: KeywordStatsQuery, response: { 200: KeywordTagsSchema } } },
    (request) => deps.keywords.tags(request.actor.sub, request.query.site_id),
  );
  r.get(
    '/keywords/stats',
    { schema: { tags, operationId: 'getKeywordStats', summary: "Statistics of a site's keywords", querystring: KeywordStatsQuery, response: { 200: KeywordStatsSchema } } },
    (request) => deps.keywords.stats(request.actor.sub, request.query.site_id),
  );
  r.post(
    '/keywords',
    { schema: { tags, operationId: 'addKeyword', summary: 'Track a keyword by hand (it fills in from Search Console)', body: AddKeywordBody, response: { 201: KeywordSchema } } },
    async (request, reply) => reply.code(201).send(await deps.keywords.add(request.actor.sub, request.body)),
  );
  r.delete(
    '/keywords/:keyword_id',
    { schema: { tags, operationId: 'deleteKeyword', summary: 'Stop tracking a keyword', params: KeywordParams, response: { 204: Type.Null({ description: 'No longer tracked' }) } } },
    async (request, reply) => {
      await deps.keywords.remove(request.actor.sub, request.params.keyword_id);
      return reply.code(204).send(null);
    },
  );
}
