import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { loggerOptions, redactUrl } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
  return { lines, stream };
}

describe('logs carry no secrets', () => {
  it('drop the parameters and row details a failed embedded-database query carries', async () => {
    const pglite = await PGlite.create();
    const { lines, stream } = capture();
    const log = pino(loggerOptions('info') as LoggerOptions, stream);
    try {
      await pglite.exec('create table t (email text primary key, hash text not null)');
      await pglite.query('insert into t values ($1, $2)', ['alice@example.com', '$argon2id$v=19$secret-hash']);
      await pglite.query('insert into t values ($1, $2)', ['alice@example.com', '$argon2id$v=19$secret-hash']);
      assert.fail('the duplicate should have failed');
    } catch (error) {
      assert.ok((error as { params?: unknown }).params, 'PGlite does attach the parameters');
      log.error({ err: new Error('wrapped', { cause: error }) }, 'request failed');
      log.error({ err: error }, 'request failed');
    } finally {
      await pglite.close();
    }
    const text = lines.join('');
    assert.match(text, /23505/, 'the SQLSTATE is still logged');
    assert.ok(!text.includes('alice@example.com'), text);
    assert.ok(!text.includes('secret-hash'), text);
  });

  it('redact the values of secret-named query parameters in request logs', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { ...(loggerOptions('info') as object), stream } });
    app.get('/cb', async () => 'ok');
    await app.inject({ method: 'GET', url: '/cb?code=4/0Abc-secret&state=sealed-state&site=a&ACCESS_TOKEN=tok-secret&refresh%5Ftoken=r-secret' });
    await app.close();
    const text = lines.join('');
    for (const secret of ['0Abc-secret', 'sealed-state', 'tok-secret', 'r-secret']) assert.ok(!text.includes(secret), secret);
    assert.match(text, /"url":"\/cb\?code=\[redacted\]&state=\[redacted\]&site=a&ACCESS_TOKEN=\[redacted\]&refresh%5Ftoken=\[redacted\]"/);
  });

  it('leave other URLs as they are', () => {
    assert.equal(redactUrl('/api/v1/keywords?site_id=x&page=2'), '/api/v1/keywords?site_id=x&page=2');
    assert.equal(redactUrl('/a?password'), '/a?password', 'a name without a value has nothing to hide');
    assert.equal(redactUrl('/api/v1/invitations/abcDEF_123-xyz/accept'), '/api/v1/invitations/[redacted]/accept', 'an invitation link is a capability');
    assert.equal(redactUrl('/invitations/abcDEF_123-xyz?x=1'), '/invitations/[redacted]?x=1');
    assert.equal(redactUrl('/a?key=1&monkey=2'), '/a?key=[redacted]&monkey=2');
  });
});
