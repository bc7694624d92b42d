import type { SecretBox } from '../../lib/secret-box.ts';
import type { UsersService } from '../users/users.service.ts';
import type { Mailer } from './mailer.ts';
import { passwordResetMail } from './messages.ts';

/** What a reset token is sealed for in the mail.password-reset job: it opens for that reset only. */
export const resetTokenContext = (resetId: string) => `password-reset:${resetId}`;

/** The web app's page that reads a reset token (web/src/pages/reset-password.tsx). */
export const RESET_PAGE = '/reset-password';

/**
 * Builds and sends the service's e-mails from the events other modules send as jobs (they
 * never build a message themselves): the address and name are read when the mail goes.
 */
export function createNotificationsService(deps: {
  users: Pick<UsersService, 'findAccount'>;
  mailer: Mailer;
  secrets: SecretBox;
  publicUrl: string;
}) {
  return {
    async sendPasswordReset(event: { userId: string; resetId: string; token: string; validMinutes: number }) {
      const account = await deps.users.findAccount(event.userId);
      // Gone or disabled since the link was made: the link opens nothing, so nothing is sent.
      if (!account || account.disabled) return;
      const token = deps.secrets.open(event.token, resetTokenContext(event.resetId));
      const link = `${deps.publicUrl}${RESET_PAGE}?token=${encodeURIComponent(token)}`;
      await deps.mailer.send(passwordResetMail({ to: account.email, name: account.name, link, validMinutes: event.validMinutes }));
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
