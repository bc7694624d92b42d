import { atomically } from '../../db/transact.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isLockNotAvailable } from '../../db/errors.ts';

export interface TokenOwner { user_id: string; family_id: string }

/** What presenting a refresh token came to (rotateRefreshToken). */
export type Rotation<T> =
  | { outcome: 'rotated'; result: T }
  | { outcome: 'busy' }
  | { outcome: 'reused'; owner: TokenOwner }
  | { outcome: 'revoked' | 'expired' | 'unknown' };

export function createAuthRepo(db: Kysely<DB>) {
  return {
    async insertRefreshToken(row: { userId: string; familyId: string; tokenHash: string; expiresAt: Date }) {
      await db
        .insertInto('refresh_tokens')
        .values({ user_id: row.userId, family_id: row.familyId, token_hash: row.tokenHash, expires_at: row.expiresAt })
        .execute();
    },

    /**
     * Uses a refresh token up and stores its successor, in one transaction, or says why it
     * cannot be used. The token's row is locked first with NOWAIT: a row another transaction
     * holds is a rotation of this very token in progress (a second tab, a retried request)
     * and answers `busy` at once, so the two requests are told apart by the database, never
     * by a clock. Once that rotation has committed, the token is `reused`.
     */
    async rotateRefreshToken<T>(
      tokenHash: string,
      issue: (owner: TokenOwner) => Promise<{ successor: { tokenHash: string; expiresAt: Date }; result: T }>,
    ): Promise<Rotation<T>> {
      try {
        return await atomically(db, async (trx): Promise<Rotation<T>> => {
          const row = await trx
            .selectFrom('refresh_tokens')
            .select(['user_id', 'family_id', 'used_at', 'revoked_at', sql<boolean>`expires_at <= now()`.as('expired')])
            .where('token_hash', '=', tokenHash)
            .forUpdate()
            .noWait()
            .executeTakeFirst();
          if (!row) return { outcome: 'unknown' };
          if (row.revoked_at) return { outcome: 'revoked' };
          const owner = { user_id: row.user_id, family_id: row.family_id };
          if (row.used_at) return { outcome: 'reused', owner };
          if (row.expired) return { outcome: 'expired' };
          await trx.updateTable('refresh_tokens').set({ used_at: sql`now()` }).where('token_hash', '=', tokenHash).execute();
          const { successor, result } = await issue(owner);
          await trx
            .insertInto('refresh_tokens')
            .values({ user_id: owner.user_id, family_id: owner.family_id, token_hash: successor.tokenHash, expires_at: successor.expiresAt })
            .execute();
          return { outcome: 'rotated', result };
        });
      } catch (error) {
        if (isLockNotAvailable(error)) return { outcome: 'busy' };
        throw error;
      }
    },

    findRefreshToken(tokenHash: string) {
      return db
        .selectFrom('refresh_tokens')
        .select(['user_id', 'family_id', 'used_at', 'revoked_at', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async revokeFamily(familyId: string, userId: string) {
      await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: sql`now()` })
        .where('family_id', '=', familyId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async insertRevocation(row: { tokenId: string; userId: string; expiresAt: Date }) {
      await db
        .insertInto('token_revocations')
        .values({ token_id: row.tokenId, user_id: row.userId, expires_at: row.expiresAt })
        .onConflict((oc) => oc.column('token_id').doNothing())
        .execute();
    },

    revocationsSince(seq: number) {
      return db
        .selectFrom('token_revocations')
        .select(['seq', 'token_id', 'expires_at'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .execute();
    },

    /** Housekeeping: rows past their expiry protect nothing any more. */
    async deleteExpired() {
      await db.deleteFrom('token_revocations').where('expires_at', '<', sql<Date>`now()`).execute();
      await db.deleteFrom('refresh_tokens').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
