import type { Mail } from './mailer.ts';

/** The password-reset e-mail: plain text, so no markup can be injected through a name. */
export function passwordResetMail(input: { to: string; name: string; link: string; validMinutes: number }): Mail {
  return {
    to: input.to,
    subject: 'Reset your Site Optimization password',
    text: [
      `Hello ${input.name},`,
      '',
      `Someone, hopefully you, asked to reset the password of the Site Optimization account ${input.to}.`,
      `To choose a new password, open this link within ${input.validMinutes} minutes:`,
      '',
      input.link,
      '',
      'The link works once. If you did not ask for it, ignore this message: your password stays as it is.',
      '',
    ].join('\n'),
  };
}
