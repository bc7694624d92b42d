import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Paged, pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, Timestamp, Uuid } from '../../lib/schema.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AgentsRepo } from './agents.repo.ts';

const Rejection = Type.Object({
  id: Uuid(), site_id: Uuid(), audit_id: Nullable(Uuid()), type: Type.String(), target: Type.String(), reason: Type.String(),
  /** The drafting rule that refused it, by id (null when no drafting rule did). */
  rule: Nullable(Type.String()), created_at: Timestamp(),
});

export async function agentsRoutes(app: FastifyInstance, deps: { users: UsersService; repo: AgentsRepo }) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/admin/task-rejections',
    {
      schema: {
        tags: ['admin'],
        operationId: 'listTaskRejections', summary: "Proposals the strategy agent's quality gates refused, with the reason (admins only)",
        querystring: Type.Object({ site_id: Type.Optional(Uuid()), ...pageQueryProperties(20, 100) }, { additionalProperties: false }),
        response: { 200: Paged(Rejection) },
      },
    },
    async (request) => {
      await deps.users.requireAdmin(request.actor.sub);
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? 20;
      const { items, total } = await deps.repo.rejections({ siteId: request.query.site_id }, page, pageSize);
      return { items, total, page, page_size: pageSize };
    },
  );
}
