import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPacer } from './pace.ts';

describe('createPacer', () => {
  it('gives the event loop a turn once the slice has passed, and not before', async () => {
    const pace = createPacer(20);
    let turned = false;
    setImmediate(() => (turned = true));
    await pace();
    assert.equal(turned, false, 'within the slice: no turn, only a resolved promise');
    const started = performance.now();
    while (performance.now() - started < 25); // CPU work past the slice
    await pace();
    assert.equal(turned, true, 'past the slice: the loop ran what was waiting');
  });
});
