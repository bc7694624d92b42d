import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/** A user and a site in their personal workspace, written straight to the database (for tests of a repository, without the app). */
export async function insertOwnedSite(db: Kysely<DB>, domain: string): Promise<{ userId: string; siteId: string }> {
  const userId = (await sql<{ id: string }>`insert into users (email, name) values (${`owner@${domain}`}, 'Owner') returning id`.execute(db)).rows[0]!.id;
  const siteId = (await sql<{ id: string }>`insert into sites (owner_id, workspace_id, name, domain)
    values (${userId}, (select id from workspaces where personal_of = ${userId}), ${domain}, ${domain}) returning id`.execute(db)).rows[0]!.id;
  return { userId, siteId };
}
