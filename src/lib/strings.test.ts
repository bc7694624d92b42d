import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { collapseWhiteSpace } from './strings.ts';

describe('collapseWhiteSpace', () => {
  it('is the regular expression it replaces, whatever the white space (property, fixed seed)', () => {
    const piece = fc.constantFrom('a', 'Bc', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2009', '\u3000', '\ufeff', '漢', 'x y');
    fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')), (text) => {
      assert.equal(collapseWhiteSpace(text), text.replace(/\s+/g, ' ').trim());
    }), { seed: 20261126, numRuns: 2000 });
  });
});
