import { sql, type Kysely } from 'kysely';
import type { ConnectorType, DB } from '../../db/types.ts';

export interface StoredConnector {
  site_id: string;
  type: ConnectorType;
  settings: Record<string, unknown>;
  secret: string | null;
  verified_at: Date | null;
  updated_at: Date;
}

/** Connector rows. Callers check site ownership first (sites service); the worker reads by site id. */
export function createConnectorsRepo(db: Kysely<DB>) {
  return {
    async find(siteId: string): Promise<StoredConnector | undefined> {
      const row = await db
        .selectFrom('site_connectors')
        .select(['site_id', 'type', 'settings', 'secret', 'verified_at', 'updated_at'])
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      return row as StoredConnector | undefined;
    },

    async save(siteId: string, values: { type: ConnectorType; settings: object; secret: string | null; verifiedAt: Date | null }) {
      const row = {
        type: values.type,
        settings: JSON.stringify(values.settings),
        secret: values.secret,
        verified_at: values.verifiedAt,
      };
      const saved = await db
        .insertInto('site_connectors')
        .values({ site_id: siteId, ...row })
        .onConflict((oc) => oc.column('site_id').doUpdateSet({ ...row, updated_at: sql<Date>`now()` }))
        .returning(['site_id', 'type', 'settings', 'secret', 'verified_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      return saved as StoredConnector;
    },
  };
}

export type ConnectorsRepo = ReturnType<typeof createConnectorsRepo>;
