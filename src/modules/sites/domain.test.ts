import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import { normalizeDomain } from './domain.ts';

const ok = (input: string, allowPrivate: PrivateTargets = false) => {
  const result = normalizeDomain(input, allowPrivate);
  assert.ok(result.ok, `${input}: ${!result.ok && result.reason}`);
  return result.domain;
};
const refused = (input: string, allowPrivate: PrivateTargets = false) => {
  const result = normalizeDomain(input, allowPrivate);
  assert.equal(result.ok, false, `${input} should be refused`);
  return !result.ok ? result.reason : '';
};

describe('normalizeDomain', () => {
  it('reduces URLs and host names to a lower-case ASCII host', () => {
    assert.equal(ok('Example.COM'), 'example.com');
    assert.equal(ok('  https://www.example.com/a/b?c=d#e  '), 'www.example.com');
    assert.equal(ok('http://example.com:8080'), 'example.com');
    assert.equal(ok('münchen.de'), 'xn--mnchen-3ya.de');
    assert.equal(ok('sub.domain.co.uk.'), 'sub.domain.co.uk');
  });

  it('refuses what is not a public host name, saying why', () => {
    assert.match(refused('192.168.1.1'), /IP address/);
    assert.match(refused('[2001:db8::1]'), /IP address/);
    assert.match(refused('localhost'), /public/);
    assert.match(refused('nas.home.arpa'), /local or reserved/);
    assert.match(refused('mailto://x@y.com'), /http or https/);
    assert.match(refused('https://user:pw@example.com'), /user name or password/);
    assert.match(refused(`${'a'.repeat(64)}.com`), /not a valid/);
    assert.match(refused('under_score.com'), /not a valid/);
  });

  it('accepts private targets and keeps their port when allowed', () => {
    assert.equal(ok('127.0.0.1:8080', true), '127.0.0.1:8080');
    assert.equal(ok('http://localhost:3000/x', true), 'localhost:3000');
    assert.equal(ok('wordpress.test', true), 'wordpress.test');
    refused('bad host', true);
  });

  it('accepts only the listed private hosts when given a list', () => {
    const demo = { hosts: ['127.0.0.1:8123'] };
    assert.equal(ok('http://127.0.0.1:8123/', demo), '127.0.0.1:8123');
    assert.match(refused('127.0.0.1:8124', demo), /IP address/);
    assert.match(refused('localhost:8123', demo), /public domain name/);
    assert.equal(ok('example.com', demo), 'example.com');
  });
});
