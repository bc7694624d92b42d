import { sql, type Kysely } from 'kysely';
import type { DB, WorkspaceRole } from '../../db/types.ts';
import { atomically } from '../../db/transact.ts';

const WORKSPACE_COLUMNS = ['workspaces.id', 'workspaces.name', 'workspaces.personal_of', 'workspaces.created_at', 'workspaces.updated_at'] as const;

/** Workspaces and their members. Reads name the caller: a workspace the caller is no member of reads as absent. */
export function createWorkspacesRepo(db: Kysely<DB>) {
  const mine = (userId: string) => db.selectFrom('workspaces')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'workspaces.id')
    .where('m.user_id', '=', userId);
  const withCounts = (userId: string) => mine(userId).select((eb) => [
    ...WORKSPACE_COLUMNS, 'm.role',
    eb.cast<number>(eb.selectFrom('workspace_members as c').select((e) => e.fn.countAll().as('n')).whereRef('c.workspace_id', '=', 'workspaces.id'), 'integer').as('member_count'),
    eb.cast<number>(eb.selectFrom('sites as s').select((e) => e.fn.countAll().as('n')).whereRef('s.workspace_id', '=', 'workspaces.id'), 'integer').as('site_count'),
  ]);

  return {
    /** The caller's workspaces, personal first, then by name. */
    list(userId: string) {
      return withCounts(userId).orderBy(sql`workspaces.personal_of is null`).orderBy('workspaces.name').orderBy('workspaces.id').execute();
    },

    find(userId: string, workspaceId: string) {
      return withCounts(userId).where('workspaces.id', '=', workspaceId).executeTakeFirst();
    },

    /** The caller's personal workspace (made with the account by the database). */
    async personalOf(userId: string) {
      return (await db.selectFrom('workspaces').select('id').where('personal_of', '=', userId).executeTakeFirstOrThrow()).id;
    },

    /** A shared workspace, the caller its owner. */
    create(userId: string, name: string) {
      return atomically(db, async (trx) => {
        const workspace = await trx.insertInto('workspaces').values({ name }).returning('id').executeTakeFirstOrThrow();
        await trx.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: userId, role: 'owner' }).execute();
        return workspace.id;
      });
    },

    async rename(workspaceId: string, name: string) {
      await db.updateTable('workspaces').set({ name, updated_at: sql`now()` }).where('id', '=', workspaceId).execute();
    },

    /** Deletes a workspace that holds no site; false when one was added meanwhile. */
    async deleteEmpty(workspaceId: string) {
      const result = await db.deleteFrom('workspaces').where('id', '=', workspaceId)
        .where(({ not, exists }) => not(exists(db.selectFrom('sites').select('id').where('workspace_id', '=', workspaceId))))
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    members(workspaceId: string) {
      return db.selectFrom('workspace_members as m').innerJoin('users', 'users.id', 'm.user_id')
        .select(['users.id as user_id', 'users.email', 'users.name', 'm.role', 'm.created_at as joined_at'])
        .where('m.workspace_id', '=', workspaceId)
        .orderBy('m.created_at').orderBy('users.id')
        .execute();
    },

    async roleOf(workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
      return (await db.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst())?.role;
    },

    /**
     * Sets a member's role, or removes the member (role null), unless that leaves the workspace
     * without an owner: the owners are locked for the change, so two owners demoting each other at
     * once cannot both succeed. 'last_owner' when it would; false when the user is no member; 'changed' when the member's role
     * is no longer `expected`, the one the caller's right to change it was judged on (an owner promoted them meanwhile).
     */
    changeMember(workspaceId: string, userId: string, role: WorkspaceRole | null, expected?: WorkspaceRole) {
      return atomically(db, async (trx) => {
        const owners = await trx.selectFrom('workspace_members').select('user_id')
          .where('workspace_id', '=', workspaceId).where('role', '=', 'owner').forUpdate().execute();
        const current = await trx.selectFrom('workspace_members').select('role')
          .where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
        if (!current) return false as const;
        if (expected !== undefined && current.role !== expected) return 'changed' as const;
        if (current.role === 'owner' && role !== 'owner' && owners.length <= 1) return 'last_owner' as const;
        if (role === null) await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
        else await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
        return true as const;
      });
    },

    /** Adds a member with `role`; one already a member keeps the role they have (accepting an invitation changes no role). The role held after. */
    addMember(workspaceId: string, userId: string, role: WorkspaceRole, trx: Kysely<DB> = db) {
      return atomically(trx, async (t) => {
        const current = await t.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
        if (!current) {
          await t.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role }).execute();
          return role;
        }
        return current.role;
      });
    },
  };
}

export type WorkspacesRepo = ReturnType<typeof createWorkspacesRepo>;
