import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a long-running job may keep the event loop before it lets requests through. */
export const SLICE_MS = 10;

/**
 * Cooperative pacing for long synchronous work on the event loop (the strategy agent's
 * drafting, the audit's page records). The embedded database runs in this thread and
 * answers without I/O, so a job whose every step is CPU or a PGlite query never lets the
 * event loop reach its poll phase: /live and every request wait until the job ends.
 * `await pace()` gives the loop a turn once `sliceMs` have passed since the last one, and
 * otherwise costs a resolved promise.
 */
export function createPacer(sliceMs = SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}
