import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCrawlerAccess, evenSample, MAX_SAMPLED_URLS } from './ai-access.ts';
import { KNOWN_CRAWLERS } from './ai-crawlers.ts';

const ORIGIN = 'https://x.test';
const evaluate = (body: string | undefined, status = 200, pageUrls = [`${ORIGIN}/`, `${ORIGIN}/a`, `${ORIGIN}/private/b`, `${ORIGIN}/private/c`]) =>
  new Map(evaluateCrawlerAccess({ robotsUrl: `${ORIGIN}/robots.txt`, status, body, homeUrl: `${ORIGIN}/`, sitemaps: [`${ORIGIN}/sitemap.xml`], pageUrls }).map((c) => [c.token, c]));

describe('crawler access from robots.txt', () => {
  it('reads each crawler under its own group, the wildcard group, or none', () => {
    const access = evaluate('User-agent: GPTBot\nUser-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nDisallow: /sitemap.xml\n');
    const gpt = access.get('GPTBot')!;
    assert.deepEqual([gpt.home_allowed, gpt.sitemaps_allowed, gpt.pages_allowed_share, gpt.matched_group], [false, false, 0, 'explicit']);
    assert.equal(access.get('OAI-SearchBot')!.group, gpt.group, 'one group names both');
    const claude = access.get('ClaudeBot')!;
    assert.deepEqual([claude.home_allowed, claude.sitemaps_allowed, claude.pages_allowed_share, claude.matched_group, claude.group], [true, false, 0.5, 'wildcard', null]);
    assert.deepEqual(claude.blocked_sitemaps, [`${ORIGIN}/sitemap.xml`]);
    assert.equal(access.size, KNOWN_CRAWLERS.length);
  });

  it('matches tokens whatever their case or version suffix, as robots.txt readers do', () => {
    const access = evaluate('User-agent: claudebot/1.0\nDisallow: /\n');
    assert.deepEqual([access.get('ClaudeBot')!.home_allowed, access.get('ClaudeBot')!.matched_group], [false, 'explicit']);
    assert.equal(access.get('GPTBot')!.matched_group, 'none');
  });

  it('allows everything when robots.txt is missing (4xx)', () => {
    for (const crawler of evaluate('User-agent: *\nDisallow: /\n', 404).values()) {
      assert.deepEqual([crawler.home_allowed, crawler.pages_allowed_share, crawler.matched_group], [true, 1, 'none']);
    }
  });

  it('says Google-Extended and Applebot-Extended are control tokens, not crawlers', () => {
    assert.deepEqual(KNOWN_CRAWLERS.filter((c) => c.controlToken).map((c) => c.token), ['Google-Extended', 'Applebot-Extended']);
    assert.equal(new Set(KNOWN_CRAWLERS.map((c) => c.token.toLowerCase())).size, KNOWN_CRAWLERS.length);
  });

  it('samples at most 1,000 pages, spread over the crawl', () => {
    const urls = Array.from({ length: 5000 }, (_, i) => `${ORIGIN}/p${i}`);
    const sample = evenSample(urls, MAX_SAMPLED_URLS);
    assert.equal(sample.length, MAX_SAMPLED_URLS);
    assert.deepEqual([sample[0], sample[999]], [`${ORIGIN}/p0`, `${ORIGIN}/p4995`]);
    assert.equal(evaluate('User-agent: *\nDisallow: /p1\n', 200, urls).get('GPTBot')!.pages_allowed_share, 0.778);
  });
});
