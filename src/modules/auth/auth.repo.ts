import { atomically } from '../../db/transact.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

export function createAuthRepo(db: Kysely<DB>) {
  return {
    async insertRefreshToken(row: { userId: string; familyId: string; tokenHash: string; expiresAt: Date }) {
      await db
        .insertInto('refresh_tokens')
        .values({ user_id: row.userId, family_id: row.familyId, token_hash: row.tokenHash, expires_at: row.expiresAt })
        .execute();
    },

    /**
     * Marks a live, unused token as used, stores its successor and the successor's sealed
     * pair, in one transaction. The condition is in the UPDATE itself, so two concurrent
     * refreshes with one token have one winner; the loser's UPDATE waits for the winner's
     * commit (PostgreSQL row lock) and then finds the sealed pair already there.
     */
    rotateRefreshToken<T>(
      tokenHash: string,
      issue: (owner: { user_id: string; family_id: string }) => Promise<{ successor: { tokenHash: string; expiresAt: Date }; sealed: string; result: T }>,
    ): Promise<T | undefined> {
      return atomically(db, async (trx) => {
        const owner = await trx
          .updateTable('refresh_tokens')
          .set({ used_at: sql`now()` })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', sql<Date>`now()`)
          .returning(['user_id', 'family_id'])
          .executeTakeFirst();
        if (!owner) return undefined;
        const { successor, sealed, result } = await issue(owner);
        await trx
          .insertInto('refresh_tokens')
          .values({ user_id: owner.user_id, family_id: owner.family_id, token_hash: successor.tokenHash, expires_at: successor.expiresAt })
          .execute();
        await trx.updateTable('refresh_tokens').set({ successor_sealed: sealed }).where('token_hash', '=', tokenHash).execute();
        return result;
      });
    },

    /** The sealed successor of a token used at most `graceSeconds` ago in a session still open. */
    findGraceSuccessor(tokenHash: string, graceSeconds: number) {
      return db
        .selectFrom('refresh_tokens')
        .select(['user_id', 'family_id', 'successor_sealed'])
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where('successor_sealed', 'is not', null)
        .where('used_at', '>', sql<Date>`now() - make_interval(secs => ${graceSeconds})`)
        .executeTakeFirst();
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
        .set({ revoked_at: sql`now()`, successor_sealed: null })
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
