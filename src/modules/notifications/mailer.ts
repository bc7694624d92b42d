import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Extra headers (List-Unsubscribe and the like). */
  headers?: Record<string, string>;
  /** Files sent with it (a report's PDF); the log names them, never their content. */
  attachments?: MailAttachment[];
}

export interface MailAttachment { filename: string; contentType: string; content: Buffer }

const attachmentsOf = (mail: Mail) => mail.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, bytes: a.content.length }));

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export interface Mailer {
  /** 'smtp' sends through SMTP_URL; 'log' writes each message to the log instead. */
  readonly mode: 'smtp' | 'log';
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * E-mail through the SMTP server SMTP_URL names (nodemailer), from MAIL_FROM. Without one, a
 * message is written to the log at info, text and all, so the operator of a small installation
 * can still pass a reset link on; with one, the log says only that a message went, never its
 * text (it holds a one-time link). A failure throws, so the job that sends it is retried.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; log: Log; terminal?: boolean }): Mailer {
  const { log } = options;
  // Only an operator at a terminal reads the text: a log shipped elsewhere must not carry a one-time link that takes over an
  // account (anyone may ask for a reset). Elsewhere the log says a message was not sent, to whom, and why.
  const terminal = options.terminal ?? process.stdout.isTTY === true;
  if (!options.smtpUrl) {
    return {
      mode: 'log',
      async send(mail) {
        if (terminal) {
          log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text, attachments: attachmentsOf(mail) } },
            'e-mail NOT sent (SMTP_URL is not set): its text is logged here for the operator to pass on');
        } else {
          log.warn({ mail: { to: mail.to, subject: mail.subject, attachments: attachmentsOf(mail) } }, 'e-mail NOT sent (SMTP_URL is not set; its text is shown only on a terminal)');
        }
      },
      close() {},
    };
  }
  // Bounded waits: a server that does not answer fails the attempt, and the job retries later.
  const transport = nodemailer.createTransport({
    url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, logger: false,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    mode: 'smtp',
    async send(mail) {
      const sent = await transport.sendMail({
        from: options.from, to: mail.to, subject: mail.subject, text: mail.text,
        ...(mail.headers ? { headers: mail.headers } : {}),
        ...(mail.attachments ? { attachments: mail.attachments } : {}),
      });
      log.info({ messageId: sent.messageId, subject: mail.subject }, 'e-mail sent');
    },
    close: () => transport.close(),
  };
}
