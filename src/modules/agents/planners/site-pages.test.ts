import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SITE_PAGE_RULES } from './site-pages.ts';

describe('kinds of page a platform makes, by their address', () => {
  for (const rule of SITE_PAGE_RULES) {
    it(`${rule.id}: names its example, leaves its near miss`, () => {
      assert.equal(rule.pattern.test(rule.example), true);
      assert.equal(rule.pattern.test(rule.counterExample), false);
    });
  }
  it('reads the addresses of Shopify, WooCommerce in its languages and blogs, under a language prefix too', () => {
    const [category, product] = SITE_PAGE_RULES;
    for (const path of ['/categorie-produit/velos-de-ville/', '/product-category/tools/', '/de/collections/neu', '/blog/category/news/', '/categories/recipes']) assert.ok(category!.pattern.test(path), path);
    for (const path of ['/collections/all', '/collections/', '/shop/oak-table']) assert.equal(category!.pattern.test(path), false, path);
    for (const path of ['/products/kenya-nyeri-aa', '/product/felco-2/', '/fr/produit/antivol/', '/collections/blends/products/lighthouse']) assert.ok(product!.pattern.test(path), path);
    for (const path of ['/products', '/product/felco-2/reviews/']) assert.equal(product!.pattern.test(path), false, path);
  });
});
