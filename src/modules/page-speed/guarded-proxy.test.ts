import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startGuardedProxy, type GuardedProxy } from './guarded-proxy.ts';

/** A local server that counts the requests it got. */
async function startCountingServer(body: string) {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, get hits() { return hits; }, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const proxyPort = (proxy: GuardedProxy) => Number(new URL(proxy.url).port);

/** A plain-HTTP request through the proxy (absolute form, as a browser sends it to a proxy). */
function viaProxy(proxy: GuardedProxy, url: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort(proxy), path: url, headers: { host: URL.canParse(url) ? new URL(url).host : 'localhost' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

/** A CONNECT tunnel through the proxy, then a request over it: the tunnel's status and what came back. */
function tunnel(proxy: GuardedProxy, authority: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort(proxy), method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, body: '' });
      }
      let body = '';
      socket.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: 200, body }));
      socket.write(`GET / HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', reject).end();
  });
}

describe('the page-speed proxy: every request of the browser under test behind the address guard', () => {
  let site: Awaited<ReturnType<typeof startCountingServer>>;
  let internal: Awaited<ReturnType<typeof startCountingServer>>;
  let proxy: GuardedProxy;

  before(async () => {
    site = await startCountingServer('the site');
    internal = await startCountingServer('an internal service');
    // As `npm run demo` and the tests audit a local site: that one origin allowed, every other private address refused.
    proxy = await startGuardedProxy({ allowPrivate: { hosts: [`127.0.0.1:${site.port}`] } });
  });
  after(async () => {
    await proxy.close();
    await site.close();
    await internal.close();
  });

  it('forwards plain HTTP and tunnels CONNECT to the site it may reach', async () => {
    assert.deepEqual(await viaProxy(proxy, `http://127.0.0.1:${site.port}/page`), { status: 200, body: 'the site' });
    const tunnelled = await tunnel(proxy, `127.0.0.1:${site.port}`);
    assert.equal(tunnelled.status, 200);
    assert.match(tunnelled.body, /^HTTP\/1\.1 200 [\s\S]*the site/);
    assert.equal(site.hits, 2);
  });

  it('refuses a private address, by IP or by a name that resolves to one, and never reaches it', async () => {
    assert.equal((await viaProxy(proxy, `http://127.0.0.1:${internal.port}/admin`)).status, 403);
    assert.equal((await tunnel(proxy, `127.0.0.1:${internal.port}`)).status, 403);
    assert.equal((await tunnel(proxy, `localhost:${internal.port}`)).status, 403);
    assert.equal((await viaProxy(proxy, `http://localhost:${internal.port}/admin`)).status, 403);
    assert.equal(internal.hits, 0);
    assert.ok(proxy.refused.includes(`localhost:${internal.port}`), proxy.refused.join(', '));
  });

  it('refuses every private address when none is allowed', async () => {
    const strict = await startGuardedProxy({ allowPrivate: false });
    try {
      assert.equal((await tunnel(strict, `127.0.0.1:${site.port}`)).status, 403);
      assert.equal((await viaProxy(strict, `http://[::1]:${site.port}/`)).status, 403);
      assert.equal((await tunnel(strict, `10.0.0.1:443`)).status, 403);
    } finally {
      await strict.close();
    }
  });

  it('answers 400 to what is not a proxy request', async () => {
    assert.equal((await viaProxy(proxy, '/relative')).status, 400);
    assert.equal((await tunnel(proxy, 'no-port/path?x')).status, 400);
  });
});
