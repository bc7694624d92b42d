import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';

/** OAuth states live 10 minutes: a consent screen left open longer must start again. */
const STATE_TTL = '10 minutes';

export function createGoogleRepo(db: Kysely<DB>) {
  return {
    async saveState(row: { stateHash: string; purpose: 'connect' | 'signin'; userId: string | null; codeVerifier: string; nonce: string | null; returnTo: 'app' | null }) {
      await db.deleteFrom('oauth_states').where('created_at', '<', sql<Date>`now() - ${STATE_TTL}::interval`).execute();
      await db.insertInto('oauth_states')
        .values({ state_hash: row.stateHash, purpose: row.purpose, user_id: row.userId, code_verifier: row.codeVerifier, nonce: row.nonce, return_to: row.returnTo })
        .execute();
    },

    /** Takes a state once: a replayed callback finds nothing. */
    takeState(stateHash: string) {
      return db.deleteFrom('oauth_states')
        .where('state_hash', '=', stateHash)
        .where('created_at', '>=', sql<Date>`now() - ${STATE_TTL}::interval`)
        .returning(['purpose', 'user_id', 'code_verifier', 'nonce', 'return_to'])
        .executeTakeFirst();
    },

    async saveConnection(row: { userId: string; googleSub: string; email: string | null; scopes: string; refreshToken: string; accessToken: string; expiresAt: Date }) {
      const values = {
        google_sub: row.googleSub, email: row.email, scopes: row.scopes, refresh_token: row.refreshToken,
        access_token: row.accessToken, access_expires_at: row.expiresAt, status: 'active' as const,
      };
      await db.insertInto('google_connections').values({ user_id: row.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values)).execute();
    },

    connection(userId: string) {
      return db.selectFrom('google_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    async saveAccessToken(userId: string, accessToken: string, expiresAt: Date) {
      await db.updateTable('google_connections').set({ access_token: accessToken, access_expires_at: expiresAt }).where('user_id', '=', userId).execute();
    },

    async markRevoked(userId: string) {
      await db.updateTable('google_connections').set({ status: 'revoked', access_token: null }).where('user_id', '=', userId).execute();
    },

    async deleteConnection(userId: string) {
      await db.deleteFrom('google_connections').where('user_id', '=', userId).execute();
    },
  };
}

export type GoogleRepo = ReturnType<typeof createGoogleRepo>;
