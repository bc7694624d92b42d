import { notFound } from '../../lib/problem.ts';
import type { AccessRepo, AccessTarget } from './access.repo.ts';
import { requireRole, type WorkspaceRole } from './roles.ts';

const NAMES = { site: 'Site', task: 'Task', audit: 'Audit', keyword: 'Keyword' } as const;

/**
 * The one check before an action on a site or what hangs off it: 404 for a caller who is no
 * member of its workspace (existence is not leaked), 403 naming the role needed for a member
 * whose role is too low.
 */
export function createAccess(repo: AccessRepo) {
  return {
    async require(userId: string, target: AccessTarget, needed: WorkspaceRole): Promise<WorkspaceRole> {
      const role = await repo.roleOn(userId, target);
      if (role === undefined) throw notFound(NAMES[Object.keys(target)[0] as keyof typeof NAMES]);
      requireRole(role, needed);
      return role;
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
