import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a receiver got: one POST. */
export interface Received { path: string; headers: IncomingHttpHeaders; body: string }

/**
 * A local HTTP receiver for webhooks: answers each POST with the next status of its path's
 * script (then 200), and keeps what it got.
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = scripts.get(req.url ?? '')?.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    /** The statuses the next POSTs to `path` get, in order. */
    script: (path: string, statuses: number[]) => void scripts.set(path, statuses),
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** The Standard Webhooks check, written from the spec (not with the service's signing code). */
export function verifyWebhook(secret: string, headers: IncomingHttpHeaders, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature']).split(' ').some((sig) => {
    const [version, value] = sig.split(',');
    const got = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}
