import type { JobSender } from '../../jobs/queue.ts';
import { conflict, invalid, notFound } from '../../lib/problem.ts';
import { normalizeDomain } from './domain.ts';
import type { SitesRepo } from './sites.repo.ts';
import type { CreateSiteInput, UpdateSiteInput } from './sites.schemas.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';

export function createSitesService(deps: {
  repo: SitesRepo;
  allowPrivateTargets: PrivateTargets;
  /** A newly linked Search Console or GA4 property queues a sync. */
  queue: JobSender;
}) {
  const { repo } = deps;

  function domainOf(input: string): string {
    const result = normalizeDomain(input, deps.allowPrivateTargets);
    if (!result.ok) throw invalid('/body/domain', result.reason);
    return result.domain;
  }

  async function getSite(ownerId: string, siteId: string) {
    const site = await repo.findById(ownerId, siteId);
    if (!site) throw notFound('Site');
    return site;
  }

  return {
    getSite,

    async createSite(ownerId: string, input: CreateSiteInput) {
      const domain = domainOf(input.domain);
      const site = await repo.insert(ownerId, { name: input.name.trim(), domain });
      if (!site) throw conflict(`You already have a site for ${domain}`);
      return site;
    },

    async listSites(ownerId: string, filter: { isActive?: boolean | undefined }) {
      const items = await repo.list(ownerId, filter);
      return { items, total: items.length };
    },

    async updateSite(ownerId: string, siteId: string, input: UpdateSiteInput) {
      const changes: Parameters<SitesRepo['update']>[2] = {};
      if (input.name !== undefined) changes.name = input.name.trim();
      if (input.is_active !== undefined) changes.is_active = input.is_active;
      if (input.audit_schedule !== undefined) changes.audit_schedule = input.audit_schedule;
      if (input.domain !== undefined) {
        const domain = domainOf(input.domain);
        const current = await getSite(ownerId, siteId);
        if (domain !== current.domain) {
          // The score and the detected platform described the old host, not this one.
          changes.domain = domain;
          changes.health_score = null;
          changes.platform = 'unknown';
        }
      }
      if (input.platform !== undefined) changes.platform = input.platform;
      // A newly linked property is backfilled from the start.
      if (input.gsc_property !== undefined) Object.assign(changes, { gsc_property: input.gsc_property, search_backfilled: false });
      if (input.ga4_property !== undefined) Object.assign(changes, { ga4_property: input.ga4_property, search_backfilled: false });

      const updated = await repo.update(ownerId, siteId, changes);
      if (updated === 'duplicate_domain') throw conflict(`You already have a site for ${changes.domain}`);
      if (!updated) throw notFound('Site');
      if (input.gsc_property || input.ga4_property) await deps.queue.send('search.sync', { siteId });
      return updated;
    },

    /** For the search-data sync and planner (internal actors, no owner). */
    forSync: (siteId: string) => repo.findForSync(siteId),
    setSearchSync: (siteId: string, changes: Parameters<SitesRepo['setSearchSync']>[1]) => repo.setSearchSync(siteId, changes),
    idsWithActiveGoogle: () => repo.idsWithActiveGoogle(),
    searchSyncedAt: async (siteId: string) => (await repo.findForSync(siteId))?.search_synced_at ?? null,

    /** For the strategy agent: the platform the last audit detected (a CMS theme adds its own title suffix). */
    platformOf: (siteId: string) => repo.platformOf(siteId),

    /** Called by the audit worker when an audit completes. */
    recordAudit: (siteId: string, result: Parameters<SitesRepo['recordAudit']>[1]) => repo.recordAudit(siteId, result),
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
