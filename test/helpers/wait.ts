import { setTimeout as sleep } from 'node:timers/promises';

/** Reads until `done` holds (every 100 ms), or throws naming what never happened. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what = 'the condition', timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
