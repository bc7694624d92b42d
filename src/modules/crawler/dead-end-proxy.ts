import net from 'node:net';

/**
 * The proxy the rendering Chromium is given: a listener of our own on an ephemeral loopback port that answers nothing
 * and closes every connection. Interception (render-fetch.ts) serves the browser's requests; anything that escapes
 * it (Chromium's own traffic, a request a worker makes) comes here and goes no further. Owning the port matters: a
 * fixed one (127.0.0.1:9) would become an open proxy for rendered pages on a machine where something listens there.
 */
export async function startDeadEndProxy() {
  let escaped = 0;
  /** The first line of each (up to 20): "CONNECT host:443 HTTP/1.1", "GET http://host/path HTTP/1.1". */
  const targets: string[] = [];
  const server = net.createServer((socket) => {
    escaped += 1;
    socket.on('error', () => undefined);
    // What was asked is read (for the count and the tests), never answered or forwarded.
    socket.once('data', (chunk) => {
      if (targets.length < 20) targets.push(chunk.toString('latin1').split('\r\n')[0]!.slice(0, 200));
      socket.destroy();
    });
    socket.setTimeout(1000, () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Connections that reached it: requests interception did not serve. */
    get escaped() {
      return escaped;
    },
    get targets(): readonly string[] {
      return targets;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
