import http from 'node:http';
import net from 'node:net';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { assertPublicUrl, BlockedAddressError, createOutboundAgent, isPublicAddress, privateHostAllowed, resolvePublic, type PrivateTargets } from '../../lib/safe-http.ts';

/**
 * The forward proxy Lighthouse's Chromium is given: every request of the page under test reaches the network
 * through it, behind the same address guard as the crawler's fetches (lib/safe-http.ts).
 *
 * Lighthouse drives Chromium over its own DevTools connection and measures the network as the page meets it, so its
 * requests cannot be intercepted and replayed as the renderer's are (crawler/render-fetch.ts): that would change what
 * is measured. A proxy changes nothing Lighthouse sees but a loopback hop. HTTPS goes through CONNECT tunnels (the
 * TLS stays end to end between Chromium and the site); the host is resolved here, refused when any of its addresses
 * is private or reserved, and the tunnel opened to the address that was checked, so a name that rebinds gains
 * nothing. Plain HTTP is fetched with the guarded dispatcher. Chromium is started with `--proxy-bypass-list=<-loopback>`
 * so that loopback addresses come here too instead of going direct.
 */
export interface GuardedProxy {
  /** For Chromium's --proxy-server. */
  url: string;
  /** Targets refused by the guard ("host:port"), the first 20: what the page asked of addresses it may not reach. */
  readonly refused: readonly string[];
  close(): Promise<void>;
}

/** Hop-by-hop headers: they describe one connection (Chromium's to us, ours to the site), never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

const forwardable = (headers: http.IncomingHttpHeaders | Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name.toLowerCase()))) as Record<string, string | string[]>;

export async function startGuardedProxy(options: { allowPrivate: PrivateTargets; timeoutMs?: number }): Promise<GuardedProxy> {
  const { allowPrivate } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent: Dispatcher = createOutboundAgent({ allowPrivate, connectionsPerOrigin: 6, timeoutMs });
  const refused: string[] = [];
  const refuse = (target: string) => {
    if (refused.length < 20) refused.push(target);
  };

  /** Where a tunnel to host:port may connect: the checked address, or the host itself when it is an allowed private target. */
  async function addressFor(authority: URL): Promise<string> {
    const host = authority.hostname.replace(/^\[|\]$/g, '');
    if (privateHostAllowed(allowPrivate, authority.host)) return host;
    if (net.isIP(host)) {
      if (!isPublicAddress(host)) throw new BlockedAddressError(host, host);
      return host;
    }
    return (await resolvePublic(host)).address;
  }

  const server = http.createServer((req, res) => {
    // A proxy request names the whole URL (absolute form); anything else was not meant for a proxy.
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
      assertPublicUrl(url, allowPrivate);
    } catch (error) {
      if (error instanceof BlockedAddressError) refuse(req.url ?? '');
      res.writeHead(error instanceof BlockedAddressError ? 403 : 400).end();
      return;
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    request(url, { method: req.method as Dispatcher.HttpMethod, headers: forwardable(req.headers), body: hasBody ? req : null, dispatcher: agent })
      .then(async (upstream) => {
        res.writeHead(upstream.statusCode, forwardable(upstream.headers));
        await pipeline(upstream.body, res);
      })
      .catch((error: unknown) => {
        if (isBlocked(error)) refuse(url.host);
        if (!res.headersSent) res.writeHead(isBlocked(error) ? 403 : 502).end();
        else res.destroy();
      });
  });

  /** Open tunnels: closed with the proxy (the HTTP server no longer tracks a socket it handed over). */
  const tunnels = new Set<net.Socket>();
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on('error', () => undefined);
    tunnels.add(client);
    client.once('close', () => tunnels.delete(client));
    let authority: URL;
    try {
      authority = new URL(`https://${req.url ?? ''}`);
      if (authority.pathname !== '/' || authority.username || authority.search) throw new Error('not an authority');
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const port = Number(authority.port || 443);
    addressFor(authority).then(
      (address) => {
        const upstream = net.connect({ host: address, port, timeout: timeoutMs });
        upstream.on('error', () => client.destroy());
        upstream.on('timeout', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        upstream.once('connect', () => {
          upstream.setTimeout(0);
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
      },
      (error: unknown) => {
        if (isBlocked(error)) refuse(authority.host);
        client.end(`HTTP/1.1 ${isBlocked(error) ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return refused;
    },
    async close() {
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

/** The guard's refusal, as undici reports it (the lookup's error is the cause of its connect error). */
function isBlocked(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof BlockedAddressError) return true;
  return false;
}
