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

    /**
     * Shared workspaces (others are members) that this user owns and where no owner with an
     * active account is left: who can manage them once this account is disabled. Read in the
     * transaction that disables it.
     */
    ownerlessWorkspacesOf: (userId: string, trx: Kysely<DB> = db) => trx.selectFrom('workspaces as w')
      .innerJoin('workspace_members as me', (j) => j.onRef('me.workspace_id', '=', 'w.id').on('me.user_id', '=', userId).on('me.role', '=', 'owner'))
      .select(['w.id', 'w.name', (eb) => eb.selectFrom('workspace_members as m').select((c) => c.fn.countAll<string>().as('n')).whereRef('m.workspace_id', '=', 'w.id').as('members')])
      .where(({ exists, selectFrom }) => exists(selectFrom('workspace_members as other').select('other.user_id')
        .whereRef('other.workspace_id', '=', 'w.id').where('other.user_id', '!=', userId)))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('workspace_members as o').innerJoin('users as u', 'u.id', 'o.user_id').select('o.user_id')
        .whereRef('o.workspace_id', '=', 'w.id').where('o.role', '=', 'owner').where('u.disabled_at', 'is', null))))
      .orderBy('w.name').orderBy('w.id').execute(),

    /** Every link of the account not used yet stops working (its password changed, or it was disabled). */
    async expireAll(userId: string, trx: Kysely<DB> = db) {
      await trx.updateTable('password_resets').set({ used_at: sql`now()` })
        .where('user_id', '=', userId).where('used_at', 'is', null).execute();
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
