import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { CONTENT_SECURITY_POLICY, webApp } from './web.ts';

let app: FastifyInstance;
let dist: string;

before(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync('console.log("app")'));
  app = Fastify();
  app.get('/api/v1/thing', () => ({ ok: true }));
  await app.register(webApp, { dist });
  await app.ready();
});
after(async () => {
  await app.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers index.html for the app and its deep links, revalidated on every load, under a strict CSP', async () => {
    for (const url of ['/', '/sites/5b0f6c8e-1d1e-4c59-9d7a-3c1f4a0e2b11', '/approvals?site=x']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.match(res.body, /<title>app<\/title>/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
    assert.match(CONTENT_SECURITY_POLICY, /script-src 'self'(;|$)/, 'no inline or eval scripts');
    assert.match(CONTENT_SECURITY_POLICY, /frame-ancestors 'none'/);
    const etag = (await app.inject({ url: '/' })).headers.etag as string;
    assert.equal((await app.inject({ url: '/keywords', headers: { 'if-none-match': etag } })).statusCode, 304);
  });

  it('caches hashed assets for a year as immutable', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(res.headers['content-type']), /javascript/);
    assert.equal(res.body, 'console.log("app")', 'plain for a client that accepts no encoding');
    const br = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br', 'the build\'s brotli copy');
    assert.equal(zlib.brotliDecompressSync(br.rawPayload).toString(), 'console.log("app")');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await app.inject({ url: '/assets/missing-000.js' })).statusCode, 404);
    const escape = await app.inject({ url: '/assets/..%2findex.html' });
    assert.notEqual(escape.headers['cache-control'], 'public, max-age=31536000, immutable', 'no way out of the assets folder');
  });

  it('leaves the API and the docs to their own routes: an unknown API path is a 404, never the app', async () => {
    assert.deepEqual((await app.inject({ url: '/api/v1/thing' })).json(), { ok: true });
    for (const url of ['/api/v1/nothing-here', '/api', '/docs/missing']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.doesNotMatch(res.body, /<title>app/);
    }
    assert.equal((await app.inject({ method: 'POST', url: '/sites' })).statusCode, 404, 'only GET serves the app');
  });
});
