import type { Platform } from '../../db/types.ts';
import type { CrawlResult } from '../crawler/crawl.ts';

const GENERATORS: Array<[RegExp, Platform]> = [
  [/wordpress/i, 'wordpress'], [/shopify/i, 'shopify'], [/wix\.com/i, 'wix'], [/squarespace/i, 'squarespace'],
  [/webflow/i, 'webflow'], [/drupal/i, 'drupal'], [/joomla/i, 'joomla'],
];

/** The platform from the generator meta tag and response headers of the crawled pages; 'custom' otherwise. */
export function detectPlatform(crawl: CrawlResult): Platform {
  const headers = crawl.homeHeaders;
  const hints = [
    ...crawl.pages.slice(0, 20).map((p) => p.facts?.generator ?? ''),
    headers['x-powered-by'] ?? '', headers['x-generator'] ?? '', headers.server ?? '', headers.link ?? '',
  ].join(' ');
  if (headers['x-shopid'] || headers['x-shopify-stage']) return 'shopify';
  if (headers['x-wix-request-id']) return 'wix';
  if (/api\.w\.org/.test(headers.link ?? '')) return 'wordpress';
  for (const [pattern, platform] of GENERATORS) if (pattern.test(hints)) return platform;
  return crawl.pages.some((p) => p.facts) ? 'custom' : 'unknown';
}
