import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startCruxServer, type CruxRecordData, type CruxServer } from '../../../test/helpers/crux-server.ts';
import { createCruxClient, CruxApiError, fieldDataFor, FIELD_DATA_LIMITS, type CruxClient } from './crux-client.ts';

let crux: CruxServer;
let client: CruxClient;

const SLOW_SITE: CruxRecordData = {
  largest_contentful_paint: { p75: 2600, densities: [0.7, 0.2, 0.1] },
  interaction_to_next_paint: { p75: 180, densities: [0.8, 0.15, 0.05] },
  cumulative_layout_shift: { p75: 0.27, densities: [0.6, 0.1, 0.3] },
  first_contentful_paint: { p75: 1500, densities: [0.82, 0.12, 0.06] },
  experimental_time_to_first_byte: { p75: 1900, densities: [0, 0.7, 0.3] },
};

before(async () => {
  crux = await startCruxServer();
  client = createCruxClient(crux.config, { retryMinMs: 10 });
});
after(async () => {
  await client.close();
  await crux.close();
});
beforeEach(() => crux.reset());

describe('CrUX client', () => {
  it("reads an origin's record as Google sends it: p75s, CLS from a string, ratings, good shares, the period", async () => {
    crux.setRecord({ origin: 'https://slow.example' }, SLOW_SITE, { first: '2024-05-05', last: '2024-06-01' });
    const data = await client.query({ origin: 'https://slow.example' });
    assert.deepEqual(data, {
      scope: 'origin', key: 'https://slow.example', form_factor: 'PHONE', period: { first: '2024-05-05', last: '2024-06-01' },
      metrics: [
        { id: 'lcp', p75: 2600, rating: 'needs_improvement', good_share: 0.7 },
        { id: 'inp', p75: 180, rating: 'good', good_share: 0.8 },
        { id: 'cls', p75: 0.27, rating: 'poor', good_share: 0.6 },
        { id: 'fcp', p75: 1500, rating: 'good', good_share: 0.82 },
        { id: 'ttfb', p75: 1900, rating: 'poor', good_share: 0 },
      ],
    });
    const sent = crux.requests.at(-1)!;
    assert.deepEqual(sent.body, {
      origin: 'https://slow.example', formFactor: 'PHONE',
      metrics: ['largest_contentful_paint', 'interaction_to_next_paint', 'cumulative_layout_shift', 'first_contentful_paint', 'experimental_time_to_first_byte'],
    });
    assert.equal(await rawCls(), '0.27', 'the stand-in sends CLS as a string, as Google does');
  });

  it("reads a page's record under the URL Google normalised, with only the metrics it has", async () => {
    crux.setRecord({ url: 'https://shop.example/cart' }, { largest_contentful_paint: { p75: 4001, densities: [0.4, 0.3, 0.3] } }, { first: '2024-01-07', last: '2024-02-03' });
    const data = await client.query({ url: 'https://shop.example/cart?utm_source=mail#top' });
    assert.deepEqual(data, {
      scope: 'url', key: 'https://shop.example/cart', form_factor: 'PHONE', period: { first: '2024-01-07', last: '2024-02-03' },
      metrics: [{ id: 'lcp', p75: 4001, rating: 'poor', good_share: 0.4 }],
    });
  });

  it('answers null when Google has too little traffic for the key (404 NOT_FOUND)', async () => {
    assert.equal(await client.query({ origin: 'https://quiet.example' }), null);
    assert.equal(await client.query({ url: 'https://quiet.example/page' }), null);
  });

  it('sends the key in the X-Goog-Api-Key header and never in the URL', async () => {
    await client.query({ origin: 'https://quiet.example' });
    const sent = crux.requests.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.path, '/v1/records:queryRecord');
    assert.equal(sent.headers['x-goog-api-key'], crux.apiKey);
    assert.ok(!sent.url.includes(crux.apiKey), `the key is not in ${sent.url}`);
    assert.equal(new URL(sent.url).search, '', 'no query string at all');
  });

  it('rejects a wrong key (400 API_KEY_INVALID) as keyRejected, without retrying', async () => {
    const wrong = createCruxClient({ ...crux.config, apiKey: 'AIzaSy-wrong' }, { retryMinMs: 10 });
    try {
      const error = await wrong.query({ origin: 'https://slow.example' }).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof CruxApiError, String(error));
      assert.equal(error.status, 400);
      assert.equal(error.googleStatus, 'INVALID_ARGUMENT');
      assert.equal(error.reason, 'API_KEY_INVALID');
      assert.ok(error.keyRejected);
      assert.ok(!error.quota);
      assert.match(error.message, /API key not valid/);
      assert.ok(!error.message.includes('AIzaSy-wrong'), 'the key is not in the message');
      assert.equal(crux.requests.length, 1, 'not retried');
    } finally {
      await wrong.close();
    }
  });

  it('rejects a key blocked for this API (403 PERMISSION_DENIED) as keyRejected too', async () => {
    crux.blockKey();
    const error = await client.query({ origin: 'https://slow.example' }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof CruxApiError && error.keyRejected && error.status === 403 && error.googleStatus === 'PERMISSION_DENIED', String(error));
  });

  it('does not call an invalid argument that is not about the key a rejected key', () => {
    const error = new CruxApiError('The CrUX API answered 400: Invalid metric name', 400, 'INVALID_ARGUMENT');
    assert.ok(!error.keyRejected);
  });

  it('retries 429 after the Retry-After Google sends, then reads the record', async () => {
    crux.setRecord({ origin: 'https://busy.example' }, SLOW_SITE);
    crux.failNext(429, 1, 1);
    const started = Date.now();
    const data = await client.query({ origin: 'https://busy.example' });
    assert.equal(data?.key, 'https://busy.example');
    assert.equal(crux.requests.length, 2, 'one 429, one retry');
    assert.ok(Date.now() - started >= 900, 'waited the second Retry-After asked for, not retryMinMs');
  });

  it('gives up on a quota that retries do not outlast, as a quota error', async () => {
    crux.failNext(429, 10);
    const error = await client.query({ origin: 'https://busy.example' }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof CruxApiError && error.quota && !error.keyRejected, String(error));
    assert.equal(crux.requests.length, 4, 'the first try and three retries');
  });
});

describe('field data for a site', () => {
  it('reads the origin and each page, a page without data as null', async () => {
    crux.setRecord({ origin: 'https://slow.example' }, SLOW_SITE);
    crux.setRecord({ url: 'https://slow.example/a' }, { cumulative_layout_shift: { p75: 0.05, densities: [0.9, 0.05, 0.05] } });
    const result = await fieldDataFor(client, 'https://slow.example/', ['https://slow.example/a', 'https://slow.example/b', 'https://slow.example/a']);
    assert.equal(result.error, undefined);
    assert.equal(result.origin?.key, 'https://slow.example');
    assert.deepEqual(result.pages.get('https://slow.example/a')?.metrics, [{ id: 'cls', p75: 0.05, rating: 'good', good_share: 0.9 }]);
    assert.equal(result.pages.get('https://slow.example/b'), null);
    assert.equal(crux.requests.length, 3, 'a URL listed twice is queried once');
  });

  it('stops at the first rejected key and reports it once, without throwing', async () => {
    const wrong = createCruxClient({ ...crux.config, apiKey: 'AIzaSy-wrong' }, { retryMinMs: 10 });
    try {
      const result = await fieldDataFor(wrong, 'https://slow.example', ['https://slow.example/a', 'https://slow.example/b']);
      assert.match(result.error ?? '', /API key not valid/);
      assert.equal(result.origin, null);
      assert.equal(result.pages.size, 0);
      assert.equal(crux.requests.length, 1, 'no page queried after the origin failed');
    } finally {
      await wrong.close();
    }
  });

  it('stops the pages still queued when one fails midway', async () => {
    crux.setRecord({ origin: 'https://slow.example' }, SLOW_SITE);
    // The origin succeeds, then the quota runs out on the second page.
    const urls = Array.from({ length: 12 }, (_, i) => `https://slow.example/p${i}`);
    let calls = 0;
    const failing = { query: async (target: { origin: string } | { url: string }) => {
      calls += 1;
      if (calls === 3) throw new CruxApiError('The CrUX API answered 429: Quota exceeded', 429, 'RESOURCE_EXHAUSTED');
      return client.query(target);
    } };
    const result = await fieldDataFor(failing, 'https://slow.example', urls);
    assert.match(result.error ?? '', /Quota exceeded/);
    assert.ok(result.origin);
    // The pages already in flight when the quota ran out finish; none starts after.
    assert.equal(calls, 1 + FIELD_DATA_LIMITS.concurrency);
    assert.equal(result.pages.size, FIELD_DATA_LIMITS.concurrency - 1);
  });

  it(`queries at most ${FIELD_DATA_LIMITS.maxUrls} pages, ${FIELD_DATA_LIMITS.concurrency} at a time`, async () => {
    crux.setRecord({ origin: 'https://big.example' }, SLOW_SITE);
    crux.setLatency(30);
    const urls = Array.from({ length: 30 }, (_, i) => `https://big.example/p${i}`);
    const result = await fieldDataFor(client, 'https://big.example', urls);
    assert.equal(result.error, undefined);
    assert.equal(result.pages.size, FIELD_DATA_LIMITS.maxUrls);
    assert.deepEqual([...result.pages.keys()].sort(), urls.slice(0, FIELD_DATA_LIMITS.maxUrls).sort());
    assert.equal(crux.requests.length, 1 + FIELD_DATA_LIMITS.maxUrls);
    assert.ok(crux.maxInFlight() > 1, 'pages are queried concurrently');
    assert.ok(crux.maxInFlight() <= FIELD_DATA_LIMITS.concurrency, `at most ${FIELD_DATA_LIMITS.concurrency} at once (saw ${crux.maxInFlight()})`);
  });
});

/** CLS's p75 exactly as the stand-in put it on the wire for the last query. */
async function rawCls() {
  const sent = crux.requests.at(-1)!;
  const response = await fetch(sent.url, { method: 'POST', headers: { 'x-goog-api-key': crux.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(sent.body) });
  return ((await response.json()) as any).record.metrics.cumulative_layout_shift.percentiles.p75 as unknown;
}
