/**
 * Addresses that do something rather than show a page: a shop's "add to cart" or "add to wishlist" link, a cart's "remove item",
 * a blog's "Reply" to a comment and its share buttons, a CMS's log-in screen.
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
  {
    id: 'wordpress_comment_action',
    // A comment's "Reply" link (?replytocom=) is the post again with the form filled in, one copy a comment; a "Like" is an action.
    pattern: /[?&](?:replytocom|like_comment|unapproved)=/u,
    example: 'https://blog.example/pruning-roses/?replytocom=4411#respond',
    counterExample: 'https://blog.example/how-to-reply-to-comments/',
  },
  {
    id: 'share_button',
    // Jetpack's and others' share buttons (?share=twitter) answer with a redirect to the network or a mail form, never a page of the site.
    pattern: /[?&]share=(?:twitter|x|facebook|linkedin|pinterest|reddit|tumblr|pocket|telegram|whatsapp|email|print|jetpack-whatsapp|mastodon|threads|bluesky|nextdoor)\b/u,
    example: 'https://blog.example/pruning-roses/?share=facebook',
    counterExample: 'https://blog.example/share-your-garden/',
  },
  {
    id: 'login_or_admin',
    // A CMS's login and admin screens: a log-in form, or a redirect to one.
    pattern: /\/(?:wp-login\.php|wp-admin\/)/u,
    example: 'https://blog.example/wp-login.php?redirect_to=%2Fpruning-roses%2F',
    counterExample: 'https://blog.example/login-tips/',
  },
];

/** Whether an address (as normalizeUrl writes it) is an action, not a page. Asked of every link: the rules run only on an address with a hint of one. */
export const isActionUrl = (url: string) => ACTION_HINT.test(url) && ACTION_URL_RULES.some((rule) => rule.pattern.test(url));
/** What every rule's address has in it: one test of a link before the rules are read. */
const ACTION_HINT = /cart|wishlist|remove_item|undo_item|compare|replytocom|like_comment|unapproved|share=|wp-login|wp-admin/u;
