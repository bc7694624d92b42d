import type { Platform } from '../../db/types.ts';
import type { CrawlResult } from '../crawler/crawl.ts';

const GENERATORS: Array<[RegExp, Platform]> = [
  [/wordpress/i, 'wordpress'], [/shopify/i, 'shopify'], [/wix\.com/i, 'wix'], [/squarespace/i, 'squarespace'],
  [/webflow/i, 'webflow'], [/drupal/i, 'drupal'], [/joomla/i, 'joomla'],
];

/** Where each platform serves its assets from. */
const ASSET_PATTERNS: Array<[RegExp, Platform]> = [
  [/\/wp-(content|includes)\//i, 'wordpress'], [/cdn\.shopify\.com|\/cdn\/shop\//i, 'shopify'],
  [/static\.wixstatic\.com|parastorage\.com/i, 'wix'], [/squarespace(-cdn)?\.com/i, 'squarespace'],
  [/website-files\.com|webflow\.(com|io)/i, 'webflow'], [/\/sites\/(default|all)\/(files|themes|modules)\/|\/core\/misc\/drupal/i, 'drupal'],
  [/\/media\/(jui|system)\/|\/components\/com_/i, 'joomla'],
];

/**
 * The platform from, in order: response headers, the generator meta tag, the home page's
 * asset URLs, and well-known paths (/wp-json/); 'custom' when pages were read but nothing
 * gave it away, 'unknown' when no page was read.
 */
export function detectPlatform(crawl: CrawlResult): Platform {
  const headers = crawl.homeHeaders;
  if (headers['x-shopid'] || headers['x-shopify-stage']) return 'shopify';
  if (headers['x-wix-request-id']) return 'wix';
  if (/api\.w\.org/.test(headers.link ?? '')) return 'wordpress';
  const generators = [
    ...crawl.pages.slice(0, 20).map((p) => p.facts?.generator ?? ''),
    headers['x-powered-by'] ?? '', headers['x-generator'] ?? '',
  ].join(' ');
  for (const [pattern, platform] of GENERATORS) if (pattern.test(generators)) return platform;
  const assets = crawl.platformHints.homeAssets.join(' ');
  for (const [pattern, platform] of ASSET_PATTERNS) if (pattern.test(assets)) return platform;
  if (crawl.platformHints.wordpressApi) return 'wordpress';
  return crawl.pages.some((p) => p.facts) ? 'custom' : 'unknown';
}
