import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Paged } from '../../lib/pagination.ts';
import { CsvResponse, sendCsv } from '../../lib/csv-export.ts';
import { exportLimit } from '../../plugins/rate-limits.ts';
import {
  AwaitingApprovalQuery,
  CancelTaskBody,
  ExportTasksQuery,
  ListTasksQuery,
  TaskActionResultOf,
  TaskDetailSchema,
  TaskParams,
  TaskSchema,
  VerificationStatusSchema,
} from './tasks.schemas.ts';
import type { TasksService } from './tasks.service.ts';

export async function tasksRoutes(app: FastifyInstance, deps: { tasks: TasksService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { tasks } = deps;
  const tags = ['tasks'];

  r.get(
    '/tasks',
    { schema: { tags, operationId: 'listTasks', summary: 'Tasks of your sites (all of them, or one with site_id), newest first', querystring: ListTasksQuery, response: { 200: Paged(TaskSchema) } } },
    (request) => tasks.list(request.actor.sub, request.query),
  );
  r.get(
    '/tasks/export',
    {
      onRequest: exportLimit(app, 'tasks'),
      schema: {
        tags, operationId: 'exportTasks', summary: 'Every task the list\'s filters select as a CSV file, newest first, each with its whole history (who moved it when) in one cell (streamed)',
        querystring: ExportTasksQuery, response: { 200: CsvResponse('The tasks, a heading row first') },
      },
    },
    async (request, reply) => sendCsv(reply, await tasks.exportAll(request.actor.sub, request.query)),
  );
  r.get(
    '/tasks/awaiting-approval',
    { schema: { tags, operationId: 'listTasksAwaitingApproval', summary: 'Tasks waiting for your approval, by priority then age (or most expected clicks first: order=expected_clicks)', querystring: AwaitingApprovalQuery, response: { 200: Paged(TaskSchema) } } },
    (request) => tasks.awaitingApproval(request.actor.sub, request.query),
  );
  r.get(
    '/tasks/:task_id',
    { schema: { tags, operationId: 'getTask', summary: 'Full task details', params: TaskParams, response: { 200: TaskDetailSchema } } },
    (request) => tasks.detail(request.actor.sub, request.params.task_id),
  );
  r.post(
    '/tasks/:task_id/approve',
    { schema: { tags, operationId: 'approveTask', summary: 'Approve a task awaiting approval', params: TaskParams, response: { 200: TaskActionResultOf('queued') } } },
    (request) => tasks.approve(request.actor.sub, request.params.task_id),
  );
  r.post(
    '/tasks/:task_id/cancel',
    {
      schema: {
        tags, operationId: 'cancelTask', summary: 'Cancel a task awaiting approval or queued (with an optional reason, kept in its history)',
        params: TaskParams, body: CancelTaskBody, response: { 200: TaskActionResultOf('cancelled') },
      },
    },
    (request) => tasks.cancel(request.actor.sub, request.params.task_id, request.body?.reason),
  );
  r.post(
    '/tasks/:task_id/retry',
    {
      schema: {
        tags, operationId: 'retryTask', params: TaskParams, response: { 200: TaskActionResultOf('queued') },
        summary: 'Run a failed task again (beyond the contract): only when its failure left the site as it was (its error says retryable)',
      },
    },
    (request) => tasks.retry(request.actor.sub, request.params.task_id),
  );
  r.get(
    '/verification/tasks/:task_id/verification-status',
    { schema: { tags: ['verification'], operationId: 'getVerificationStatus', summary: "Whether the task's changes are live", params: TaskParams, response: { 200: VerificationStatusSchema } } },
    (request) => tasks.verificationStatus(request.actor.sub, request.params.task_id),
  );
}
