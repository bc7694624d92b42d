import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

/** Whether a reset token can be used, and if not, why. */
export type ResetTokenState = 'usable' | 'used' | 'expired' | 'unknown';

export function createAccountsRepo(db: Kysely<DB>) {
  return {
    async insertReset(row: { id: string; userId: string; tokenHash: string; validMinutes: number }, trx: Kysely<DB> = db) {
      await trx.insertInto('password_resets')
        .values({ id: row.id, user_id: row.userId, token_hash: row.tokenHash, expires_at: sql<Date>`now() + make_interval(mins => ${row.validMinutes})` })
        .execute();
    },

    async stateOf(tokenHash: string): Promise<ResetTokenState> {
      const row = await db.selectFrom('password_resets')
        .select(['used_at', sql<boolean>`expires_at <= now()`.as('expired')])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return 'unknown';
      if (row.used_at) return 'used';
      return row.expired ? 'expired' : 'usable';
    },

    /** Uses a token up, if it is still good: its account's id. One of two requests racing with it wins. */
    async consume(tokenHash: string, trx: Kysely<DB> = db): Promise<string | undefined> {
      const row = await trx.updateTable('password_resets')
        .set({ used_at: sql`now()` })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },

    /** Every link of the account not used yet stops working (its password changed, or it was disabled). */
    async expireAll(userId: string, trx: Kysely<DB> = db) {
      await trx.updateTable('password_resets').set({ used_at: sql`now()` })
        .where('user_id', '=', userId).where('used_at', 'is', null).execute();
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
