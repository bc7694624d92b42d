import { atomically } from '../../db/transact.ts';
import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Role, User } from './users.schemas.ts';

export interface UserCredentials extends User {
  passwordHash: string | null;
  /** An admin disabled the account: it may not sign in. */
  disabled: boolean;
}

const USER_COLUMNS = ['id', 'email', 'name', 'role'] as const;
/** What an admin's list adds to an account: when it was made, how it signs in, whether it is disabled. */
const LISTED_COLUMNS = [
  'created_at',
  (eb: ExpressionBuilder<DB, 'users'>) => eb('password_hash', 'is not', null).as('has_password'),
  (eb: ExpressionBuilder<DB, 'users'>) => eb('google_sub', 'is not', null).as('has_google'),
  (eb: ExpressionBuilder<DB, 'users'>) => eb('disabled_at', 'is not', null).as('disabled'),
] as const;

export function createUsersRepo(db: Kysely<DB>) {
  async function credentials(by: 'email' | 'id', value: string): Promise<UserCredentials | undefined> {
    const row = await db
      .selectFrom('users')
      .select([...USER_COLUMNS, 'password_hash', 'disabled_at'])
      .where(by, '=', value)
      .executeTakeFirst();
    if (!row) return undefined;
    const { password_hash, disabled_at, ...user } = row;
    return { ...user, passwordHash: password_hash, disabled: disabled_at !== null };
  }

  return {
    /** Inserts a user; returns undefined when the e-mail is taken (no exception as control flow). */
    async insert(input: { email: string; name: string; role: Role; passwordHash: string; unverified?: true }): Promise<User | undefined> {
      return db
        .insertInto('users')
        .values({ email: input.email, name: input.name, role: input.role, password_hash: input.passwordHash, ...(input.unverified ? { email_unverified: true } : {}) })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(USER_COLUMNS)
        .executeTakeFirst();
    },

    /**
     * Removes a user and everything they own: by cascade their personal workspace and its sites. A shared workspace they alone
     * own goes to its longest-serving member of the highest role (a workspace always has an owner), or, with nobody else in
     * it, is deleted. Whether one was there.
     */
    async deleteByEmail(email: string): Promise<boolean> {
      return atomically(db, async (trx) => {
        const user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
        if (!user) return false;
        // The workspaces it alone owns: the longest-serving member of the highest role takes them over; one with nobody else goes.
        const alone = await trx.selectFrom('workspace_members as m').select('m.workspace_id')
          .where('m.user_id', '=', user.id).where('m.role', '=', 'owner')
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('workspace_members as other').select('other.user_id')
            .whereRef('other.workspace_id', '=', 'm.workspace_id').where('other.role', '=', 'owner').where('other.user_id', '<>', user.id))))
          .execute();
        for (const { workspace_id } of alone) {
          const successor = await trx.selectFrom('workspace_members').select('user_id')
            .where('workspace_id', '=', workspace_id).where('user_id', '<>', user.id)
            .orderBy(sql`case role when 'admin' then 0 when 'editor' then 1 else 2 end`).orderBy('created_at').orderBy('user_id')
            .executeTakeFirst();
          if (successor) await trx.updateTable('workspace_members').set({ role: 'owner' }).where('workspace_id', '=', workspace_id).where('user_id', '=', successor.user_id).execute();
          else await trx.deleteFrom('workspaces').where('id', '=', workspace_id).execute();
        }
        await trx.deleteFrom('users').where('id', '=', user.id).execute();
        return true;
      });
    },

    /** Every account, oldest first (ties by id), one page; with how each signs in. */
    async page(page: number, pageSize: number) {
      const [items, count] = await Promise.all([
        db.selectFrom('users')
          .select([...USER_COLUMNS, ...LISTED_COLUMNS])
          .orderBy('created_at').orderBy('id').limit(pageSize).offset((page - 1) * pageSize).execute(),
        db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },

    findById(id: string): Promise<User | undefined> {
      return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    findCredentialsByEmail: (email: string) => credentials('email', email),
    findCredentialsById: (id: string) => credentials('id', id),

    /** One account as an admin's list shows it. */
    findListed(id: string, trx: Kysely<DB> = db) {
      return trx.selectFrom('users').select([...USER_COLUMNS, ...LISTED_COLUMNS]).where('id', '=', id).executeTakeFirst();
    },

    /** The person's preferences (undefined when the account is gone). */
    preferences(id: string) {
      return db.selectFrom('users').select(['time_zone']).where('id', '=', id).executeTakeFirst();
    },

    setPreferences(id: string, values: { time_zone: string | null }) {
      return db.updateTable('users').set({ time_zone: values.time_zone, updated_at: sql`now()` }).where('id', '=', id).returning(['time_zone']).executeTakeFirst();
    },

    updateName(id: string, name: string): Promise<User | undefined> {
      return db.updateTable('users').set({ name, updated_at: sql`now()` }).where('id', '=', id).returning(USER_COLUMNS).executeTakeFirst();
    },

    /** The account's address is proven (a reset link e-mailed to it was used). */
    async markEmailProven(id: string, trx: Kysely<DB> = db) {
      await trx.updateTable('users').set({ email_unverified: false }).where('id', '=', id).where('email_unverified', '=', true).execute();
    },

    /** Whether the password was set: never on a disabled account (a reset link sent before it was disabled opens nothing). */
    async setPasswordHash(id: string, passwordHash: string, trx: Kysely<DB> = db): Promise<boolean> {
      const result = await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: sql`now()` })
        .where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Disables or re-enables an account; whether it exists. Disabling an already disabled account keeps its first time. */
    async setDisabled(id: string, disabled: boolean, trx: Kysely<DB> = db): Promise<boolean> {
      const result = await trx.updateTable('users')
        .set({ disabled_at: disabled ? sql`coalesce(disabled_at, now())` : null, updated_at: sql`now()` })
        .where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * The account of a Google identity: by its Google subject, else by its verified e-mail (the Google identity is then linked
     * to it), else a new user without a password. Linked to an account whose address was never proven (made by accepting an
     * invitation, whose link the inviter holds too), the account is claimed: the password chosen before is dropped, and
     * `claimed` says its sessions must end. A disabled account is returned as it is, not linked: the sign-in refuses it.
     */
    async findOrCreateByGoogle(identity: { sub: string; email: string; name: string }): Promise<User & { claimed?: true }> {
      return atomically(db, async (trx) => {
        const bySub = await trx.selectFrom('users').select(USER_COLUMNS).where('google_sub', '=', identity.sub).executeTakeFirst();
        if (bySub) return bySub;
        const unproven = await trx.selectFrom('users').select([...USER_COLUMNS, 'email_unverified', 'disabled_at']).where('email', '=', identity.email).where('google_sub', 'is', null)
          .forUpdate().executeTakeFirst();
        if (unproven?.disabled_at) return { id: unproven.id, email: unproven.email, name: unproven.name, role: unproven.role };
        const byEmail = await trx.updateTable('users')
          .set({ google_sub: identity.sub, ...(unproven?.email_unverified ? { password_hash: null, email_unverified: false } : {}) })
          .where('email', '=', identity.email).where('google_sub', 'is', null)
          .returning(USER_COLUMNS).executeTakeFirst();
        if (byEmail) return unproven?.email_unverified ? { ...byEmail, claimed: true } : byEmail;
        return trx.insertInto('users').values({ email: identity.email, name: identity.name, role: 'user', password_hash: null, google_sub: identity.sub })
          .returning(USER_COLUMNS).executeTakeFirstOrThrow();
      });
    },

    async existsByEmail(email: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
