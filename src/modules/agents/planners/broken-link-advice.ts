/**
 * What to do with a broken link, said as the site's owner needs it. Most broken links are fixed by pointing them at the page's new
 * address, or removing them when nothing replaces it; not a link to a page visitors or the law expect the site to have (a shop's
 * cart, a privacy notice, terms of sale, French "mentions légales", delivery and returns): read by the owners of five shop and
 * landing sites, "or remove it" was wrong advice for those, whose page is what is missing; nor for a contact or booking page, nor
 * for a category, a product's page, a listing's next page (read again: removing those would hide stock on
 * sale), nor for a page the business sells through (a roaster's subscriptions, read three times as wrongly "remove it"). Such a link is kept: no connector takes it out of a post (task-types/types/links.ts). Each rule has a link it names and one it leaves (broken-link-advice.test.ts checks both).
 */
import { CATEGORY_PAGE, LISTING_PAGE, PRODUCT_PAGE } from './site-pages.ts';

export interface ExpectedPageRule { id: string; pattern: RegExp; says: string; example: string; counterExample: string }

export const EXPECTED_PAGE_RULES: ExpectedPageRule[] = [
  {
    id: 'shop_system_page',
    pattern: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:cart|panier|warenkorb|carrito|carrello|checkout|commande|kasse|my-account|mon-compte|account(?:\/login)?|login|connexion|search|recherche|suche|shop|boutique|collections\/all)\/?$/iu,
    says: 'a page of the shop itself (its cart, checkout, account, search or catalogue), which the shop\'s platform creates: restore it in the shop\'s settings or correct the theme\'s link, do not remove the link',
    example: '/panier/',
    counterExample: '/cart-buying-guide/',
  },
  {
    id: 'legal_page',
    pattern: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:legal\/[\w-]+|policies\/[\w-]+|privacy(?:-policy|-notice)?|terms(?:-of-(?:service|use|sale))?|terms-and-conditions|cookies?(?:-policy)?|accessibility|imprint|impressum|datenschutz(?:erklaerung)?|agb|mentions-legales|cgv|cgu|conditions-generales(?:-de-vente)?|politique-de-confidentialite|confidentialite|aviso-legal|privacidad)\/?$/iu,
    says: 'a legal page (privacy, terms, legal notice) that visitors, payment providers and often the law expect: publish the page, do not remove the link',
    example: '/mentions-legales/',
    counterExample: '/legal-tips-for-freelancers/',
  },
  {
    id: 'shop_policy_page',
    pattern: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:(?:pages\/)?(?:shipping|delivery|returns?|refunds?)(?:-(?:and-|&-)?(?:returns?|refunds?|policy|information|info))*|livraison(?:s)?(?:-(?:et-)?retours?)?|retours?|versand(?:kosten|-und-rueckgabe|informationen)?|rueckgabe|widerruf(?:srecht|sbelehrung)?|envios?|devoluciones|spedizion[ei]|resi|verzending|retourneren)\/?$/iu,
    says: 'a page shoppers read before they buy (delivery, returns, the right of withdrawal, which EU law asks a shop to give): publish it, do not remove the link',
    example: '/livraison-retours/',
    counterExample: '/blog/delivery-drivers-we-love/',
  },
  {
    id: 'catalogue_category',
    pattern: CATEGORY_PAGE.pattern,
    says: 'a category page, which products or posts are still filed under: restore the category (or point the link at its new address), and take the link out of the menu only if the category is retired',
    example: CATEGORY_PAGE.example,
    counterExample: CATEGORY_PAGE.counterExample,
  },
  {
    id: 'catalogue_product',
    pattern: PRODUCT_PAGE.pattern,
    says: 'a product\'s page: fix its address (the product\'s handle or the platform\'s permalinks) or publish it again; take the link out only if the product is discontinued',
    example: PRODUCT_PAGE.example,
    counterExample: PRODUCT_PAGE.counterExample,
  },
  {
    id: 'listing_page',
    pattern: LISTING_PAGE.pattern,
    says: 'a next page of a listing the platform numbers (its products or posts past the first page): fix the platform\'s permalinks, do not remove the link, or what is listed past the first page can no longer be reached',
    example: LISTING_PAGE.example,
    counterExample: LISTING_PAGE.counterExample,
  },
  {
    id: 'contact_page',
    pattern: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:pages\/)?(?:contact(?:-us)?|kontakt|nous-contacter|contactez-nous|contacto|contatti|get-in-touch|booking|book-(?:an?-)?(?:appointment|visit|consultation|table)|appointments?|(?:prendre-)?rendez-vous|reservations?|reserver|termin(?:buchung|vereinbarung)?|cita-previa|prenota(?:zione)?)\/?$/iu,
    says: 'the page visitors look for to reach the business or book with it (an address, a phone, a form, a booking calendar): publish it, do not remove the link',
    example: '/pages/contact',
    counterExample: '/contact/press-kit/',
  },
  {
    id: 'offer_page',
    pattern: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:pages\/)?(?:subscriptions?|subscribe|memberships?|gift-cards?|wholesale|abonnements?|abonnieren|abo)\/?$/iu,
    says: 'a page the business sells through (a subscription, a membership, gift cards, wholesale): publish it again or point the link at where it moved, and keep the link while the offer runs',
    example: '/pages/subscriptions',
    counterExample: '/unsubscribe',
  },
  {
    id: 'missing_document',
    pattern: /\.(?:pdf|docx?|xlsx?|pptx?|odt|zip)$/iu,
    says: 'a document the page offers (a form, a price list, a brochure): upload it again or link to where it is now, rather than remove the link the page tells visitors to use',
    example: '/s/new-patient-forms.pdf',
    counterExample: '/forms/new-patients/',
  },
];

/** The advice for a broken link's path, or undefined for a link to point elsewhere or remove. */
export const expectedPageOf = (path: string) => EXPECTED_PAGE_RULES.find((rule) => rule.pattern.test(path));
