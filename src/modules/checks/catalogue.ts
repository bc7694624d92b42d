export type Severity = 'critical' | 'error' | 'warning' | 'notice';
export type CheckCategory =
  | 'crawlability' | 'indexability' | 'on_page' | 'content' | 'links' | 'international' | 'structure'
  | 'performance' | 'security' | 'mobile' | 'structured_data';

export interface CheckDefinition {
  id: string;
  severity: Severity;
  category: CheckCategory;
  title: string;
  fix: string;
  /** The Lighthouse audit this corresponds to, where one exists. */
  lighthouse?: string;
  /** Judged once for the whole site rather than per page. */
  siteWide?: boolean;
  /** One finding per affected page and target (every broken link of a page), not per page alone. */
  perTarget?: boolean;
  /** Reported, but no part of the health score (what the crawl met, not what the site gets wrong). */
  unscored?: boolean;
}

const c = (id: string, severity: Severity, category: CheckCategory, title: string, fix: string, extra: Partial<CheckDefinition> = {}): CheckDefinition =>
  ({ id, severity, category, title, fix, ...extra });

/** Every check the audit runs. Ids are stable: clients and stored audits refer to them. */
export const CHECKS: readonly CheckDefinition[] = [
  // HTTP status and reachability
  c('page_4xx', 'error', 'crawlability', 'Page returns a 4xx status', 'Restore the page, or redirect it (301) to its replacement and update links to it.', { lighthouse: 'http-status-code' }),
  c('page_5xx', 'critical', 'crawlability', 'Page returns a 5xx status', 'Fix the server error; search engines drop pages that keep failing.', { lighthouse: 'http-status-code' }),
  c('page_unreachable', 'error', 'crawlability', 'Page did not answer (timeout or connection error)', 'Make the page answer within 15 seconds; check the server and DNS.'),
  c('broken_internal_links', 'error', 'links', 'Page links to a broken internal URL', 'Point the link at the page\'s new address (or one that replaces it); remove it only if nothing does.', { perTarget: true }),
  c('links_to_redirect', 'warning', 'links', 'Page links to a URL that redirects', 'Link straight to the final URL.', { perTarget: true }),
  c('broken_fragment_link', 'warning', 'links', 'Link to a #fragment that does not exist on the target page', 'Point the link at an id that exists on the target page, or add that id there.', { perTarget: true }),
  c('redirect_chain', 'warning', 'crawlability', 'Redirect chain (more than one hop)', 'Redirect in one hop to the final URL.'),
  c('redirect_loop', 'error', 'crawlability', 'Redirect loop', 'Break the loop: the redirect must end at a page that answers 200.'),
  c('http_page_on_https_site', 'warning', 'security', 'Page served over http on an https site', 'Redirect every http URL to its https version (301).'),
  c('http_links_on_https_site', 'warning', 'security', 'https page links to http URLs', 'Change the links to https.'),
  c('http_form_action', 'error', 'security', 'Form submits to an http URL from an https page', 'Submit forms to https URLs only.'),
  c('html_truncated', 'notice', 'performance', 'HTML larger than 5 MB (truncated)', 'Reduce the page size; search engines stop reading large pages.'),
  c('slow_ttfb', 'warning', 'performance', 'Slow response (time to first byte over 800 ms)', 'Cache the page or speed up the server so the first byte arrives within 800 ms.', { lighthouse: 'server-response-time' }),
  // Indexability
  c('noindex_meta', 'warning', 'indexability', 'Page has a meta robots noindex', 'Remove noindex if the page should appear in search results.', { lighthouse: 'is-crawlable' }),
  c('noindex_header', 'warning', 'indexability', 'Page has an X-Robots-Tag noindex header', 'Remove the noindex header if the page should appear in search results.', { lighthouse: 'is-crawlable' }),
  c('nofollow_page', 'notice', 'indexability', 'Page tells robots not to follow its links (nofollow)', 'Remove nofollow from meta robots / X-Robots-Tag unless intended.', { lighthouse: 'is-crawlable' }),
  c('blocked_by_robots', 'warning', 'indexability', 'URL blocked by robots.txt', 'Allow the URL in robots.txt if it should be crawled, or stop linking to it.', { lighthouse: 'is-crawlable', unscored: true }),
  c('canonical_to_other_url', 'notice', 'indexability', 'Canonical points to another URL', 'Check that the canonical target is the version you want indexed.', { lighthouse: 'canonical' }),
  c('home_noindex', 'critical', 'indexability', 'Home page is not indexable (noindex)', 'Remove noindex from the home page.', { siteWide: true, lighthouse: 'is-crawlable' }),
  c('robots_txt_unavailable', 'error', 'indexability', 'robots.txt does not answer (a server error, or no response)', 'Make /robots.txt answer 200 (or 404 if there are no rules): while it fails, Google and other crawlers treat the whole site as disallowed (RFC 9309).', { siteWide: true }),
  c('robots_txt_blocks_all', 'critical', 'indexability', 'robots.txt disallows the whole site', 'Remove "Disallow: /" for all user agents in robots.txt.', { siteWide: true, lighthouse: 'robots-txt' }),
  // Titles and descriptions
  c('title_missing', 'error', 'on_page', 'Title tag missing', 'Add a unique <title> of 20-60 characters describing the page.', { lighthouse: 'document-title' }),
  c('title_empty', 'error', 'on_page', 'Title tag empty', 'Write a unique title of 20-60 characters.', { lighthouse: 'document-title' }),
  c('title_too_short', 'warning', 'on_page', 'Title shorter than 20 characters', 'Lengthen the title to 20-60 characters.'),
  c('title_too_long', 'warning', 'on_page', 'Title longer than 60 characters', 'Shorten the title to at most 60 characters so it is not cut off.'),
  c('title_duplicate', 'warning', 'on_page', 'Title used by more than one page', 'Give every page its own title.'),
  c('title_multiple', 'warning', 'on_page', 'More than one title tag', 'Keep a single <title> in the head.'),
  c('meta_description_missing', 'warning', 'on_page', 'Meta description missing', 'Add a meta description of 50-160 characters summarising the page.', { lighthouse: 'meta-description' }),
  c('meta_description_empty', 'warning', 'on_page', 'Meta description empty', 'Write a meta description of 50-160 characters.', { lighthouse: 'meta-description' }),
  c('meta_description_too_short', 'notice', 'on_page', 'Meta description shorter than 50 characters', 'Lengthen the description to 50-160 characters.'),
  c('meta_description_too_long', 'notice', 'on_page', 'Meta description longer than 160 characters', 'Shorten the description to at most 160 characters.'),
  c('meta_description_duplicate', 'warning', 'on_page', 'Meta description used by more than one page', 'Give every page its own description.'),
  c('meta_description_multiple', 'warning', 'on_page', 'More than one meta description', 'Keep a single meta description.'),
  // Headings
  c('h1_missing', 'warning', 'on_page', 'No h1 heading', 'Add one h1 that states what the page is about.'),
  c('h1_multiple', 'notice', 'on_page', 'More than one h1 heading', 'Keep one h1; use h2-h6 for sections.'),
  c('heading_level_skipped', 'notice', 'on_page', 'Heading levels skipped (e.g. h2 to h4)', 'Use heading levels in order without gaps.'),
  // Images
  c('image_missing_alt', 'warning', 'on_page', 'Image without alt attribute', 'Add alt text describing the image (alt="" for decoration).', { lighthouse: 'image-alt' }),
  c('image_too_large', 'warning', 'performance', 'Image larger than 200 KB', 'Compress the image or serve a smaller size (WebP/AVIF, responsive srcset).', { lighthouse: 'uses-optimized-images', perTarget: true }),
  c('image_alt_too_long', 'notice', 'on_page', 'Image alt text longer than 125 characters', 'Shorten the alt text to the essentials.'),
  // Links
  c('link_text_non_descriptive', 'notice', 'links', 'Link text is not descriptive ("click here", "read more")', 'Use link text that says where the link goes.', { lighthouse: 'link-text' }),
  c('link_not_crawlable', 'warning', 'links', 'Link robots cannot follow (javascript:)', 'Use a real href to a URL.', { lighthouse: 'crawlable-anchors' }),
  c('internal_nofollow_links', 'notice', 'links', 'Internal links marked nofollow', 'Remove rel="nofollow" from links to your own pages.'),
  c('too_many_links', 'notice', 'links', 'More than 150 links on the page', 'Trim navigation and footer links to what matters.'),
  // Canonical
  c('canonical_missing', 'notice', 'indexability', 'No canonical link', 'Add <link rel="canonical"> with the preferred URL.', { lighthouse: 'canonical' }),
  c('canonical_multiple', 'warning', 'indexability', 'More than one canonical link', 'Keep a single canonical link.', { lighthouse: 'canonical' }),
  c('canonical_relative', 'notice', 'indexability', 'Canonical URL is relative', 'Use an absolute canonical URL.', { lighthouse: 'canonical' }),
  c('canonical_not_http', 'error', 'indexability', 'Canonical is not a web address (file:, another scheme)', 'Point the canonical at the page\'s own https:// URL; a documentation generator takes it from its base URL setting.', { lighthouse: 'canonical' }),
  c('canonical_to_redirect', 'warning', 'indexability', 'Canonical points to a redirecting URL', 'Point the canonical at the final URL.', { lighthouse: 'canonical' }),
  c('canonical_to_error', 'error', 'indexability', 'Canonical points to a 4xx/5xx URL', 'Point the canonical at a page that answers 200.', { lighthouse: 'canonical' }),
  c('canonical_to_noindex', 'warning', 'indexability', 'Canonical points to a noindex page', 'Point the canonical at an indexable page.', { lighthouse: 'canonical' }),
  // International
  c('hreflang_invalid_code', 'warning', 'international', 'Invalid hreflang language code', 'Use ISO 639-1 language codes, optionally with an ISO 3166-1 region, or x-default.', { lighthouse: 'hreflang' }),
  c('hreflang_missing_return', 'warning', 'international', 'hreflang alternate does not link back', 'Make every alternate page list this page in its hreflang links too.', { perTarget: true }),
  c('hreflang_missing', 'warning', 'international', 'Multilingual site, page without hreflang', 'List the page\'s language versions with <link rel="alternate" hreflang="…"> in the head (or in the sitemap).', { lighthouse: 'hreflang' }),
  c('hreflang_missing_x_default', 'notice', 'international', 'hreflang set without x-default', 'Add an x-default alternate for visitors of other languages.'),
  // Sitemaps
  c('sitemap_missing', 'notice', 'crawlability', 'No XML sitemap found', 'Publish a sitemap at /sitemap.xml and name it in robots.txt.', { siteWide: true }),
  c('sitemap_invalid', 'warning', 'crawlability', 'Sitemap is not a valid sitemap (not XML, wrong root, over 50,000 URLs or 50 MB, URLs of another host)', 'Serve well-formed XML with a <urlset> or <sitemapindex> root, at most 50,000 URLs and 50 MB a file, URLs of this host only.', { siteWide: true }),
  c('sitemap_noindex_url', 'warning', 'crawlability', 'Sitemap lists a noindex page', 'Remove noindex pages from the sitemap.'),
  c('sitemap_blocked_url', 'warning', 'crawlability', 'Sitemap lists a URL blocked by robots.txt', 'Remove blocked URLs from the sitemap or allow them.'),
  c('sitemap_redirect_url', 'warning', 'crawlability', 'Sitemap lists a redirecting URL', 'List the final URL instead.'),
  c('sitemap_broken_url', 'error', 'crawlability', 'Sitemap lists a broken URL', 'Remove or fix URLs that answer 4xx/5xx.'),
  c('indexable_page_not_in_sitemap', 'notice', 'crawlability', 'Indexable page missing from the sitemap', 'Add the page to the sitemap.'),
  // Content and structure
  c('thin_content', 'warning', 'content', 'Thin content (fewer than 200 words)', 'Expand the page with useful content, or merge it into a fuller page.'),
  c('duplicate_content', 'warning', 'content', 'Same text as another page', 'Make the content unique, or point a canonical at the original.'),
  c('click_depth_over_4', 'notice', 'structure', 'More than 4 clicks from the home page', 'Link to the page from higher up in the site.'),
  c('crawl_trap', 'warning', 'crawlability', 'Crawl trap: URLs that never end (repeating or collapsed path segments, copies, unbounded parameters)', 'Make the server answer 404 (or 301 to the real URL) for stacked or repeated paths, use root-relative links, and keep parameter URLs out of links (or disallow them in robots.txt).', { siteWide: true }),
  c('crawl_stopped_at_cap', 'notice', 'crawlability', 'The crawl stopped at its page cap (max_pages): part of the site was not audited', 'Start an audit with a higher max_pages, or fix the crawl traps that spend the budget.', { siteWide: true, unscored: true }),
  c('orphan_page', 'warning', 'structure', 'Orphan page (in the sitemap, linked from nowhere)', 'Link to the page from related pages.'),
  // Search and AI crawlers (ai-access-checks.ts). The owner's policy is theirs: a block is reported with its
  // consequence and costs nothing; what contradicts the owner's own rules (a likely slip) costs a little.
  c('search_engine_blocked_home', 'error', 'crawlability', 'robots.txt blocks Googlebot or Bingbot from the home page', 'Remove the Disallow that names this search engine (often a staging robots.txt gone live): blocked, the site drops out of its results.', { siteWide: true, perTarget: true }),
  c('search_crawler_blocked_home', 'warning', 'crawlability', 'A search or AI answer crawler may not fetch the home page', 'If the site should be shown and cited by that search engine or assistant, allow its user agent in robots.txt; leave it blocked if that is your choice.', { siteWide: true, perTarget: true, unscored: true }),
  c('ai_crawler_block_contradiction', 'warning', 'crawlability', "An owner's search crawler is blocked together with its training crawler", "To opt out of training only, disallow the training token (GPTBot, ClaudeBot, Google-Extended…) in a group of its own and allow the owner's search and user crawlers.", { siteWide: true, perTarget: true }),
  c('sitemap_blocked_for_crawler', 'warning', 'crawlability', 'robots.txt blocks the sitemap for a crawler it lets fetch the site', 'Allow the sitemap URLs for every crawler that may fetch the pages.', { siteWide: true, perTarget: true }),
  c('llms_txt_invalid', 'notice', 'crawlability', '/llms.txt does not follow the llmstxt.org format', 'Start with "# Site name", an optional "> summary", then H2 sections listing "- [name](url): notes" links.', { siteWide: true }),
  c('llms_txt_missing', 'notice', 'crawlability', 'No /llms.txt (optional: an index of the site for AI assistants)', 'Publish the drafted llms.txt at /llms.txt if you want assistants to find your main pages; it is optional.', { siteWide: true, unscored: true }),
  // What only JavaScript shows (rendering-checks.ts): pages the crawl rendered in Chromium, raw against rendered.
  c('content_only_after_javascript', 'warning', 'crawlability', 'Main content appears only after JavaScript runs', "Render the page's main text on the server (server-side rendering, static generation or pre-rendering): AI assistants' crawlers run no script and cannot read it, and Google indexes it only after a deferred render."),
  c('links_only_after_javascript', 'warning', 'links', 'Internal links appear only after JavaScript runs', 'Put the links in the HTML the server sends as <a href> elements: crawlers that run no script never find the pages behind them, and Google finds them late.'),
  c('directive_changed_by_javascript', 'error', 'indexability', 'JavaScript changes a robots directive or the canonical', 'Send the final robots meta and canonical in the HTML: Google may act on the raw one (a noindex in the HTML is never rendered away), and other crawlers only see that one.'),
  c('metadata_changed_by_javascript', 'notice', 'on_page', 'JavaScript sets or changes the title, description, h1 or structured data', 'Send the title, meta description, h1 and JSON-LD in the server HTML: crawlers that run no script, and link previews, see only what the server sends.'),
  c('links_without_href', 'notice', 'links', 'Elements act as links without an href', 'Make them <a href="…"> links (a router can still handle the click): crawlers follow only href addresses.'),
  c('render_resources_disallowed', 'warning', 'crawlability', 'robots.txt blocks scripts or data the page needs to render', 'Allow the site\'s scripts and API paths the pages need in robots.txt: Google renders without them and sees an incomplete page.'),
  c('render_failed', 'notice', 'crawlability', 'Page could not be rendered (its raw HTML was audited)', 'Check the page in a browser: a script error, a script that navigates elsewhere, or a page that takes longer than the render\'s time limit keeps renderers from seeing it.', { unscored: true }),
  // Core Web Vitals (page-speed-checks.ts): Lighthouse on one page per template, mobile profile (lab); the Chrome UX Report (field).
  c('slow_largest_contentful_paint', 'warning', 'performance', 'Largest Contentful Paint over 2.5 s on a phone (lab)', 'Make the largest element (often the hero image) arrive sooner: serve it small and in WebP or AVIF, load it eagerly with fetchpriority="high", and remove what blocks rendering before it.', { lighthouse: 'largest-contentful-paint' }),
  c('layout_shift_high', 'warning', 'performance', 'Layout shifts over 0.1 while the page loads (lab)', 'Give images, embeds and ads their width and height (or an aspect-ratio) and do not insert content above what is already shown.', { lighthouse: 'cumulative-layout-shift' }),
  c('main_thread_blocked', 'warning', 'performance', 'Scripts block the main thread for over 600 ms (lab Total Blocking Time)', 'Load less JavaScript up front: split bundles, defer third-party scripts, and break long tasks up; the page answers taps late until they finish.', { lighthouse: 'total-blocking-time' }),
  c('lcp_image_lazy_loaded', 'warning', 'performance', 'The largest image is lazy-loaded', 'Remove loading="lazy" from the image that is the Largest Contentful Paint (and give it fetchpriority="high"): lazy loading delays the one image that should come first.', { lighthouse: 'lcp-lazy-loaded' }),
  c('images_not_optimized', 'notice', 'performance', 'Images larger than they need to be (format or size)', 'Serve each image in WebP or AVIF, no larger than about twice its displayed size (srcset for other widths).', { lighthouse: 'uses-responsive-images' }),
  c('render_blocking_resources', 'notice', 'performance', 'Style sheets or scripts block the first paint', 'Inline the critical CSS and load the rest without blocking, and add defer (or async) to scripts in the head.', { lighthouse: 'render-blocking-resources' }),
  c('field_core_web_vitals_failed', 'warning', 'performance', "Real visitors' Core Web Vitals are not good (Chrome UX Report, phones)", 'Fix what the lab run names for the slow templates: the 75th percentile of real visits must be good for LCP (2.5 s), INP (200 ms) and CLS (0.1) to pass.'),
  c('page_speed_failed', 'notice', 'performance', 'Lighthouse could not measure the page', "Open the page in Chrome's Lighthouse panel: a page that does not paint, errors, or takes over a minute cannot be measured.", { unscored: true }),
  // Mobile, language, markup, transport
  c('html_lang_missing', 'notice', 'international', 'html element has no lang attribute', 'Add lang="…" to the html element.', { lighthouse: 'html-has-lang' }),
  c('charset_conflict', 'warning', 'content', 'Charset declared differently in the Content-Type header and in the page', 'Declare one charset (UTF-8) in both the header and <meta charset>; browsers follow the header and show garbled text otherwise.'),
  c('viewport_missing', 'warning', 'mobile', 'No viewport meta tag', 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.', { lighthouse: 'viewport' }),
  c('json_ld_invalid', 'warning', 'structured_data', 'JSON-LD block does not parse', 'Fix the JSON syntax of the structured data.', { lighthouse: 'structured-data' }),
  c('hsts_missing', 'notice', 'security', 'https site without HSTS', 'Send Strict-Transport-Security on https responses.', { siteWide: true }),
];

export const CHECKS_BY_ID = new Map(CHECKS.map((check) => [check.id, check]));
