import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createDatabase } from '../db/client.ts';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../test/helpers/app.ts';
import { problemServerOptions, registerErrorHandling } from './errors.ts';

let ctx: TestContext;
let user: SignedInUser;

before(async () => {
  ctx = await startTestApp();
  user = await signUp(ctx);
});
after(() => ctx.close());

function assertProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const body = JSON.parse(res.body) as { status: number; type: string; detail: string };
  assert.equal(body.status, status);
  assert.match(body.type, /^urn:site-optimization:problem:/);
}

describe('NUL characters (PostgreSQL refuses 0x00 in text)', () => {
  it('are refused with 422 in the unauthenticated login body', async () => {
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a\u0000@example.com', password: 'x' } });
    assertProblem(res, 422);
    assert.deepEqual(res.data.errors, [{ path: '/body/email', message: 'must not contain NUL (\\u0000) characters' }]);
  });

  it('are refused with 422 in nested bodies, keys, query strings and paths', async () => {
    const cases = [
      { method: 'POST' as const, url: '/api/v1/sites', payload: { name: 'n\u0000', domain: 'nul.example.com' } },
      { method: 'POST' as const, url: '/api/v1/sites', payload: { name: 'n', domain: 'nul.example.com', ['k\u0000']: 1 } },
      { method: 'POST' as const, url: '/api/v1/auth/refresh', payload: { refresh_token: 'sor_\u0000' } },
      { method: 'GET' as const, url: '/api/v1/tasks?status=%00' },
      { method: 'GET' as const, url: `/api/v1/audits/${randomUUID()}/issues/title%00missing` },
    ];
    for (const c of cases) {
      const res = await call(ctx, { ...c, token: user.accessToken });
      assertProblem(res, 422);
      // Refused as a NUL, not by a later check that happens to catch this value.
      assert.match(res.data.detail, /NUL/, c.url);
    }
  });

  it('are still fine when escaped in a way that is not a NUL', async () => {
    const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'back\\u0000slash', domain: 'nul-ok.example.com' } });
    assert.equal(res.statusCode, 201, res.body);
  });
});

describe('paging bounds: any value is 200 or 422, never 500', () => {
  const lists = ['/api/v1/tasks', '/api/v1/tasks/awaiting-approval', `/api/v1/keywords?site_id=${randomUUID()}`];
  it('refuses out-of-range and non-integer page and page_size', async () => {
    for (const list of lists) {
      for (const query of ['page=1e20', 'page=Infinity', 'page=-1', 'page=1.5', 'page=1000001', 'page=NaN', 'page_size=1e20', 'page_size=-Infinity', 'page_size=0.5']) {
        const url = `${list}${list.includes('?') ? '&' : '?'}${query}`;
        assertProblem(await call(ctx, { method: 'GET', url, token: user.accessToken }), 422);
      }
    }
  });

  it('accepts the highest page number (an empty page)', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/tasks?page=1000000&page_size=100', token: user.accessToken });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.data.items, []);
  });
});

describe('errors raised before routing are problem documents with X-Request-Id', () => {
  it('a malformed percent-escape is 400', async () => {
    assertProblem(await call(ctx, { method: 'GET', url: '/api/v1/sites/%zz', token: user.accessToken }), 400);
  });

  it('a path parameter over the length limit is 414', async () => {
    assertProblem(await call(ctx, { method: 'GET', url: `/api/v1/sites/${'a'.repeat(500)}`, token: user.accessToken }), 414);
  });

  it('oversized headers are 431 (from the HTTP parser, on a real socket)', async (t) => {
    const app = Fastify({ ...problemServerOptions });
    app.get('/', async () => 'ok');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    t.after(() => app.close());
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      });
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', (error) => (text ? resolve(text) : reject(error)));
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 431 /);
    assert.match(head, /content-type: application\/problem\+json/i);
    assert.match(head, /x-request-id: [0-9a-f-]{36}/i);
    assert.equal(JSON.parse(body).code, 'header_fields_too_large');
  });
});

describe('a request without a Host header', () => {
  /** Sends raw bytes to the service and returns the raw answer. */
  async function rawExchange(address: string, request: string) {
    const { port } = new URL(address);
    return new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.on('data', (chunk) => {
        text += chunk;
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) socket.end();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', (error) => (text ? resolve(text) : reject(error)));
    });
  }

  it('is a 400 problem with X-Request-Id over HTTP/1.1 (not Node\'s bare 400), and fine over HTTP/1.0', async (t) => {
    const app = await startTestApp({}, { database: ctx.database });
    t.after(() => app.close());
    const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const raw = await rawExchange(address, 'GET /live HTTP/1.1\r\nConnection: close\r\n\r\n');
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /content-type: application\/problem\+json/i);
    assert.match(head, /x-request-id: [0-9a-f-]{36}/i);
    assert.match(JSON.parse(body).detail, /no Host header/);
    const old = await rawExchange(address, 'GET /live HTTP/1.0\r\n\r\n');
    assert.match(old, /^HTTP\/1\.1 200 /, 'HTTP/1.0 has no Host header to require');
  });
});

describe('a database that cannot be reached during a request', () => {
  it('is a 503 problem with Retry-After, not a 500', async (t) => {
    // Nothing listens on port 1: every query fails to connect, as when the server is down.
    const database = await createDatabase({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' });
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/probe', async () => (await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows);
    t.after(async () => {
      await app.close();
      await database.close();
    });
    const res = await app.inject({ method: 'GET', url: '/probe' });
    assert.equal(res.statusCode, 503, res.body);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.json().code, 'service_unavailable');
  });
});
