import { createHash } from 'node:crypto';

/** What an invitation's token is sealed for in the mail.invitation job: it opens for that invitation only. */
export const invitationTokenContext = (invitationId: string) => `invitation:${invitationId}`;

export const invitationHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The web app's page that accepts an invitation (web/src/pages/accept.tsx). */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invitations/${token}`;
