import { sql, type Kysely } from 'kysely';
import type { DB, WorkspaceRole } from '../../db/types.ts';

const COLUMNS = ['id', 'workspace_id', 'email', 'role', 'expires_at', 'created_at', 'accepted_at', 'revoked_at'] as const;

/** Invitations to a workspace: only each link's SHA-256 is kept. */
export function createInvitationsRepo(db: Kysely<DB>) {
  return {
    create(row: { workspaceId: string; email: string; role: WorkspaceRole; tokenHash: string; invitedBy: string; expiresAt: Date }) {
      return db.insertInto('workspace_invitations')
        .values({ workspace_id: row.workspaceId, email: row.email, role: row.role, token_hash: row.tokenHash, invited_by: row.invitedBy, expires_at: row.expiresAt })
        .returning(COLUMNS).executeTakeFirstOrThrow();
    },

    /** The workspace's invitations, newest first. */
    list(workspaceId: string) {
      return db.selectFrom('workspace_invitations').select(COLUMNS).where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').orderBy('id').execute();
    },

    /** What the link's holder is shown before accepting: the workspace's name and who invited them. */
    preview(tokenHash: string) {
      return db.selectFrom('workspace_invitations as i')
        .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
        .leftJoin('users as u', 'u.id', 'i.invited_by')
        .select(['i.id', 'i.workspace_id', 'i.email', 'i.role', 'i.expires_at', 'i.created_at', 'i.accepted_at', 'i.revoked_at', 'w.name as workspace_name', 'u.name as invited_by'])
        .where('i.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** One invitation of the workspace (undefined: none of this workspace). */
    find(workspaceId: string, invitationId: string) {
      return db.selectFrom('workspace_invitations').select(COLUMNS).where('id', '=', invitationId).where('workspace_id', '=', workspaceId).executeTakeFirst();
    },

    /**
     * Resending: a new token (the old link stops working), a new expiry, and the resender as its sender (accept checks the
     * sender's right). Only while neither accepted nor revoked; an expired one is renewed. Undefined when it was not.
     */
    reissue(row: { workspaceId: string; invitationId: string; tokenHash: string; invitedBy: string; expiresAt: Date }) {
      return db.updateTable('workspace_invitations')
        .set({ token_hash: row.tokenHash, invited_by: row.invitedBy, expires_at: row.expiresAt })
        .where('id', '=', row.invitationId).where('workspace_id', '=', row.workspaceId)
        .where('accepted_at', 'is', null).where('revoked_at', 'is', null)
        .returning(COLUMNS).executeTakeFirst();
    },

    /** What the invitation e-mail says, only while `tokenHash` is still its link's (a resend replaces it). */
    forMail(invitationId: string, tokenHash: string) {
      return db.selectFrom('workspace_invitations as i')
        .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
        .leftJoin('users as u', 'u.id', 'i.invited_by')
        .select(['i.email', 'i.role', 'i.expires_at', 'i.accepted_at', 'i.revoked_at', 'w.name as workspace_name', 'u.name as invited_by'])
        .where('i.id', '=', invitationId).where('i.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    findByHash(tokenHash: string) {
      return db.selectFrom('workspace_invitations').select([...COLUMNS, 'invited_by']).where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /** Revokes a pending invitation of the workspace; the row as it is after (undefined: none of this workspace). */
    async revoke(workspaceId: string, invitationId: string) {
      await db.updateTable('workspace_invitations').set({ revoked_at: sql`now()` })
        .where('id', '=', invitationId).where('workspace_id', '=', workspaceId)
        .where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute();
      return db.selectFrom('workspace_invitations').select(COLUMNS).where('id', '=', invitationId).where('workspace_id', '=', workspaceId).executeTakeFirst();
    },

    /** Marks it used, once: false when another request used, or someone revoked, it first (or it expired). */
    async markAccepted(invitationId: string, userId: string, trx: Kysely<DB> = db) {
      const result = await trx.updateTable('workspace_invitations').set({ accepted_at: sql`now()`, accepted_by: userId })
        .where('id', '=', invitationId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type InvitationsRepo = ReturnType<typeof createInvitationsRepo>;
export type InvitationRow = Awaited<ReturnType<InvitationsRepo['list']>>[number];
