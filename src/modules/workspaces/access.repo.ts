import type { Kysely } from 'kysely';
import type { DB, WorkspaceRole } from '../../db/types.ts';

/** The workspaces a user is a member of: the subquery every site-scoped read filters by (`sites.workspace_id in (...)`). */
export const memberWorkspaces = (db: Kysely<DB>, userId: string) =>
  db.selectFrom('workspace_members').select('workspace_members.workspace_id').where('workspace_members.user_id', '=', userId);

/** Whether a user is a member of a workspace (a list filter naming one they are not in is a 404, as the workspace would be). */
export const isMemberOf = async (db: Kysely<DB>, userId: string, workspaceId: string) =>
  (await memberWorkspaces(db, userId).where('workspace_members.workspace_id', '=', workspaceId).executeTakeFirst()) !== undefined;

/** What a role is asked for: a site, or what hangs off one. */
export type AccessTarget = { site: string } | { task: string } | { audit: string } | { keyword: string };

export function createAccessRepo(db: Kysely<DB>) {
  /** The id of the site a target hangs off, as a subquery. */
  const siteOf = (target: AccessTarget) => {
    if ('task' in target) return db.selectFrom('tasks').select('site_id').where('id', '=', target.task);
    if ('audit' in target) return db.selectFrom('audits').select('site_id').where('id', '=', target.audit);
    if ('keyword' in target) return db.selectFrom('keywords').select('site_id').where('id', '=', target.keyword);
    return db.selectFrom('sites').select('id as site_id').where('id', '=', target.site);
  };
  return {
    /** The user's role in the workspace of the target's site; undefined when the user is no member there or it does not exist. */
    async roleOn(userId: string, target: AccessTarget): Promise<WorkspaceRole | undefined> {
      const row = await db.selectFrom('sites')
        .innerJoin('workspace_members as m', 'm.workspace_id', 'sites.workspace_id')
        .select('m.role')
        .where('m.user_id', '=', userId)
        .where('sites.id', '=', siteOf(target))
        .executeTakeFirst();
      return row?.role;
    },
  };
}

export type AccessRepo = ReturnType<typeof createAccessRepo>;
