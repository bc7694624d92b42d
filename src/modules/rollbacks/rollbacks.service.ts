import type { FastifyBaseLogger } from 'fastify';
import { conflict, notFound, ProblemError } from '../../lib/problem.ts';
import { ConnectorError } from '../connectors/connector-error.ts';
import { CONNECTOR_LABELS, isRestorable, type LiveCheck } from '../connectors/connector.types.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import type { SitesService } from '../sites/sites.service.ts';
import { statusInWords } from '../tasks/state-machine.ts';
import type { Transact } from '../../db/transact.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { RollbacksRepo } from './rollbacks.repo.ts';

interface RestoredChange {
  url: string;
  resource: { kind: string; id: number };
  field: string;
  restored: string;
  replaced: string;
}

/**
 * Rollback: puts back every value a connector changed (completed -> rolled_back), after
 * checking nobody edited those fields since, then checks the live page and records it all.
 */
export function createRollbacksService(deps: {
  repo: RollbacksRepo;
  tasks: Pick<TasksService, 'findForRollback' | 'markRolledBack'>;
  transact: Transact;
  connectors: Pick<ConnectorsService, 'forSite'>;
  sites: Pick<SitesService, 'getSite' | 'requireAccess'>;
  log: FastifyBaseLogger;
}) {
  const { repo } = deps;

  return {
    async rollback(ownerId: string, taskId: string, options: { force: boolean }) {
      await deps.sites.requireAccess(ownerId, { task: taskId }, 'editor');
      const task = await deps.tasks.findForRollback(ownerId, taskId);
      if (!task) throw notFound('Task');
      if (task.status !== 'completed') throw conflict(`The task is ${statusInWords(task.status)} (${task.status}); only completed tasks can be rolled back`);
      const applied = ((task.deliverables ?? []) as unknown[]).filter(isRestorable).filter((d) => d.changes.length > 0);
      if (applied.length === 0) {
        throw conflict('This task changed nothing the service can restore: it was carried out by hand from its deliverable (manual connector), or the site already held the values. Undo the change on the site if needed.');
      }
      const actor = `user:${ownerId}`;
      const rollbackId = await repo.begin(taskId, task.site_id, actor);
      if (!rollbackId) throw conflict('A rollback of this task is already under way or done');

      const connector = await deps.connectors.forSite(task.site_id).catch(async (error: unknown) => {
        await repo.fail(rollbackId, { message: error instanceof Error ? error.message : 'connector unavailable' });
        throw error;
      });
      // The connector that made the change restores it: the site must still have it.
      const label = CONNECTOR_LABELS[applied[0]!.connector];
      if (applied.some((d) => d.connector !== connector.type)) {
        await repo.fail(rollbackId, { message: `the site no longer has a ${label} connector` });
        throw conflict(`The site no longer has a ${label} connector, so the change cannot be restored through it. Configure the connector again, then retry.`);
      }
      const restored: RestoredChange[] = [];
      let recorded = false;
      const refuse = async (error: unknown) => {
        recorded = true;
        await repo.fail(rollbackId, error, restored);
      };
      /** What a rollback that stops mid-way has done, in words: pages already put back stay so, and a retry finishes the rest. */
      const partly = () => {
        const pages = new Set(restored.map((r) => r.url)).size;
        return pages === 0 ? 'nothing was restored' : `${pages} of the ${applied.length} pages were already put back (the rollback history lists them) and stay so; a retry restores the rest`;
      };
      try {
        if (applied.length > 1 && !options.force) {
          // A task covering several pages is restored whole or not at all: every page is checked for edits first.
          const edited = [];
          for (const deliverable of applied) {
            const { conflicts } = await connector.restore(deliverable, { force: false, dryRun: true });
            if (conflicts.length > 0) edited.push({ url: deliverable.url, conflicts });
          }
          if (edited.length > 0) {
            await refuse({ message: 'edited since the task ran', conflicts: edited });
            throw conflict(
              `${edited.length} of the ${applied.length} pages changed in ${label} after the task ran (${edited.slice(0, 5).map((e) => `${e.conflicts.map((c) => c.field).join(', ')} of ${e.url}`).join('; ')}${edited.length > 5 ? '; ...' : ''}); rolling back would overwrite those edits, so nothing was restored. Retry with ?force=true to restore the original values anyway.`,
            );
          }
        }
        const checks: LiveCheck[] = [];
        for (const deliverable of applied) {
          const outcome = await connector.restore(deliverable, options);
          if (outcome.conflicts.length > 0 && !options.force) {
            await refuse({ message: 'edited since the task ran', conflicts: outcome.conflicts });
            throw conflict(
              `${outcome.conflicts.map((c) => c.field).join(', ')} of ${deliverable.url} changed in ${label} after the task ran; rolling back would overwrite that edit${applied.length > 1 ? ` (${partly()})` : ''}. Retry with ?force=true to restore the original values anyway.`,
            );
          }
          restored.push(...outcome.restored.map((r) => ({ url: deliverable.url, resource: deliverable.resource, ...r })));
          const pageChecks = await connector.restoreChecks(deliverable);
          checks.push(...(applied.length > 1 ? pageChecks.map((c) => ({ ...c, url: deliverable.url })) : pageChecks));
        }
        // The record and the task's move (the state machine's rollback transition) commit together.
        await deps.transact(async (trx) => {
          await repo.complete(rollbackId, { changes: restored, checks }, trx);
          if (!(await deps.tasks.markRolledBack(taskId, actor, rollbackId, trx))) {
            throw conflict('The task left completed while this rollback ran (another rollback finished first); the values restored are recorded in the rollback history');
          }
        });
        const notLive = checks.filter((c) => !c.passed);
        deps.log.info({ taskId, restored: restored.length }, 'task rolled back');
        return {
          id: taskId,
          status: 'rolled_back' as const,
          message: `Rolled back: restored ${restored.length} field${restored.length === 1 ? '' : 's'} through ${label}${
            notLive.length ? `; the live page does not show the original ${notLive.map((c) => c.check).join(', ')} yet (a page cache?)` : ''
          }`,
        };
      } catch (error) {
        // Refusals above recorded themselves with their conflicts; the task leaving completed did not.
        if (error instanceof ProblemError) {
          if (!recorded) await repo.fail(rollbackId, { message: error.message }, restored);
          throw error;
        }
        await repo.fail(rollbackId, { message: error instanceof Error ? error.message : 'rollback failed' }, restored);
        if (error instanceof ConnectorError) {
          throw new ProblemError('bad_gateway', `The rollback failed; the task stays completed${applied.length > 1 ? ` (${partly()})` : ''}. ${error.message}`);
        }
        throw error;
      } finally {
        await connector.close();
      }
    },

    async history(ownerId: string, query: { site_id?: string | undefined; workspace_id?: string | undefined; page?: number | undefined; page_size?: number | undefined }) {
      if (query.site_id) await deps.sites.getSite(ownerId, query.site_id);
      if (query.workspace_id && !(await repo.isMember(ownerId, query.workspace_id))) throw notFound('Workspace');
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 20;
      const { items, total } = await repo.page(ownerId, query.site_id, page, pageSize, query.workspace_id);
      const rows = items.map((row) => ({ ...row, changes: row.changes as RestoredChange[], checks: row.checks as object[] }));
      return { items: rows, total, page, page_size: pageSize };
    },

    latestFor: (taskId: string) => repo.latestFor(taskId),
  };
}

export type RollbacksService = ReturnType<typeof createRollbacksService>;
