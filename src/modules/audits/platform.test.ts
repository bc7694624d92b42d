import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { page, startFixtureSite, type FixtureRoute } from '../../../test/helpers/fixture-site.ts';
import { crawlSite } from '../crawler/crawl.ts';
import { detectPlatform } from './platform.ts';

async function platformOf(routes: Record<string, FixtureRoute>) {
  const site = await startFixtureSite(routes);
  try {
    return detectPlatform(await crawlSite({ domain: site.host, maxPages: 5, allowPrivate: true }));
  } finally {
    await site.close();
  }
}

describe('platform detection', () => {
  it('reads the generator meta tag', async () => {
    assert.equal(await platformOf({ '/': { body: page({ head: '<meta name="generator" content="Drupal 10 (https://www.drupal.org)">' }) } }), 'drupal');
  });

  it('recognises asset paths when the generator is hidden', async () => {
    const wordpress = page({ head: '<link rel="stylesheet" href="/wp-content/themes/x/style.css">' });
    assert.equal(await platformOf({ '/': { body: wordpress } }), 'wordpress');
    const shopify = page({ head: '<script src="https://cdn.shopify.com/s/files/1/theme.js"></script>' });
    assert.equal(await platformOf({ '/': { body: shopify } }), 'shopify');
  });

  it('asks the well-known WordPress REST index', async () => {
    const platform = await platformOf({
      '/': { body: page() },
      '/wp-json/': { headers: { 'content-type': 'application/json' }, body: '{"name":"Site","namespaces":["wp/v2"]}' },
    });
    assert.equal(platform, 'wordpress');
  });

  it('trusts platform headers', async () => {
    assert.equal(await platformOf({ '/': { headers: { 'x-shopid': '123' }, body: page() } }), 'shopify');
  });

  it("says custom when pages were read but nothing gave a platform away, unknown when none were", async () => {
    assert.equal(await platformOf({ '/': { body: page() }, '/wp-json/': { body: '<html>not the API</html>' } }), 'custom');
    assert.equal(await platformOf({ '/': { destroy: true } }), 'unknown');
  });
});
