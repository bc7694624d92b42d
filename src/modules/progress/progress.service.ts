import type { AuditsService } from '../audits/audits.service.ts';
import type { SitesService } from '../sites/sites.service.ts';
import { TASK_STATUSES } from '../tasks/tasks.schemas.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { SiteProgress } from './progress.schemas.ts';

/**
 * A site's journey in one object: a module of its own because it reads the sites, audits
 * and tasks modules, which depend on sites (nothing depends on it).
 */
export function createProgressService(deps: {
  sites: Pick<SitesService, 'getSite'>;
  audits: Pick<AuditsService, 'progressFor'>;
  tasks: Pick<TasksService, 'countsBySite'>;
}) {
  return {
    async getProgress(ownerId: string, siteId: string): Promise<SiteProgress> {
      const site = await deps.sites.getSite(ownerId, siteId);
      const [audits, counts] = await Promise.all([deps.audits.progressFor(site.id), deps.tasks.countsBySite(site.id)]);
      const tasks = Object.fromEntries(TASK_STATUSES.map((status) => [status, counts[status] ?? 0])) as Record<string, number>;
      const total = Object.values(tasks).reduce((sum, n) => sum + n, 0);
      return {
        site_id: site.id,
        health_score: site.health_score,
        initial_health_score: audits.initialScore,
        audit: audits.latest ?? null,
        score_history: audits.history,
        tasks: { ...tasks, total },
        last_analytics_sync_at: site.search_synced_at,
        analytics_sync_error: site.search_sync_error,
      };
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
