/**
 * The search and AI crawlers whose access the audit reports, in one place: when an owner
 * publishes a new token, add it here (and only here). `purpose` is what the owner says the
 * token is for; it decides how a block is reported, never whether the block is right:
 *   training  - content collected to train models (blocking it is the owner's choice, never an issue)
 *   search    - an index that answers and cites (blocked: the site is not shown or cited)
 *   user      - a page fetched because a person asked an assistant about it, right now
 */
export type CrawlerPurpose = 'training' | 'search' | 'user';

export interface KnownCrawler {
  /** The user-agent token robots.txt groups name. */
  token: string;
  owner: string;
  purpose: CrawlerPurpose;
  /** A token robots.txt obeys but no crawler sends: it says what the owner's other crawlers' fetches may be used for. */
  controlToken?: true;
  /** The owner's own page about the token; null where the owner publishes none. */
  docs: string | null;
  /**
   * A web search engine most of a site's search traffic comes from: blocking it from the home page is almost never meant
   * (a staging robots.txt gone live), so it is an error that costs score, unlike an AI crawler's block.
   */
  searchEngine?: true;
}

const k = (token: string, owner: string, purpose: CrawlerPurpose, docs: string | null, extra: Partial<KnownCrawler> = {}): KnownCrawler =>
  ({ token, owner, purpose, docs, ...extra });

export const KNOWN_CRAWLERS: readonly KnownCrawler[] = [
  k('GPTBot', 'OpenAI', 'training', 'https://platform.openai.com/docs/bots'),
  k('OAI-SearchBot', 'OpenAI', 'search', 'https://platform.openai.com/docs/bots'),
  k('ChatGPT-User', 'OpenAI', 'user', 'https://platform.openai.com/docs/bots'),
  k('ClaudeBot', 'Anthropic', 'training', 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler'),
  k('Claude-SearchBot', 'Anthropic', 'search', 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler'),
  k('Claude-User', 'Anthropic', 'user', 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler'),
  k('PerplexityBot', 'Perplexity', 'search', 'https://docs.perplexity.ai/guides/bots'),
  k('Perplexity-User', 'Perplexity', 'user', 'https://docs.perplexity.ai/guides/bots'),
  // Googlebot's fetches are used for Gemini's training unless this token is disallowed.
  k('Google-Extended', 'Google', 'training', 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers#google-extended', { controlToken: true }),
  k('Googlebot', 'Google', 'search', 'https://developers.google.com/search/docs/crawling-indexing/googlebot', { searchEngine: true }),
  k('Bingbot', 'Microsoft', 'search', 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0', { searchEngine: true }),
  k('Applebot', 'Apple', 'search', 'https://support.apple.com/en-us/119829'),
  // Applebot's fetches are used for Apple's models unless this token is disallowed.
  k('Applebot-Extended', 'Apple', 'training', 'https://support.apple.com/en-us/119829', { controlToken: true }),
  k('DuckAssistBot', 'DuckDuckGo', 'search', 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot'),
  k('MistralAI-User', 'Mistral AI', 'user', 'https://docs.mistral.ai/robots'),
  k('Meta-ExternalAgent', 'Meta', 'training', 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/'),
  k('Meta-ExternalFetcher', 'Meta', 'user', 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/'),
  // Amazon says Amazonbot's fetches improve its services and may train its models.
  k('Amazonbot', 'Amazon', 'training', 'https://developer.amazon.com/amazonbot'),
  k('CCBot', 'Common Crawl', 'training', 'https://commoncrawl.org/ccbot'),
  // ByteDance documents no robots.txt token; Bytespider is the name its crawler sends.
  k('Bytespider', 'ByteDance', 'training', null),
];
