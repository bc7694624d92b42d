import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../../test/helpers/app.ts';
import { startGoogleServer, type GoogleServer, type GscRow } from '../../../../test/helpers/google-server.ts';
import { until } from '../../../../test/helpers/wait.ts';
import { DAY_MS, isoDate, pacificToday } from '../../search-data/periods.ts';
import { createGoogleClient, GoogleApiError, isUnverifiedPermission, normalizeScopes } from './google-client.ts';
import { SYNC_JOB } from './search-sync.ts';

// Google as its documents and discovery documents describe it, where it differs from what a
// client and a stand-in written together would agree on.
let google: GoogleServer;
let ctx: TestContext;
const yesterday = pacificToday() - DAY_MS;
const date = (back: number) => isoDate(yesterday - (back - 1) * DAY_MS);

async function connectedSite(sub: string, domain: string) {
  const user = await signUp(ctx);
  const site = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: sub, domain } })).data;
  const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect', token: user.accessToken });
  const consent = google.authorize(start.data.authorization_url, { sub, email: `${sub}@gmail.com` });
  const cookie = start.cookies.find((c) => c.name === 'sos_google_connect_state')!;
  const back = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies: { sos_google_connect_state: cookie.value } });
  assert.equal(back.statusCode, 200, back.body);
  return { user, siteId: site.id as string, connected: back.json() as { scopes: string[]; missing_scopes: string[] } };
}

const progress = (user: SignedInUser, siteId: string) => call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/progress`, token: user.accessToken }).then((r) => r.data);
async function syncAndWait(user: SignedInUser, siteId: string) {
  const before = (await progress(user, siteId)).last_analytics_sync_at;
  await ctx.app.jobs.send(SYNC_JOB, { siteId });
  return until(() => progress(user, siteId), (p) => p.last_analytics_sync_at !== null && p.last_analytics_sync_at !== before, 'a sync', 60_000);
}

before(async () => {
  google = await startGoogleServer();
  ctx = await startTestApp({ ...google.env, PUBLIC_URL: 'http://service.test' });
});
after(async () => {
  await ctx.close();
  await google.close();
});

describe('Google scopes and permissions as Google spells them', () => {
  it("treats Google's userinfo.email in the token response as the email scope asked for", async () => {
    const { connected } = await connectedSite('scope-sub', 'scope-example.com');
    const token = google.requests.filter((r) => r.path === '/token').at(-1);
    assert.ok(token, 'a token request was made');
    assert.deepEqual(connected.missing_scopes, []);
    assert.ok(connected.scopes.includes('email'));
    assert.deepEqual(normalizeScopes('openid https://www.googleapis.com/auth/userinfo.email  profile'), ['openid', 'email', 'profile']);
  });

  it('never picks a property the user is unverified on, in either spelling', async () => {
    assert.ok(isUnverifiedPermission('siteUnverifiedUser') && isUnverifiedPermission('SITE_UNVERIFIED_USER'));
    assert.ok(!isUnverifiedPermission('siteOwner') && !isUnverifiedPermission('siteFullUser'));
    google.properties('unverified-sub', [
      { siteUrl: 'sc-domain:unverified-example.com', permissionLevel: 'SITE_UNVERIFIED_USER' },
      { siteUrl: 'https://unverified-example.com/', permissionLevel: 'siteUnverifiedUser' },
    ]);
    const { user, siteId } = await connectedSite('unverified-sub', 'unverified-example.com');
    const done = await syncAndWait(user, siteId);
    assert.match(done.analytics_sync_error, /No Search Console property of the connected account matches/);
  });
});

describe('Search Console data as Google sends it', () => {
  it('asks for Pacific Time days, stores only complete ones (first_incomplete_date), and survives rows repeated across pages', async () => {
    const rows: GscRow[] = [];
    for (let back = 90; back >= 1; back--) {
      for (let q = 0; q < 300; q++) rows.push({ date: date(back), query: `q${q}`, page: `https://wire-example.com/${q % 9}`, clicks: q % 3, impressions: 10, position: 5 });
    }
    google.properties('wire-sub', [{ siteUrl: 'sc-domain:wire-example.com', permissionLevel: 'siteOwner' }]);
    // Rows tied on clicks reorder between pages: the second page starts with 10 of the first's.
    google.searchData('sc-domain:wire-example.com', rows, { firstIncompleteDate: date(2), overlapRows: 10 });
    const { user, siteId } = await connectedSite('wire-sub', 'wire-example.com');
    const done = await syncAndWait(user, siteId);
    assert.equal(done.analytics_sync_error, null);

    const asked = google.requests.filter((r) => r.path.endsWith('/searchAnalytics/query')).map((r) => r.body as { endDate: string; startRow: number });
    assert.ok(asked.every((b) => b.endDate === date(1)), `endDate is yesterday in Pacific Time (${date(1)})`);
    assert.ok(asked.some((b) => b.startRow === 25_000), 'the detail rows took a second page');

    const db = ctx.database.db;
    const latest = await db.selectFrom('search_daily').select((eb) => eb.fn.max('date').as('d')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
    assert.equal(latest.d, date(3), 'the days from first_incomplete_date on are not stored');
    const detail = await db.selectFrom('search_query_daily').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
    assert.equal(Number(detail.n), 88 * 300, 'every complete row once, the repeated ones not twice');
    const site = (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: user.accessToken })).data;
    assert.equal(site.gsc_property, 'sc-domain:wire-example.com');

    // The dashboard's period ends at that last complete day and says so.
    const dashboard = (await call(ctx, { method: 'GET', url: `/api/v1/analytics/dashboard?site_id=${siteId}&period=7d`, token: user.accessToken })).data;
    assert.equal(dashboard.organic_traffic.end, date(3));
    assert.equal(dashboard.organic_traffic.start, date(9));
  });

  it('retries a 429 that carries no Retry-After', async () => {
    const { user, siteId } = await connectedSite('retry-sub', 'retry-example.com');
    google.properties('retry-sub', [{ siteUrl: 'sc-domain:retry-example.com', permissionLevel: 'siteOwner' }]);
    google.searchData('sc-domain:retry-example.com', [{ date: date(3), query: 'a', page: 'https://retry-example.com/', clicks: 4, impressions: 9, position: 2 }]);
    google.failNext('/webmasters/v3/sites/', 429, { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } });
    const done = await syncAndWait(user, siteId);
    assert.equal(done.analytics_sync_error, null);
    const stored = await ctx.database.db.selectFrom('search_daily').select('clicks').where('site_id', '=', siteId).execute();
    assert.deepEqual(stored.map((r) => r.clicks), [4]);
  });
});

describe('GA4 as Google answers', () => {
  it('asks for keyEvents (Google refuses the retired conversions) and stores it as conversions', async () => {
    google.properties('ga4-sub', [{ siteUrl: 'sc-domain:ga4-example.com', permissionLevel: 'siteOwner' }]);
    google.searchData('sc-domain:ga4-example.com', [{ date: date(3), query: 'a', page: 'https://ga4-example.com/', clicks: 1, impressions: 2, position: 3 }]);
    google.analyticsData('properties/77', [{ date: date(3), sessions: 10, screenPageViews: 20, bounceRate: 0.5, keyEvents: 4 }]);
    const { user, siteId } = await connectedSite('ga4-sub', 'ga4-example.com');
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: user.accessToken, payload: { ga4_property: 'properties/77' } });
    const done = await syncAndWait(user, siteId);
    assert.equal(done.analytics_sync_error, null);
    const report = google.requests.filter((r) => r.path.endsWith(':runReport')).at(-1)!.body as { metrics: Array<{ name: string }> };
    assert.deepEqual(report.metrics.map((m) => m.name), ['sessions', 'screenPageViews', 'bounceRate', 'keyEvents']);
    const row = await ctx.database.db.selectFrom('analytics_daily').select(['conversions', 'sessions']).where('site_id', '=', siteId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { conversions: 4, sessions: 10 });
  });

  it('the stand-in refuses an unknown metric with 400 INVALID_ARGUMENT, as Google does', async () => {
    const client = createGoogleClient({ ...configFor(google), clientSecret: google.clientSecret }, { retryMinMs: 10 });
    try {
      const token = google.issueAccessToken('ga4-sub');
      await assert.rejects(client.runReport(token, 'properties/77', { dateRanges: [{ startDate: date(5), endDate: date(1) }], metrics: [{ name: 'conversions' }] }),
        (error: GoogleApiError) => error.status === 400 && error.reason === 'badRequest' && /conversions is not a valid metric/.test(error.message));
    } finally {
      await client.close();
    }
  });

  it('a GA4 property the user cannot read (403) is reported, and the Search Console sync still counts', async () => {
    google.properties('noga4-sub', [{ siteUrl: 'sc-domain:noga4-example.com', permissionLevel: 'siteOwner' }]);
    google.searchData('sc-domain:noga4-example.com', [{ date: date(3), query: 'a', page: 'https://noga4-example.com/', clicks: 1, impressions: 2, position: 3 }]);
    const { user, siteId } = await connectedSite('noga4-sub', 'noga4-example.com');
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: user.accessToken, payload: { ga4_property: 'properties/404404' } });
    const done = await syncAndWait(user, siteId);
    assert.match(done.analytics_sync_error, /Google Analytics \(properties\/404404\).*403.*sufficient permissions/);
    const site = await ctx.database.db.selectFrom('sites').select(['search_backfilled']).where('id', '=', siteId).executeTakeFirstOrThrow();
    assert.equal(site.search_backfilled, true, 'the 16-month backfill is not repeated every day');
  });
});

describe('OAuth errors as Google answers them', () => {
  it('a wrong client secret is 401 invalid_client', async () => {
    const client = createGoogleClient({ ...configFor(google), clientSecret: 'wrong' }, { retryMinMs: 10 });
    try {
      await assert.rejects(client.refresh('1//whatever'), (error: GoogleApiError) => error.status === 401 && error.reason === 'invalid_client');
    } finally {
      await client.close();
    }
  });
});

function configFor(server: GoogleServer) {
  const env = server.env;
  return {
    clientId: server.clientId, clientSecret: server.clientSecret, authUrl: env.GOOGLE_AUTH_URL, tokenUrl: env.GOOGLE_TOKEN_URL,
    revokeUrl: env.GOOGLE_REVOKE_URL, jwksUrl: env.GOOGLE_JWKS_URL, issuer: env.GOOGLE_ISSUER,
    searchConsoleUrl: env.GOOGLE_SEARCH_CONSOLE_URL, analyticsDataUrl: env.GOOGLE_ANALYTICS_DATA_URL,
  };
}
