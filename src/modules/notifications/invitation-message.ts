import type { Mail } from './mailer.ts';
import type { WorkspaceRole } from '../workspaces/roles.ts';

/** What each role may do, in the invitee's words (the same split as roles.ts enforces). */
const ROLE_WORDS: Record<WorkspaceRole, string> = {
  viewer: 'read its sites, audits and tasks',
  editor: 'run audits and approve, reject, retry and roll back changes',
  admin: 'change site settings and connectors and manage members',
  owner: 'do everything, including managing owners and deleting the workspace',
};

/**
 * The invitation e-mail: plain text, so no markup can be injected through a workspace's or a
 * member's name. It names the workspace, who invited, the role, the link and when it expires.
 */
export function invitationMail(input: {
  to: string; workspace: string; inviter: string | null; role: WorkspaceRole; link: string; expiresAt: Date;
}): Mail {
  // Names as one line each, whatever an older row holds: a line break in one would start a line of its own in the mail.
  const oneLine = (text: string) => text.replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();
  const who = oneLine(input.inviter ?? 'A member');
  const workspace = oneLine(input.workspace);
  const expires = input.expiresAt.toUTCString().replace(/:\d\d GMT$/, ' UTC');
  return {
    to: input.to,
    subject: `${who} invited you to ${workspace} on Site Optimization`,
    text: [
      'Hello,',
      '',
      `${who} invited you to join the workspace "${workspace}" on Site Optimization as ${input.role === 'viewer' ? 'a' : 'an'} ${input.role}:`,
      `you will be able to ${ROLE_WORDS[input.role]}.`,
      '',
      `To accept, open this link (it works once, until ${expires}):`,
      '',
      input.link,
      '',
      'If you did not expect this invitation, ignore this message: nothing happens unless the link is opened and accepted.',
      '',
    ].join('\n'),
  };
}
