import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostOfNormalizedHref, normalizeUrl, sameSite } from './urls.ts';

describe('the host of a link, read from its address', () => {
  it('is what URL parses, for any address normalizeUrl writes, and parsed for one it did not (property, fixed seed)', () => {
    const written = fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withUserInfo: true, withPort: true, withIPv4: true, withIPv6: true } })
      .map((url) => normalizeUrl(url, 'https://example.com/'))
      .filter((url): url is string => url !== undefined);
    fc.assert(fc.property(written, (url) => hostOfNormalizedHref(url) === new URL(url).host), { seed: 20261126, numRuns: 3000 });
    for (const raw of ['HTTP://Example.COM/a', 'http://example.com?x=/y', 'http://exa%6Dple.com/', 'https://user@Host.example/', 'http://example.com\\path/x',
      'http://example.com:80/a', 'https://bücher.de/', 'http:///x', 'http://1.2.3/', 'http://1.2.3:8080/', 'http://0x7f.0.0.1/', 'http://017.1.1.1:81/',
      'http://example.com:/', 'http://example.com:0080/', 'http://[0:0::1]/', 'http://127.0.0.1:8080/']) {
      assert.equal(hostOfNormalizedHref(raw), new URL(raw).host, raw);
    }
    assert.equal(hostOfNormalizedHref('not a url'), undefined);
  });

  it('is the same site for the start host and its www. twin, on its port only', () => {
    assert.equal(sameSite('https://www.shop.example/a', 'shop.example'), true);
    assert.equal(sameSite('https://shop.example/a', 'www.shop.example'), true);
    assert.equal(sameSite('https://shop.example:8443/a', 'shop.example'), false);
    assert.equal(sameSite('https://evil.example/@shop.example/', 'shop.example'), false);
    assert.equal(sameSite('https://shop.example@evil.example/', 'shop.example'), false);
    assert.equal(sameSite('not a url', 'www.undefined'), false);
  });
});
