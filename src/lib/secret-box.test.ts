import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSecretBox } from './secret-box.ts';

const box = createSecretBox('a configured secret that is long enough for the job');

test('a sealed secret opens with the same key and context, and hides the plaintext', () => {
  const sealed = box.seal('abcd EFGH 1234', 'site-1');
  assert.ok(!sealed.includes('abcd'));
  assert.notEqual(box.seal('abcd EFGH 1234', 'site-1'), sealed, 'a fresh nonce every time');
  assert.equal(box.open(sealed, 'site-1'), 'abcd EFGH 1234');
});

test('another context, another key or a changed byte does not open', () => {
  const sealed = box.seal('secret', 'site-1');
  assert.throws(() => box.open(sealed, 'site-2'));
  assert.throws(() => createSecretBox('another secret of a sufficient length, surely').open(sealed, 'site-1'));
  const parts = sealed.split('.');
  const body = Buffer.from(parts[3]!, 'base64url');
  body[0] = body[0]! ^ 1;
  assert.throws(() => box.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), 'site-1'));
  assert.throws(() => box.open('plain text', 'site-1'));
});
