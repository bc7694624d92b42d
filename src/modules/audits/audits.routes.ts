import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notImplemented } from '../../lib/problem.ts';
import { Uuid } from '../../lib/schema.ts';

export const StartAuditBody = Type.Object(
  {
    site_id: Uuid(),
    max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000, default: 500, description: 'Crawl at most this many pages' })),
  },
  { additionalProperties: false },
);

// The crawler and its checks are the audits issue: until then these answer 501.
const pending = async () => {
  throw notImplemented('Site audits');
};

export async function auditsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['audits'];
  r.post('/audits', { schema: { tags, summary: 'Start an audit of a site (202)', body: StartAuditBody } }, pending);
  r.get('/audits/site/:site_id/latest', { schema: { tags, summary: "The site's latest audit", params: Type.Object({ site_id: Uuid() }) } }, pending);
}
