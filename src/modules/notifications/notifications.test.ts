import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSecretBox } from '../../lib/secret-box.ts';
import type { Mail, Mailer } from './mailer.ts';
import { createNotificationsService, resetTokenContext } from './notifications.service.ts';

const secrets = createSecretBox('a-secrets-key-that-is-long-enough-for-tests');
const account = { id: randomUUID(), email: 'rosa@example.com', name: 'Rosa', role: 'user' as const, passwordHash: 'x', disabled: false };

function setUp(found: typeof account | undefined) {
  const sent: Mail[] = [];
  const mailer: Mailer = { mode: 'log', send: async (mail) => void sent.push(mail), close() {} };
  const service = createNotificationsService({ users: { findAccount: async () => found }, mailer, secrets, publicUrl: 'https://seo.example.test' });
  return { sent, service };
}
const event = (resetId = randomUUID(), token = 'sopr_the-token') =>
  ({ userId: account.id, resetId, token: secrets.seal(token, resetTokenContext(resetId)), validMinutes: 30 });

describe('the password-reset e-mail', () => {
  it("goes to the account's address with the link to the web app's reset page", async () => {
    const { sent, service } = setUp(account);
    await service.sendPasswordReset(event());
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.to, 'rosa@example.com');
    assert.ok(sent[0]!.text.includes('https://seo.example.test/reset-password?token=sopr_the-token'));
  });

  it('is not sent to an account deleted or disabled since the link was made', async () => {
    for (const found of [undefined, { ...account, disabled: true }]) {
      const { sent, service } = setUp(found);
      await service.sendPasswordReset(event());
      assert.equal(sent.length, 0);
    }
  });

  it('opens only a token sealed for this very reset', async () => {
    const { service } = setUp(account);
    await assert.rejects(service.sendPasswordReset({ ...event(), resetId: randomUUID() }));
  });
});
