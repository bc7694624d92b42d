import type { ColumnType, Generated, RawBuilder } from 'kysely';

/** Row types as both drivers return them (see db/client.ts for the type parsers). */
/** Written with a default (or now()) when omitted; always read as a Date. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string | RawBuilder<unknown>>;
type CreatedAt = ColumnType<Date, never, never>;

export type Platform =
  | 'wordpress' | 'shopify' | 'wix' | 'squarespace' | 'webflow' | 'drupal' | 'joomla' | 'custom' | 'unknown';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  role: Generated<'user' | 'admin'>;
  password_hash: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TokenRevocationsTable {
  seq: Generated<number>;
  token_id: string;
  user_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp;
}

export interface SitesTable {
  id: Generated<string>;
  owner_id: string;
  name: string;
  domain: string;
  platform: ColumnType<Platform, Platform | undefined, Platform>;
  is_active: Generated<boolean>;
  health_score: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  token_revocations: TokenRevocationsTable;
  sites: SitesTable;
  schema_migrations: SchemaMigrationsTable;
}
