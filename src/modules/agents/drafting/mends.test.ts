import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageContent } from '../page-content.ts';
import { writeMetaDescription } from './description.ts';
import { mended, MENDS } from './mends.ts';

describe('a page\'s slips mended as an editor mends them in its description', () => {
  for (const mend of MENDS) {
    it(`${mend.id}: mends its example to its result, leaves its counter-example`, () => {
      assert.equal(mended(mend.example), mend.result);
      assert.equal(mended(mend.counterExample), mend.counterExample);
    });
  }

  it('"an" before eight, eleven and eighteen and the numbers said with them, never before others nor in a quotation', () => {
    const cases: Array<[string, string]> = [
      ['A 11-year-old won the final.', 'An 11-year-old won the final.'],
      ['a 18% rise, a 800-mile trip, a 8,000-strong crowd, a 81st birthday, a 8am start', 'an 18% rise, an 800-mile trip, an 8,000-strong crowd, an 81st birthday, an 8am start'],
      ['a 110-page report, a 180-day plan, a 1-0 win, a 28-year-old', 'a 110-page report, a 180-day plan, a 1-0 win, a 28-year-old'],
      ['“He was a 8-year-old then,” she said.', '“He was a 8-year-old then,” she said.'],
    ];
    for (const [text, expected] of cases) assert.equal(mended(text), expected);
  });

  it('in an English page\'s description, not in another language\'s ("a 8" is Italian for "at 8")', () => {
    const page = (lang: string, lead: string) => readPageContent(`<!doctype html><html lang="${lang}"><head><title>Rescue</title></head><body><h1>Rescue</h1><p>${lead}</p></body></html>`);
    const english = writeMetaDescription(page('en', 'Police released dramatic video showing the rescue of a 8-year-old girl who was taken in broad daylight.'), new Set());
    assert.equal('text' in english && english.text, 'Police released dramatic video showing the rescue of an 8-year-old girl who was taken in broad daylight.');
    const italian = writeMetaDescription(page('it', 'La polizia ha diffuso il video del salvataggio, avvenuto a 8 chilometri dal centro della città di Milano.'), new Set());
    assert.equal('text' in italian && italian.text, 'La polizia ha diffuso il video del salvataggio, avvenuto a 8 chilometri dal centro della città di Milano.');
  });
});
