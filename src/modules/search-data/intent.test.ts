import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brandOf } from './intent.ts';

describe('the brand word of a site', () => {
  it('is the main label of its domain, hyphens as spaces, second-level country domains skipped', () => {
    assert.equal(brandOf('www.garden-shop.co.uk'), 'garden shop');
    assert.equal(brandOf('garden-shop.com'), 'garden shop');
    assert.equal(brandOf('shop.oakfurniture.de'), 'oakfurniture');
    assert.equal(brandOf('127.0.0.1:8089'), '', 'an IP address names no brand');
  });
});
