import { sql, type Kysely } from 'kysely';
import type { DB, Platform } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';

const SITE_COLUMNS = [
  'id', 'name', 'domain', 'platform', 'is_active', 'health_score', 'created_at', 'updated_at',
] as const;

/** Every query names the owner in its WHERE clause: another user's site reads as absent. */
export function createSitesRepo(db: Kysely<DB>) {
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

    list(ownerId: string, filter: { isActive?: boolean | undefined }) {
      let query = db.selectFrom('sites').select(SITE_COLUMNS).where('owner_id', '=', ownerId);
      if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive);
      return query.orderBy('created_at', 'desc').orderBy('id').execute();
    },

    findById(ownerId: string, siteId: string) {
      return db
        .selectFrom('sites')
        .select(SITE_COLUMNS)
        .where('id', '=', siteId)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
    },

    /** The updated site, undefined if absent, or 'duplicate_domain' when the new domain is taken. */
    async update(
      ownerId: string,
      siteId: string,
      changes: { name?: string; domain?: string; platform?: Platform; is_active?: boolean; health_score?: null },
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
export type SiteRow = NonNullable<Awaited<ReturnType<SitesRepo['findById']>>>;
