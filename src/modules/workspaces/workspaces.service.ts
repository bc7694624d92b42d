import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Transact } from '../../db/transact.ts';
import type { JobSender } from '../../jobs/queue.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/problem.ts';
import { createUsersRepo } from '../users/users.repo.ts';
import { hashPassword } from '../users/passwords.ts';
import { normalizeEmail } from '../users/users.service.ts';
import { invitationHash as sha256, invitationLink, invitationTokenContext } from './invitation-tokens.ts';
import { createInvitationsRepo, type InvitationRow, type InvitationsRepo } from './invitations.repo.ts';
import { atLeast, requireRole, type WorkspaceRole } from './roles.ts';
import { createWorkspacesRepo, type WorkspacesRepo } from './workspaces.repo.ts';
import type { AcceptInvitationInput, CreateInvitationInput } from './workspaces.schemas.ts';

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;
const newExpiry = () => new Date(Date.now() + INVITATION_DAYS * 86_400_000);

type WorkspaceRow = NonNullable<Awaited<ReturnType<WorkspacesRepo['find']>>>;
const present = ({ personal_of, ...row }: WorkspaceRow) => ({ ...row, personal: personal_of !== null });

function statusOf(invitation: InvitationRow, now = Date.now()) {
  if (invitation.accepted_at) return 'accepted' as const;
  if (invitation.revoked_at) return 'revoked' as const;
  return new Date(invitation.expires_at).getTime() <= now ? 'expired' as const : 'pending' as const;
}
function presentInvitation(row: InvitationRow) {
  const { accepted_at: _accepted, revoked_at: _revoked, ...shown } = row;
  return { ...shown, status: statusOf(row) };
}

export function createWorkspacesService(deps: {
  repo: WorkspacesRepo;
  invitations: InvitationsRepo;
  transact: Transact;
  /** Sends mail.invitation in the transaction that makes or renews the link. */
  queue: JobSender;
  secrets: SecretBox;
  publicUrl: string;
  /** Tokens for an account made on accepting an invitation (the auth service's sign-in). */
  signIn: (input: { email: string; password: string; ip: string }) => Promise<unknown>;
}) {
  const { repo } = deps;

  /** The workspace as the caller sees it, and the caller's role: 404 for a non-member, 403 below `needed`. */
  async function requireWorkspace(userId: string, workspaceId: string, needed: WorkspaceRole = 'viewer') {
    const workspace = await repo.find(userId, workspaceId);
    if (!workspace) throw notFound('Workspace');
    requireRole(workspace.role, needed);
    return workspace;
  }

  /** The invitation e-mail goes as a job committed with the link: never a link no mail will carry, nor a mail for a link never made. */
  const mailInvitation = (invitationId: string, token: string, trx: Kysely<DB>) =>
    deps.queue.send('mail.invitation', { invitationId, token: deps.secrets.seal(token, invitationTokenContext(invitationId)) }, { tx: trx });
  const withLink = (row: InvitationRow, token: string) => ({ ...presentInvitation(row), token, link: invitationLink(deps.publicUrl, token) });

  /** A personal workspace is its user's alone. */
  const notShared = (workspace: WorkspaceRow, what: string) => {
    if (workspace.personal_of !== null) throw conflict(`A personal workspace cannot be ${what}: create a workspace for the client or team`);
  };

  return {
    requireWorkspace,

    /** The caller's personal workspace's id (where a site goes when no workspace is named). */
    personalOf: (userId: string) => repo.personalOf(userId),

    async list(userId: string) {
      const items = (await repo.list(userId)).map(present);
      return { items, total: items.length };
    },

    async get(userId: string, workspaceId: string) {
      return present(await requireWorkspace(userId, workspaceId));
    },

    async create(userId: string, name: string) {
      const id = await repo.create(userId, name.trim());
      return present((await repo.find(userId, id))!);
    },

    async rename(userId: string, workspaceId: string, name: string) {
      await requireWorkspace(userId, workspaceId, 'admin');
      await repo.rename(workspaceId, name.trim());
      return present((await repo.find(userId, workspaceId))!);
    },

    /** Only an owner, only a shared workspace, only once it holds no site (its sites are moved or deleted first). */
    async remove(userId: string, workspaceId: string) {
      const workspace = await requireWorkspace(userId, workspaceId, 'owner');
      notShared(workspace, 'deleted');
      if (!(await repo.deleteEmpty(workspaceId))) throw conflict('The workspace still holds sites: move them to another workspace or delete them first');
    },

    async members(userId: string, workspaceId: string) {
      await requireWorkspace(userId, workspaceId);
      const items = await repo.members(workspaceId);
      return { items, total: items.length };
    },

    /**
     * An admin changes members other than owners; only an owner makes or unmakes an owner. The last owner stays one.
     */
    async setRole(userId: string, workspaceId: string, memberId: string, role: WorkspaceRole) {
      const workspace = await requireWorkspace(userId, workspaceId, 'admin');
      const current = await repo.roleOf(workspaceId, memberId);
      if (!current) throw notFound('Member');
      if (current === 'owner' || role === 'owner') requireRole(workspace.role, 'owner');
      const changed = await repo.changeMember(workspaceId, memberId, role, current);
      if (changed === 'changed') throw conflict('The member\'s role changed meanwhile: reload and try again');
      if (changed === 'last_owner') throw conflict('A workspace always has an owner: make another member owner first');
      if (!changed) throw notFound('Member');
      const member = (await repo.members(workspaceId)).find((m) => m.user_id === memberId);
      if (!member) throw notFound('Member'); // removed meanwhile
      return member;
    },

    /** Removes a member (an admin; an owner for an owner), or the caller leaves (any member). The last owner cannot leave. */
    async removeMember(userId: string, workspaceId: string, memberId: string) {
      const workspace = await requireWorkspace(userId, workspaceId);
      let current: WorkspaceRole | undefined;
      if (memberId !== userId) {
        requireRole(workspace.role, 'admin');
        current = await repo.roleOf(workspaceId, memberId);
        if (!current) throw notFound('Member');
        if (current === 'owner') requireRole(workspace.role, 'owner');
      } else {
        notShared(workspace, 'left');
      }
      const changed = await repo.changeMember(workspaceId, memberId, null, current);
      if (changed === 'changed') throw conflict('The member\'s role changed meanwhile: reload and try again');
      if (changed === 'last_owner') throw conflict('A workspace always has an owner: make another member owner first');
      if (!changed) throw notFound('Member');
    },

    /** A single-use link valid INVITATION_DAYS days, shown once and e-mailed. An admin invites; only an owner invites an owner. */
    async invite(userId: string, workspaceId: string, input: CreateInvitationInput) {
      const workspace = await requireWorkspace(userId, workspaceId, 'admin');
      notShared(workspace, 'shared');
      if (input.role === 'owner') requireRole(workspace.role, 'owner');
      const token = randomBytes(32).toString('base64url');
      const row = await deps.transact(async (trx) => {
        const created = await createInvitationsRepo(trx).create({
          workspaceId, email: normalizeEmail(input.email), role: input.role, tokenHash: sha256(token), invitedBy: userId, expiresAt: newExpiry(),
        });
        await mailInvitation(created.id, token, trx);
        return created;
      });
      return withLink(row, token);
    },

    /**
     * A new link for an invitation not yet accepted nor revoked (an expired one too): the old link stops working, the
     * INVITATION_DAYS start again, and it is e-mailed again. The same roles as inviting; the resender becomes its sender.
     */
    async resendInvitation(userId: string, workspaceId: string, invitationId: string) {
      const workspace = await requireWorkspace(userId, workspaceId, 'admin');
      const current = await deps.invitations.find(workspaceId, invitationId);
      if (!current) throw notFound('Invitation');
      if (current.role === 'owner') requireRole(workspace.role, 'owner');
      const token = randomBytes(32).toString('base64url');
      const row = await deps.transact(async (trx) => {
        const renewed = await createInvitationsRepo(trx).reissue({ workspaceId, invitationId, tokenHash: sha256(token), invitedBy: userId, expiresAt: newExpiry() });
        if (renewed) await mailInvitation(renewed.id, token, trx);
        return renewed;
      });
      if (!row) {
        const now = await deps.invitations.find(workspaceId, invitationId);
        throw conflict(now?.accepted_at ? 'The invitation was already accepted: nothing to resend' : 'The invitation was revoked: invite the address again instead');
      }
      return withLink(row, token);
    },

    async invitations(userId: string, workspaceId: string) {
      await requireWorkspace(userId, workspaceId, 'admin');
      const items = (await deps.invitations.list(workspaceId)).map(presentInvitation);
      return { items, total: items.length };
    },

    async revokeInvitation(userId: string, workspaceId: string, invitationId: string) {
      await requireWorkspace(userId, workspaceId, 'admin');
      const row = await deps.invitations.revoke(workspaceId, invitationId);
      if (!row) throw notFound('Invitation');
      if (row.accepted_at) throw conflict('The invitation was already accepted: remove the member instead');
    },

    /** What an invitation's link offers, for its holder (the link is the key: no sign-in), before accepting. */
    async preview(token: string) {
      const row = await deps.invitations.preview(sha256(token));
      if (!row) throw notFound('Invitation');
      const { workspace_name, invited_by, ...invitation } = row;
      return { ...presentInvitation(invitation), workspace_name, invited_by };
    },

    /**
     * Accepts an invitation: a signed-in caller (its e-mail must be the invitation's) joins; someone without an account
     * gets one (name and password) and joins, in one transaction. Used, revoked or expired: 409.
     */
    async accept(token: string, caller: { userId: string; email: string } | null, input: AcceptInvitationInput, ip: string) {
      const invitation = await deps.invitations.findByHash(sha256(token));
      if (!invitation) throw notFound('Invitation');
      const status = statusOf(invitation);
      if (status !== 'pending') throw conflict(`The invitation is ${status === 'accepted' ? 'already used' : status}: ask for a new one`);
      // An invitation is only as good as its sender's right to send it, now: one removed or demoted since leaves it void.
      const sender = invitation.invited_by === null ? undefined : await repo.roleOf(invitation.workspace_id, invitation.invited_by);
      if (!sender || !atLeast(sender, invitation.role === 'owner' ? 'owner' : 'admin')) {
        throw conflict('The member who sent this invitation can no longer invite: ask a member who can for a new link');
      }
      if (caller) {
        if (caller.email !== invitation.email) throw forbidden('This invitation was sent to another e-mail address: sign in with that account');
        await deps.transact(async (trx) => {
          if (!(await createInvitationsRepo(trx).markAccepted(invitation.id, caller.userId))) throw conflict('The invitation was used, revoked or expired meanwhile');
          await createWorkspacesRepo(trx).addMember(invitation.workspace_id, caller.userId, invitation.role);
        });
        return { workspace: present((await repo.find(caller.userId, invitation.workspace_id))!) };
      }
      if (!input.name || !input.password) {
        throw unauthorized('Sign in to accept this invitation, or send a name and a password to create an account for its e-mail address');
      }
      const passwordHash = await hashPassword(input.password);
      const userId = await deps.transact(async (trx) => {
        // (Unproven: the inviter holds this link too. A reset e-mailed to the address, or Google sign-in with it, proves it.)
        const user = await createUsersRepo(trx).insert({ email: invitation.email, name: input.name!.trim(), role: 'user', passwordHash, unverified: true });
        if (!user) throw conflict('An account with this e-mail address exists: sign in and accept the invitation');
        if (!(await createInvitationsRepo(trx).markAccepted(invitation.id, user.id))) throw conflict('The invitation was used, revoked or expired meanwhile');
        await createWorkspacesRepo(trx).addMember(invitation.workspace_id, user.id, invitation.role);
        return user.id;
      });
      const tokens = await deps.signIn({ email: invitation.email, password: input.password, ip });
      return { workspace: present((await repo.find(userId, invitation.workspace_id))!), ...(tokens as object) };
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
