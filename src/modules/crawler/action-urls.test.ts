import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACTION_URL_RULES, isActionUrl } from './action-urls.ts';

describe('addresses that act rather than show a page', () => {
  for (const rule of ACTION_URL_RULES) {
    it(`${rule.id}: matches its example, leaves its counter-example`, () => {
      assert.equal(isActionUrl(rule.example), true);
      assert.equal(isActionUrl(rule.counterExample), false);
    });
  }
});
