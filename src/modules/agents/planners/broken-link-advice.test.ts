import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPECTED_PAGE_RULES, expectedPageOf } from './broken-link-advice.ts';

describe('a broken link to a page the site is expected to have', () => {
  for (const rule of EXPECTED_PAGE_RULES) {
    it(`${rule.id}: names its example's link, leaves its counter-example to be pointed elsewhere or removed`, () => {
      assert.equal(expectedPageOf(rule.example)?.id, rule.id);
      assert.equal(expectedPageOf(rule.counterExample), undefined);
    });
  }
  it('reads the paths shops and legal footers use, in their languages and under a language prefix', () => {
    for (const path of ['/cart', '/fr/panier/', '/my-account/', '/account/login', '/policies/refund-policy', '/legal/privacy', '/cgv/', '/impressum']) assert.ok(expectedPageOf(path), path);
    for (const path of ['/product/felco-2/', '/services', '/blog/']) assert.equal(expectedPageOf(path), undefined, path);
  });
});
