import { sql, type Kysely } from 'kysely';
import type { AuditSchedule, DB, Platform, RenderingMode } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { batched } from '../../lib/batch.ts';

const SITE_COLUMNS = [
  'id', 'workspace_id', 'name', 'domain', 'platform', 'is_active', 'health_score', 'audit_schedule', 'rendering', 'gsc_property', 'ga4_property',
  'search_synced_at', 'search_sync_error', 'created_at', 'updated_at',
] as const;
const SITE_COLUMNS_Q = SITE_COLUMNS.map((c) => `sites.${c}` as const);

/**
 * Every query names the caller in its WHERE clause through the site's workspace: a site of a
 * workspace the caller is not a member of reads as absent. Reads return the caller's role.
 */
export function createSitesRepo(db: Kysely<DB>) {
  const membership = () => db.selectFrom('sites').innerJoin('workspace_members as m', 'm.workspace_id', 'sites.workspace_id');
  // The two hot reads are batched: concurrent requests share one round trip (lib/batch.ts).
  const findBatch = batched(async (keys: readonly { userId: string; siteId: string }[]) => {
    const wanted = [...new Map(keys.map((k) => [`${k.userId}/${k.siteId}`, k])).values()];
    const rows = await membership()
      .select([...SITE_COLUMNS_Q, 'm.user_id', 'm.role'])
      .where(({ eb, refTuple, tuple }) => eb(refTuple('sites.id', 'm.user_id'), 'in', wanted.map((k) => tuple(k.siteId, k.userId))))
      .execute();
    const found = new Map(rows.map(({ user_id, ...site }) => [`${user_id}/${site.id}`, site]));
    return keys.map((k) => found.get(`${k.userId}/${k.siteId}`));
  });

  const listBatch = batched(async (keys: readonly { userId: string; isActive: boolean | undefined }[]) => {
    const rows = await membership()
      .select([...SITE_COLUMNS_Q, 'm.user_id'])
      .where('m.user_id', 'in', [...new Set(keys.map((k) => k.userId))])
      .orderBy('sites.created_at', 'desc')
      .orderBy('sites.id')
      .execute();
    return keys.map((k) =>
      rows
        .filter((r) => r.user_id === k.userId && (k.isActive === undefined || r.is_active === k.isActive))
        .map(({ user_id: _user, ...site }) => site),
    );
  });

  return {
    /** undefined when the workspace already has a site with this domain. */
    insert(userId: string, workspaceId: string, site: { name: string; domain: string }) {
      return db
        .insertInto('sites')
        .values({ owner_id: userId, workspace_id: workspaceId, name: site.name, domain: site.domain })
        .onConflict((oc) => oc.constraint('sites_workspace_domain_key').doNothing())
        .returning(SITE_COLUMNS)
        .executeTakeFirst();
    },

    /** The sites of every workspace the user is a member of, newest first. */
    list: (userId: string, filter: { isActive?: boolean | undefined }) => listBatch({ userId, isActive: filter.isActive }),

    /** The site and the user's role in its workspace, if the user is a member there. */
    findById: (userId: string, siteId: string) => findBatch({ userId, siteId }),

    /** Worker-side (no owner): what a completed audit learnt about the site. */
    async recordAudit(siteId: string, result: { healthScore: number; platform: Platform }) {
      await db
        .updateTable('sites')
        .set({ health_score: result.healthScore, platform: result.platform, updated_at: sql`now()` })
        .where('id', '=', siteId)
        .execute();
    },

    /** For the search-data sync (internal, no owner): what it needs to know of the site. */
    async platformOf(siteId: string) {
      return (await db.selectFrom('sites').select('platform').where('id', '=', siteId).executeTakeFirst())?.platform ?? null;
    },

    /** What the sync needs; `owner_id` only while the member who added the site is still in its workspace (their connection reads it). */
    findForSync(siteId: string) {
      return db.selectFrom('sites')
        .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'sites.workspace_id').onRef('m.user_id', '=', 'sites.owner_id'))
        .select(['sites.id', 'm.user_id as owner_id', 'sites.domain', 'sites.gsc_property', 'sites.ga4_property', 'sites.search_backfilled', 'sites.search_synced_at'])
        .where('sites.id', '=', siteId).executeTakeFirst();
    },

    async setSearchSync(siteId: string, changes: { gsc_property?: string; ga4_property?: string; search_sync_error?: string | null; search_backfilled?: boolean; synced?: true }) {
      const { synced, ...columns } = changes;
      await db.updateTable('sites').set({ ...columns, ...(synced ? { search_synced_at: sql`now()` } : {}) }).where('id', '=', siteId).execute();
    },

    /** Active sites whose adder has an active Google connection and is still a member of the site's workspace (the daily sync). */
    async idsWithActiveGoogle() {
      const rows = await db.selectFrom('sites').innerJoin('google_connections', 'google_connections.user_id', 'sites.owner_id')
        .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'sites.workspace_id').onRef('m.user_id', '=', 'sites.owner_id'))
        .select('sites.id').where('sites.is_active', '=', true).where('google_connections.status', '=', 'active').execute();
      return rows.map((r) => r.id);
    },

    /** Who added the site (whose Google connection reads its search data), or null once that account is gone. */
    async addedBy(siteId: string) {
      return (await db.selectFrom('sites').select('owner_id').where('id', '=', siteId).executeTakeFirst())?.owner_id ?? null;
    },

    /** The active sites a user added (whose search data their Google connection feeds). */
    async idsAddedBy(userId: string) {
      return (await db.selectFrom('sites').select('id').where('owner_id', '=', userId).where('is_active', '=', true).execute()).map((r) => r.id);
    },

    /** The updated site, undefined if absent, or 'duplicate_domain' when the new domain is taken. */
    async update(
      userId: string,
      siteId: string,
      changes: {
        name?: string; domain?: string; platform?: Platform; is_active?: boolean; audit_schedule?: AuditSchedule; rendering?: RenderingMode; health_score?: null;
        gsc_property?: string | null; ga4_property?: string | null; search_backfilled?: boolean; workspace_id?: string;
      },
    ) {
      try {
        return await db
          .updateTable('sites')
          .set({ ...changes, updated_at: sql`now()` })
          .where('id', '=', siteId)
          // (The service checked the role; a site of no workspace of the caller's is never written.)
          .where('workspace_id', 'in', db.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', userId))
          .returning(SITE_COLUMNS)
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error, 'sites_workspace_domain_key')) return 'duplicate_domain' as const;
        throw error;
      }
    },
  };
}

export type SitesRepo = ReturnType<typeof createSitesRepo>;
