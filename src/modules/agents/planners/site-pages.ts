/**
 * Kinds of page a site's platform makes, told by their address: what a planner may ask of them (a category lists its products or
 * posts; a product page is the product's). One rule each, with an address it names and a near miss it leaves
 * (site-pages.test.ts checks both), shared by the broken-link advice and the thin-page briefs so that they agree.
 */
export interface PagePathRule { id: string; pattern: RegExp; example: string; counterExample: string }

/** A language's root or prefix: "/fr/", "/de-at/". */
const LANG = '(?:[a-z]{2}(?:-[a-z]{2})?\\/)?';

/** A category page: Shopify's collections, WooCommerce's product categories in its languages, a blog's categories. */
export const CATEGORY_PAGE: PagePathRule = {
  id: 'category_page',
  pattern: new RegExp(`^\\/${LANG}(?:[\\w-]+\\/)?(?:collections|product-category|categorie-produit|produkt-kategorie|categoria-producto|categoria-prodotto|productcategorie|categories|category)\\/(?!all\\/?$)[^/]+\\/?$`, 'iu'),
  example: '/collections/blends',
  counterExample: '/collections/blends/products/lighthouse-espresso',
};

/** A product's page: Shopify's /products/<handle>, WooCommerce's /product/<slug> in its languages. */
export const PRODUCT_PAGE: PagePathRule = {
  id: 'product_page',
  pattern: new RegExp(`^\\/${LANG}(?:collections\\/[^/]+\\/)?(?:products?|produits?|produkte?|productos?|prodott[oi])\\/[^/]+\\/?$`, 'iu'),
  example: '/produit/casque-abus-hyban-2/',
  counterExample: '/blog/products-we-love/',
};

/** A listing's next page, as platforms number them: "/page/2/", "/blog/page/3". */
export const LISTING_PAGE: PagePathRule = {
  id: 'listing_page',
  pattern: /\/page\/\d+\/?$/iu,
  example: '/categorie-produit/velos-electriques/page/2/',
  counterExample: '/pages/2-for-1-offer',
};

export const SITE_PAGE_RULES = [CATEGORY_PAGE, PRODUCT_PAGE, LISTING_PAGE];
