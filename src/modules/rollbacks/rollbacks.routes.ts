import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Paged } from '../../lib/pagination.ts';
import { TaskActionResultOf, TaskParams } from '../tasks/tasks.schemas.ts';
import { RollbackHistoryQuery, RollbackQuery, RollbackSchema } from './rollbacks.schemas.ts';
import type { RollbacksService } from './rollbacks.service.ts';

export async function rollbacksRoutes(app: FastifyInstance, deps: { rollbacks: RollbacksService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['tasks'];

  r.post(
    '/tasks/:task_id/rollback',
    {
      schema: {
        tags,
        operationId: 'rollbackTask', summary: 'Undo a completed task: every changed value is restored through its connector (409 for manual tasks or fields edited since)',
        params: TaskParams,
        querystring: RollbackQuery,
        response: { 200: TaskActionResultOf('rolled_back') },
      },
    },
    (request) => deps.rollbacks.rollback(request.actor.sub, request.params.task_id, { force: request.query.force ?? false }),
  );
  r.get(
    '/cms/rollback/history',
    { schema: { tags: ['verification'], operationId: 'listRollbacks', summary: 'Rollbacks on your sites, newest first', querystring: RollbackHistoryQuery, response: { 200: Paged(RollbackSchema) } } },
    (request) => deps.rollbacks.history(request.actor.sub, request.query),
  );
}
