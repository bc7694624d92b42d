import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { createMailer } from './mailer.ts';
import { passwordResetMail } from './messages.ts';

let smtp: TestSmtpServer;
before(async () => { smtp = await startSmtpServer(); });
after(() => smtp.close());

/** A logger as the service builds it, writing JSON lines into an array. */
function capture() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) }));
  return { log, lines };
}

const link = 'https://seo.example.test/reset-password?token=sopr_secret-token-value';
const mail = passwordResetMail({ to: 'rosa@example.com', name: 'Rosa', link, validMinutes: 30 });

describe('the mailer', () => {
  it('without SMTP_URL, on a terminal, writes the message, link included, to the log at info for the operator', async () => {
    const { log, lines } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: 'SEO <seo@example.test>', log, terminal: true });
    assert.equal(mailer.mode, 'log');
    await mailer.send(mail);
    const [line] = lines.map((l) => JSON.parse(l));
    assert.equal(line.level, 30, 'info');
    assert.match(line.msg, /NOT sent \(SMTP_URL is not set\)/);
    assert.equal(line.mail.to, 'rosa@example.com');
    assert.ok(line.mail.text.includes(link));
  });

  it('without SMTP_URL and no terminal (a log shipped elsewhere), says it was not sent, never the link', async () => {
    const { log, lines } = capture();
    await createMailer({ smtpUrl: undefined, from: 'SEO <seo@example.test>', log, terminal: false }).send(mail);
    const [line] = lines.map((l) => JSON.parse(l));
    assert.match(line.msg, /NOT sent/);
    assert.equal(line.mail.to, 'rosa@example.com');
    assert.equal(lines.join('').includes('sopr_secret-token-value'), false);
  });

  it('with SMTP_URL sends it over SMTP and logs that it went, never its text or token', async () => {
    const { log, lines } = capture();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'SEO <seo@example.test>', log });
    assert.equal(mailer.mode, 'smtp');
    await mailer.send(mail);
    mailer.close();
    const received = await smtp.mailTo('rosa@example.com');
    assert.ok(received.text.includes(link));
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /e-mail sent/);
    assert.ok(!lines.join('').includes('sopr_'), 'no token in the log');
  });

  it('fails when the server cannot be reached, so the job that sends is retried', async () => {
    const { log } = capture();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'seo@example.test', log });
    await assert.rejects(mailer.send(mail));
  });
});
