import { sql, type Kysely } from 'kysely';
import type { AuditSchedule, DB, Platform } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { batched } from '../../lib/batch.ts';

const SITE_COLUMNS = [
  'id', 'name', 'domain', 'platform', 'is_active', 'health_score', 'audit_schedule', 'gsc_property', 'ga4_property',
  'search_synced_at', 'search_sync_error', 'created_at', 'updated_at',
] as const;

/** Every query names the owner in its WHERE clause: another user's site reads as absent. */
export function createSitesRepo(db: Kysely<DB>) {
  // The two hot reads are batched: concurrent requests share one round trip (lib/batch.ts).
  const findBatch = batched(async (keys: readonly { ownerId: string; siteId: string }[]) => {
    const wanted = [...new Map(keys.map((k) => [`${k.ownerId}/${k.siteId}`, k])).values()];
    const rows = await db
      .selectFrom('sites')
      .select([...SITE_COLUMNS, 'owner_id'])
      .where(({ eb, refTuple, tuple }) => eb(refTuple('id', 'owner_id'), 'in', wanted.map((k) => tuple(k.siteId, k.ownerId))))
      .execute();
    const found = new Map(rows.map(({ owner_id, ...site }) => [`${owner_id}/${site.id}`, site]));
    return keys.map((k) => found.get(`${k.ownerId}/${k.siteId}`));
  });

  const listBatch = batched(async (keys: readonly { ownerId: string; isActive: boolean | undefined }[]) => {
    const rows = await db
      .selectFrom('sites')
      .select([...SITE_COLUMNS, 'owner_id'])
      .where('owner_id', 'in', [...new Set(keys.map((k) => k.ownerId))])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return keys.map((k) =>
      rows
        .filter((r) => r.owner_id === k.ownerId && (k.isActive === undefined || r.is_active === k.isActive))
        .map(({ owner_id: _owner, ...site }) => site),
    );
  });

  return {
    /** undefined when the owner already has a site with this domain. */
    insert(ownerId: string, site: { name: string; domain: string }) {
      return db
        .insertInto('sites')
        .values({ owner_id: ownerId, name: site.name, domain: site.domain })
        .onConflict((oc) => oc.constraint('sites_owner_domain_key').doNothing())
        .returning(SITE_COLUMNS)
        .executeTakeFirst();
    },

    /** The owner's sites, newest first. */
    list: (ownerId: string, filter: { isActive?: boolean | undefined }) => listBatch({ ownerId, isActive: filter.isActive }),

    /** The site, if this owner has it. */
    findById: (ownerId: string, siteId: string) => findBatch({ ownerId, siteId }),

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

    findForSync(siteId: string) {
      return db.selectFrom('sites')
        .select(['id', 'owner_id', 'domain', 'gsc_property', 'ga4_property', 'search_backfilled', 'search_synced_at'])
        .where('id', '=', siteId).executeTakeFirst();
    },

    async setSearchSync(siteId: string, changes: { gsc_property?: string; ga4_property?: string; search_sync_error?: string | null; search_backfilled?: boolean; synced?: true }) {
      const { synced, ...columns } = changes;
      await db.updateTable('sites').set({ ...columns, ...(synced ? { search_synced_at: sql`now()` } : {}) }).where('id', '=', siteId).execute();
    },

    /** Active sites whose owner has an active Google connection (the daily sync). */
    async idsWithActiveGoogle() {
      const rows = await db.selectFrom('sites').innerJoin('google_connections', 'google_connections.user_id', 'sites.owner_id')
        .select('sites.id').where('sites.is_active', '=', true).where('google_connections.status', '=', 'active').execute();
      return rows.map((r) => r.id);
    },

    /** The updated site, undefined if absent, or 'duplicate_domain' when the new domain is taken. */
    async update(
      ownerId: string,
      siteId: string,
      changes: {
        name?: string; domain?: string; platform?: Platform; is_active?: boolean; audit_schedule?: AuditSchedule; health_score?: null;
        gsc_property?: string | null; ga4_property?: string | null; search_backfilled?: boolean;
      },
    ) {
      try {
        return await db
          .updateTable('sites')
          .set({ ...changes, updated_at: sql`now()` })
          .where('id', '=', siteId)
          .where('owner_id', '=', ownerId)
          .returning(SITE_COLUMNS)
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error, 'sites_owner_domain_key')) return 'duplicate_domain' as const;
        throw error;
      }
    },
  };
}

export type SitesRepo = ReturnType<typeof createSitesRepo>;
