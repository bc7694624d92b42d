import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notImplemented } from '../../lib/problem.ts';
import { Paged } from '../../lib/pagination.ts';
import {
  AwaitingApprovalQuery,
  ListTasksQuery,
  RollbackHistoryQuery,
  TaskActionResult,
  TaskParams,
  TaskSchema,
  VerificationStatusSchema,
} from './tasks.schemas.ts';

// The task lifecycle (agents, execution, verification, rollback) is the agents issue:
// until then these routes validate their input exactly and answer 501.
const pending = async () => {
  throw notImplemented('The task lifecycle');
};

export async function tasksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['tasks'];
  r.get('/tasks', { schema: { tags, summary: 'Tasks of your sites, newest first', querystring: ListTasksQuery, response: { 200: Paged(TaskSchema) } } }, pending);
  r.get('/tasks/awaiting-approval', { schema: { tags, summary: 'Tasks waiting for your approval, by priority then age', querystring: AwaitingApprovalQuery, response: { 200: Paged(TaskSchema) } } }, pending);
  r.get('/tasks/:task_id', { schema: { tags, summary: 'Full task details', params: TaskParams } }, pending);
  r.post('/tasks/:task_id/approve', { schema: { tags, summary: 'Approve a task awaiting approval', params: TaskParams, response: { 200: TaskActionResult } } }, pending);
  r.post('/tasks/:task_id/cancel', { schema: { tags, summary: 'Cancel a task awaiting approval or queued', params: TaskParams, response: { 200: TaskActionResult } } }, pending);
  r.post('/tasks/:task_id/rollback', { schema: { tags, summary: 'Undo a completed task', params: TaskParams, response: { 200: TaskActionResult } } }, pending);
  r.get('/verification/tasks/:task_id/verification-status', { schema: { tags: ['verification'], summary: "Whether the task's changes are live", params: TaskParams, response: { 200: VerificationStatusSchema } } }, pending);
  r.get('/cms/rollback/history', { schema: { tags: ['verification'], summary: 'Rollbacks on your sites', querystring: RollbackHistoryQuery } }, pending);
}
