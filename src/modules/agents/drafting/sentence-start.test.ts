import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asSentenceStart } from './sentence-start.ts';

describe('a text begun as a sentence begins, after a cut', () => {
  it('writes its first letter in capitals, but not a name written in lower case', () => {
    assert.equal(asSentenceStart('the council voted to ban overnight parking.'), 'The council voted to ban overnight parking.');
    assert.equal(asSentenceStart('my6sense is adding a chief strategy officer.'), 'my6sense is adding a chief strategy officer.');
    assert.equal(asSentenceStart('iPhone sales fell in the quarter.'), 'iPhone sales fell in the quarter.');
    assert.equal(asSentenceStart('nearly 150 Indians returned home.'), 'Nearly 150 Indians returned home.');
  });
});
