import type { WorkspaceRole } from '../../db/types.ts';
import { forbidden } from '../../lib/problem.ts';

export type { WorkspaceRole };

/** Roles from least to most: each can do what the ones before it can. */
export const ROLES: readonly WorkspaceRole[] = ['viewer', 'editor', 'admin', 'owner'];

export const atLeast = (role: WorkspaceRole, needed: WorkspaceRole) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** The roles that hold at least `needed` (for a query's `role in (...)`). */
export const rolesFrom = (needed: WorkspaceRole): WorkspaceRole[] => ROLES.slice(ROLES.indexOf(needed));

/** What each role is for, in the words a 403 uses. */
const WHAT: Record<WorkspaceRole, string> = {
  viewer: 'read',
  editor: 'run audits and approve, cancel, retry or roll back tasks',
  admin: 'manage members, connectors and site settings',
  owner: 'manage owners, move sites out and delete the workspace',
};

/** A 403 that names the role the action needs and the caller's own. */
export function roleTooLow(role: WorkspaceRole, needed: WorkspaceRole) {
  return forbidden(`This needs the ${needed} role in the workspace (to ${WHAT[needed]}); you are a${role === 'admin' || role === 'owner' || role === 'editor' ? 'n' : ''} ${role}`);
}

/** Throws roleTooLow unless `role` holds `needed`. */
export function requireRole(role: WorkspaceRole, needed: WorkspaceRole): void {
  if (!atLeast(role, needed)) throw roleTooLow(role, needed);
}
