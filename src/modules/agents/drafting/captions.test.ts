import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PHOTO_CREDIT, withoutCaptions } from './captions.ts';

describe('a photo caption above the story, told by its credit line', () => {
  it(`${PHOTO_CREDIT.id}: reads its example as a credit line, not its counter-example`, () => {
    assert.ok(PHOTO_CREDIT.pattern.test(PHOTO_CREDIT.example));
    assert.ok(!PHOTO_CREDIT.pattern.test(PHOTO_CREDIT.counterExample));
  });
  it('drops the caption and its credit, and keeps the story', () => {
    const story = 'Dubai’s flagship carrier Emirates Airline finalized a deal to purchase 30 of Boeing’s 787-9 Dreamliner jets.';
    assert.deepEqual(withoutCaptions(['Key Points', 'Sheikh Mohammed passes a Boeing Co. 787-10 passenger aircraft during the Dubai Air Show.', PHOTO_CREDIT.example, story]), ['Key Points', story]);
    assert.deepEqual(withoutCaptions([story, PHOTO_CREDIT.counterExample]), [story, PHOTO_CREDIT.counterExample]);
  });
});
