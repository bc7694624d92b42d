import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until } from './wait.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Header lines as sent, by lower-case name. */
  headers: Record<string, string>;
  /** Attached files, decoded. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface TestSmtpServer {
  /** SMTP_URL for the service under test. */
  url: string;
  received: ReceivedMail[];
  /** The first message to this address (waits up to timeoutMs for it). */
  mailTo(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The next `times` messages to this address are refused (451, as a server in trouble answers), then accepted again. */
  refuse(address: string, times?: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on an ephemeral port of this machine: what the service sends
 * goes over the wire and is parsed back (mailparser undoes quoted-printable and the like).
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'], // plain SMTP on loopback: no certificate to make
    logger: false,
    onRcptTo(address, _session, callback) {
      const left = refusals.get(address.address) ?? 0;
      if (left === 0) return callback();
      refusals.set(address.address, left - 1);
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({
          from: mail.from?.text ?? '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          headers: Object.fromEntries(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()])),
          attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
        });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailTo: (address, timeoutMs = 10_000) =>
      until(async () => received.find((m) => m.to.includes(address)), (m) => m !== undefined, `a message to ${address}`, timeoutMs) as Promise<ReceivedMail>,
    refuse: (address, times = 1) => void refusals.set(address, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
