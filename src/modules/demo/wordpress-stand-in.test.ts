import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { startWordPressServer } from './wordpress-stand-in.ts';

describe("the demo's WordPress stand-in", () => {
  it('outlives a client that closes mid-body: no unhandled rejection, the next request answered', async (t) => {
    // Node ends the process on an unhandled rejection; listening here records it instead.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    const website = await startWordPressServer({ items: [{ type: 'post', slug: 'roses', title: 'Roses', content: '<p>Roses.</p>' }] });
    t.after(async () => {
      process.off('unhandledRejection', record);
      await website.close();
    });
    const { port } = new URL(website.origin);
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST /wp-json/wp/v2/posts/10 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title": "par');
      await sleep(20);
      socket.destroy();
    }
    await sleep(100);
    assert.deepEqual(unhandled, []);
    const next = await fetch(`${website.origin}/wp-json/`);
    assert.equal(next.status, 200);
  });
});
