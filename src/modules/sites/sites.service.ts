import type { JobSender } from '../../jobs/queue.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/problem.ts';
import { normalizeDomain } from './domain.ts';
import type { SitesRepo } from './sites.repo.ts';
import type { CreateSiteInput, UpdateSiteInput } from './sites.schemas.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import type { Access } from '../workspaces/access.ts';
import type { AccessTarget } from '../workspaces/access.repo.ts';
import { requireRole, type WorkspaceRole } from '../workspaces/roles.ts';
import type { WorkspacesService } from '../workspaces/workspaces.service.ts';

export function createSitesService(deps: {
  repo: SitesRepo;
  allowPrivateTargets: PrivateTargets;
  /** A newly linked Search Console or GA4 property queues a sync. */
  queue: JobSender;
  access: Access;
  workspaces: Pick<WorkspacesService, 'personalOf' | 'requireWorkspace'>;
}) {
  const { repo } = deps;

  function domainOf(input: string): string {
    const result = normalizeDomain(input, deps.allowPrivateTargets);
    if (!result.ok) throw invalid('/body/domain', result.reason);
    return result.domain;
  }

  /** The site, for a member of its workspace (404 for anyone else) whose role holds `needed` (403 below it). */
  async function getSite(userId: string, siteId: string, needed: WorkspaceRole = 'viewer') {
    const found = await repo.findById(userId, siteId);
    if (!found) throw notFound('Site');
    const { role, ...site } = found;
    requireRole(role, needed);
    return { ...site, role };
  }

  return {
    getSite,

    /** The check before acting on what hangs off a site (a task, an audit, a keyword): 404 for a non-member, 403 below `needed`. */
    requireAccess: (userId: string, target: AccessTarget, needed: WorkspaceRole) => deps.access.require(userId, target, needed),

    /** In the workspace named (its admins and owners), or the caller's personal one. */
    async createSite(userId: string, input: CreateSiteInput) {
      const domain = domainOf(input.domain);
      const workspaceId = input.workspace_id ?? (await deps.workspaces.personalOf(userId));
      await deps.workspaces.requireWorkspace(userId, workspaceId, 'admin');
      const site = await repo.insert(userId, workspaceId, { name: input.name.trim(), domain });
      if (!site) throw conflict(`The workspace already has a site for ${domain}`);
      return site;
    },

    /** The sites of every workspace the caller is a member of. */
    async listSites(userId: string, filter: { isActive?: boolean | undefined }) {
      const items = await repo.list(userId, filter);
      return { items, total: items.length };
    },

    /**
     * Site settings are an admin's. Moving the site out of its workspace is an owner's (an admin is owner of their own personal
     * workspace: with admin alone, they could take a client's site, its connector's credentials with it), and needs the admin
     * role where it goes. Its Search Console or GA4 property is picked by the member who added it: that member's Google
     * connection fetches it, and another member's pick would read whatever that connection can see.
     */
    async updateSite(userId: string, siteId: string, input: UpdateSiteInput) {
      const site = await getSite(userId, siteId, 'admin');
      const changes: Parameters<SitesRepo['update']>[2] = {};
      if (input.workspace_id !== undefined && input.workspace_id !== site.workspace_id) {
        requireRole(site.role, 'owner');
        await deps.workspaces.requireWorkspace(userId, input.workspace_id, 'admin');
        changes.workspace_id = input.workspace_id;
      }
      const picksProperty = (input.gsc_property !== undefined && input.gsc_property !== site.gsc_property)
        || (input.ga4_property !== undefined && input.ga4_property !== site.ga4_property);
      if (picksProperty && (await repo.addedBy(siteId)) !== userId) {
        throw forbidden('Only the member who added this site picks its Search Console and GA4 properties: their Google connection reads them');
      }
      if (input.name !== undefined) changes.name = input.name.trim();
      if (input.is_active !== undefined) changes.is_active = input.is_active;
      if (input.audit_schedule !== undefined) changes.audit_schedule = input.audit_schedule;
      if (input.rendering !== undefined) changes.rendering = input.rendering;
      if (input.domain !== undefined) {
        const domain = domainOf(input.domain);
        if (domain !== site.domain) {
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

      const updated = await repo.update(userId, siteId, changes);
      if (updated === 'duplicate_domain') throw conflict(`The workspace already has a site for ${changes.domain ?? site.domain}`);
      if (!updated) throw notFound('Site');
      if (input.gsc_property || input.ga4_property) await deps.queue.send('search.sync', { siteId });
      // (Moved, the caller's role is the one in the workspace it moved to.)
      return changes.workspace_id === undefined ? { ...updated, role: site.role } : getSite(userId, siteId);
    },

    /** For the search-data sync and planner (internal actors, no owner). */
    forSync: (siteId: string) => repo.findForSync(siteId),
    setSearchSync: (siteId: string, changes: Parameters<SitesRepo['setSearchSync']>[1]) => repo.setSearchSync(siteId, changes),
    idsWithActiveGoogle: () => repo.idsWithActiveGoogle(),
    idsAddedBy: (userId: string) => repo.idsAddedBy(userId),
    searchSyncedAt: async (siteId: string) => (await repo.findForSync(siteId))?.search_synced_at ?? null,

    /** For the strategy agent: the platform the last audit detected (a CMS theme adds its own title suffix). */
    platformOf: (siteId: string) => repo.platformOf(siteId),

    /** Called by the audit worker when an audit completes. */
    recordAudit: (siteId: string, result: Parameters<SitesRepo['recordAudit']>[1]) => repo.recordAudit(siteId, result),
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
