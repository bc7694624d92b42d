import type { SecretBox } from '../../lib/secret-box.ts';
import { invitationHash, invitationLink, invitationTokenContext } from '../workspaces/invitation-tokens.ts';
import type { InvitationsRepo } from '../workspaces/invitations.repo.ts';
import { invitationMail } from './invitation-message.ts';
import type { Mailer } from './mailer.ts';

/**
 * The mail.invitation job: e-mails the link the job carries, read against the invitation as it
 * is when the mail goes, so a link that no longer opens anything is never sent.
 */
export function createInvitationMailer(deps: {
  invitations: Pick<InvitationsRepo, 'forMail'>;
  mailer: Pick<Mailer, 'send'>;
  secrets: SecretBox;
  publicUrl: string;
}) {
  return {
    async send(event: { invitationId: string; token: string }) {
      const token = deps.secrets.open(event.token, invitationTokenContext(event.invitationId));
      const row = await deps.invitations.forMail(event.invitationId, invitationHash(token));
      // Resent since (a new token replaced this one), accepted, revoked or expired: nothing to send.
      if (!row || row.accepted_at || row.revoked_at || row.expires_at.getTime() <= Date.now()) return;
      await deps.mailer.send(invitationMail({
        to: row.email, workspace: row.workspace_name, inviter: row.invited_by, role: row.role,
        link: invitationLink(deps.publicUrl, token), expiresAt: row.expires_at,
      }));
    },
  };
}
