/**
 * Addresses that do something rather than show a page: a shop's "add to cart" or "add to wishlist" link, a cart's "remove item".
 * Fetched by a crawler they fill a cart (WooCommerce adds the product on a plain GET) and come back as copies of the page they
 * were on, which the audit then reports as pages ("not indexable", "duplicate title"): 40 of a 5-site shop audit's 48 refusals
 * were such addresses. They are never crawled, whether the link says rel="nofollow" or not. Each rule has an address it matches
 * and one it leaves (action-urls.test.ts checks both).
 */
export interface ActionUrlRule { id: string; pattern: RegExp; example: string; counterExample: string }

export const ACTION_URL_RULES: ActionUrlRule[] = [
  {
    id: 'woocommerce_cart_action',
    pattern: /[?&](?:add-to-cart|add_to_wishlist|remove_item|undo_item|removed_item|add-to-compare)=/u,
    example: 'https://greenhavensupply.com/product/felco-2/?add-to-cart=1240',
    counterExample: 'https://greenhavensupply.com/product/add-to-cart-guide/',
  },
  {
    id: 'cart_add_path',
    // Shopify's /cart/add, Magento's /checkout/cart/add/, BigCommerce's /cart.php?action=add.
    pattern: /\/(?:cart\/add|checkout\/cart\/add)(?:[/?.]|$)|\/cart\.php\?(?:[^#]*&)?action=(?:add|buy)\b/u,
    example: 'https://northboundcoffee.com/cart/add?id=40123&quantity=1',
    counterExample: 'https://northboundcoffee.com/cart',
  },
];

/** Whether an address (as normalizeUrl writes it) is an action, not a page. Asked of every link: the rules run only on an address that names a cart or a list. */
export const isActionUrl = (url: string) => /cart|wishlist|remove_item|undo_item|compare/u.test(url) && ACTION_URL_RULES.some((rule) => rule.pattern.test(url));
