import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { createOutboundAgent } from '../../lib/safe-http.ts';
import { evaluateCrawlerAccess, evenSample, LLMS_TXT_MAX_BYTES, MAX_SAMPLED_URLS, readLlmsTxt } from './ai-access.ts';
import { sameSite } from './urls.ts';
import { KNOWN_CRAWLERS } from './ai-crawlers.ts';
import robotsParserModule from 'robots-parser';

const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

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

  it('answers each crawler as robots-parser does, when several read one group (its answers are worked out once)', () => {
    const body = 'User-agent: GPTBot\nUser-agent: claudebot/2.1\nDisallow: /a\n\nUser-agent: Bingbot\nAllow: /private/b\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/c\nDisallow: /sitemap.xml\n';
    const robots = robotsParser(`${ORIGIN}/robots.txt`, body);
    const pages = [`${ORIGIN}/`, `${ORIGIN}/a`, `${ORIGIN}/private/b`, `${ORIGIN}/private/c`];
    for (const crawler of evaluate(body).values()) {
      const allowed = (url: string) => robots.isAllowed(url, crawler.token) !== false;
      assert.deepEqual(
        [crawler.home_allowed, crawler.blocked_sitemaps, crawler.pages_allowed_share],
        [allowed(`${ORIGIN}/`), [`${ORIGIN}/sitemap.xml`].filter((url) => !allowed(url)), pages.filter(allowed).length / pages.length],
        crawler.token,
      );
    }
    const access = evaluate(body);
    assert.notEqual(access.get('GPTBot')!.blocked_sitemaps, access.get('ClaudeBot')!.blocked_sitemaps, 'each crawler has its own list');
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

describe('reading /llms.txt', () => {
  const text = { 'content-type': 'text/plain' };
  let site: Awaited<ReturnType<typeof startFixtureSite>> | undefined;
  let other: Awaited<ReturnType<typeof startFixtureSite>>;
  const agent = createOutboundAgent({ allowPrivate: true, connectionsPerOrigin: 2, timeoutMs: 5000 });
  /** The site under test, served afresh with these routes. */
  const serve = async (routes: Parameters<typeof startFixtureSite>[0]) => {
    await site?.close();
    site = await startFixtureSite(routes);
    return site;
  };
  const read = (s: NonNullable<typeof site>) =>
    readLlmsTxt(`${s.origin}/`, { agent, allowPrivate: true, maxBytes: 1024 }, (url) => sameSite(url, s.host));

  before(async () => {
    other = await startFixtureSite({ '/llms.txt': { headers: text, body: '# Elsewhere\n' } });
  });
  after(async () => {
    await agent.close();
    await Promise.all([site?.close(), other.close()]);
  });

  it('follows a redirect on the site, and not one to another host', async () => {
    const moved = await serve({ '/llms.txt': { status: 301, headers: { location: '/docs/llms.txt' } }, '/docs/llms.txt': { headers: text, body: '# Site\n' } });
    assert.deepEqual(await read(moved), { url: `${moved.origin}/docs/llms.txt`, status: 'valid', http_status: 200, problems: [] });
    const away = await read(await serve({ '/llms.txt': { status: 302, headers: { location: `${other.origin}/llms.txt` } } }));
    assert.deepEqual([away.status, away.http_status], ['missing', 302]);
    assert.equal(other.hitsFor('/llms.txt').length, 0, 'nothing fetched from the other host');
  });

  it('reads at most 256 KB, and says so', async () => {
    const big = await read(await serve({ '/llms.txt': { headers: text, body: `# Site\n\n> ${'x'.repeat(LLMS_TXT_MAX_BYTES)}\n` } }));
    assert.deepEqual([big.status, big.problems.map((p) => p.rule)], ['invalid', ['size']]);
  });

  it('goes through the SSRF guard: a private address is not fetched unless allowed', async () => {
    const guarded = createOutboundAgent({ allowPrivate: false, connectionsPerOrigin: 1, timeoutMs: 2000 });
    try {
      const target = await serve({ '/llms.txt': { headers: text, body: '# Site\n' } });
      const result = await readLlmsTxt(`${target.origin}/`, { agent: guarded, allowPrivate: false, maxBytes: 1024 }, () => true);
      assert.deepEqual([result.status, result.http_status], ['missing', 0]);
      assert.equal(target.hitsFor('/llms.txt').length, 0);
    } finally {
      await guarded.close();
    }
  });

  it('takes an HTML page served for /llms.txt as no llms.txt', async () => {
    assert.equal((await read(await serve({ '/llms.txt': { body: '<!doctype html><html><body>Home</body></html>' } }))).status, 'missing');
  });
});
