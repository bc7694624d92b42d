import { manualDraft } from '../../task-types/index.ts';
import type { ManualDeliverable, SiteConnector, TaskToApply } from '../connector.types.ts';

/** The deliverable of a task for a person to carry out (its type's draft); undefined for an unknown type. */
export function manualDeliverable(task: TaskToApply): ManualDeliverable | undefined {
  const draft = manualDraft(task);
  return draft && { connector: 'manual', ...draft };
}

/**
 * The default site connector: it changes nothing on the site itself. Executing a task
 * produces a precise deliverable instead (what to change, where, the exact new HTML or
 * text), and verification later checks the live site for it. It has nothing to restore.
 */
export const manualConnector: SiteConnector = {
  type: 'manual',
  label: 'manual',
  async apply(task) {
    const deliverable = manualDeliverable(task);
    if (!deliverable) throw new Error(`no connector can carry out a ${task.type} task`);
    return { applied: deliverable };
  },
  async restore() {
    return { restored: [], conflicts: [] };
  },
  async restoreChecks() {
    return [];
  },
  async close() {},
};
