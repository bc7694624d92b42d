import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPECTED_PAGE_RULES, expectedPageOf } from './broken-link-advice.ts';

describe('a broken link to a page the site is expected to have', () => {
  for (const rule of EXPECTED_PAGE_RULES) {
    it(`${rule.id}: names its example's link, leaves its near miss to another rule or to be repointed`, () => {
      assert.equal(expectedPageOf(rule.example)?.id, rule.id);
      assert.notEqual(expectedPageOf(rule.counterExample)?.id, rule.id);
    });
  }
  it('reads the paths shops and legal footers use, in their languages and under a language prefix', () => {
    for (const path of ['/cart', '/fr/panier/', '/my-account/', '/account/login', '/policies/refund-policy', '/legal/privacy', '/cgv/', '/impressum',
      '/pages/shipping-and-returns', '/widerrufsbelehrung', '/categorie-produit/velos-de-ville/', '/product-category/accessories', '/de/collections/neu',
      '/product/felco-2/', '/products/kenya-nyeri-aa', '/categorie-produit/velos-electriques/page/2/', '/prendre-rendez-vous/', '/pages/contact',
      '/pages/subscriptions', '/wholesale/', '/de/abo']) assert.ok(expectedPageOf(path), path);
    for (const path of ['/services', '/blog/', '/old-guide/', '/blog/delivery-drivers-we-love/', '/blog/how-to-contact-your-mp/', '/book/', '/unsubscribe', '/blog/subscriptions-we-cancelled/']) assert.equal(expectedPageOf(path), undefined, path);
  });
});

describe('the advice on each broken link', async () => {
  const { adviceFor, REPOINT } = await import('./links.ts');
  it('keeps a link whose page the site must have, naming the rule, and repoints the others (removed only when nothing replaces the page)', () => {
    assert.deepEqual(adviceFor('https://shop.test/collections/blends', undefined, 8), {
      action: `in the site's menu or footer (on 8 pages): fix it once there, and in any button or text of a page that links to it too; the link goes to ${EXPECTED_PAGE_RULES.find((r) => r.id === 'catalogue_category')!.says}`,
      in_template: true, page_expected: 'catalogue_category',
    });
    assert.deepEqual(adviceFor('https://shop.test/old-guide/', undefined, undefined), { action: REPOINT });
  });
  it('names a missing section as the cause before any rule of a page expected, and keeps such a link all the same', () => {
    const advice = adviceFor('https://shop.test/fr/cart', { path: '/fr/', links: 12 }, undefined);
    assert.match(advice.action, /^the site publishes nothing under \/fr\//);
    assert.equal(advice.page_expected, 'shop_system_page');
  });
});
