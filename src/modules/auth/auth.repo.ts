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
    /**
     * Starts a session's chain of refresh tokens; false when the account is disabled (or gone).
     * The account's row is read with FOR KEY SHARE in the same statement: a sign-in that races
     * an admin disabling the account waits for that commit and then sees it (revokeUserSessions).
     */
    async insertRefreshToken(row: { userId: string; familyId: string; tokenHash: string; expiresAt: Date }): Promise<boolean> {
      const result = await db
        .insertInto('refresh_tokens')
        .columns(['user_id', 'family_id', 'token_hash', 'expires_at'])
        .expression((eb) => eb
          .selectFrom('users')
          .select([
            'id',
            sql<string>`${row.familyId}::uuid`.as('family_id'),
            sql<string>`${row.tokenHash}`.as('token_hash'),
            sql<Date>`${row.expiresAt.toISOString()}::timestamptz`.as('expires_at'),
          ])
          .where('id', '=', row.userId)
          .where('disabled_at', 'is', null)
          .forKeyShare())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
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
          // The account's row, FOR KEY SHARE (a rename does not wait for it): while the account is
          // ending every session or being disabled (revokeUserSessions holds it FOR UPDATE), this is
          // a lost race, not a new token that the revocation would miss; a disabled account refreshes nothing.
          const account = await trx.selectFrom('users').select('disabled_at').where('id', '=', row.user_id).forKeyShare().noWait().executeTakeFirst();
          if (!account || account.disabled_at) return { outcome: 'revoked' };
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

    /**
     * Ends every session of a user but `keep`: its refresh tokens are revoked, and the id of each
     * session that may still have a live access token (one issued within `accessTtlSeconds`, with
     * a minute for clocks) joins the revocations until `revokeUntil`. The user's row is locked
     * first, so a refresh in flight has either committed (its successor is revoked here) or gives
     * up (rotateRefreshToken). The ids of the sessions put on the revocation list.
     */
    async revokeUserSessions(
      userId: string,
      options: { keep?: string | undefined; accessTtlSeconds: number; revokeUntil: Date },
      executor: Kysely<DB> = db,
    ): Promise<string[]> {
      return atomically(executor, async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
        let revoke = trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` })
          .where('user_id', '=', userId).where('revoked_at', 'is', null);
        if (options.keep) revoke = revoke.where('family_id', '<>', options.keep);
        const rows = await revoke
          .returning(['family_id', sql<boolean>`created_at > now() - make_interval(secs => ${options.accessTtlSeconds + 60})`.as('recent')])
          .execute();
        const sessions = [...new Set(rows.filter((r) => r.recent).map((r) => r.family_id))];
        if (sessions.length > 0) {
          await trx.insertInto('token_revocations')
            .values(sessions.map((id) => ({ token_id: id, user_id: userId, expires_at: options.revokeUntil })))
            .onConflict((oc) => oc.column('token_id').doNothing())
            .execute();
        }
        return sessions;
      });
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
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
