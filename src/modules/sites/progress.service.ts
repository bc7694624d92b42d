import type { AuditsService } from '../audits/audits.service.ts';
import { TASK_STATUSES } from '../tasks/tasks.schemas.ts';
import type { SiteProgress } from './sites.schemas.ts';
import type { SitesService } from './sites.service.ts';

/**
 * A site's journey in one object. It lives apart from the sites service because it reads
 * the audits module, which itself depends on sites.
 */
export function createProgressService(deps: { sites: SitesService; audits: Pick<AuditsService, 'progressFor'> }) {
  return {
    async getProgress(ownerId: string, siteId: string): Promise<SiteProgress> {
      const site = await deps.sites.getSite(ownerId, siteId);
      const audits = await deps.audits.progressFor(site.id);
      // Tasks and analytics syncs are later modules: until they exist there is no task
      // and no sync to report, and the counts say so.
      const tasks = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as Record<string, number>;
      return {
        site_id: site.id,
        health_score: site.health_score,
        initial_health_score: audits.initialScore,
        audit: audits.latest ?? null,
        score_history: audits.history,
        tasks: { ...tasks, total: 0 },
        last_analytics_sync_at: null,
      };
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
