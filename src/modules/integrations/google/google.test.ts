import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../../test/helpers/app.ts';
import { startGoogleServer, type GoogleServer, type GscRow } from '../../../../test/helpers/google-server.ts';
import { assertRejectsBadTokens } from '../../../../test/helpers/security.ts';
import { until } from '../../../../test/helpers/wait.ts';
import { SYNC_JOB } from './search-sync.ts';
import { pacificToday } from '../../search-data/periods.ts';

let google: GoogleServer;
let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let siteId: string;

const DAY = 86_400_000;
// Google's days are Pacific Time: between midnight UTC and midnight in California, "today" differs.
const today = pacificToday();
const date = (back: number) => new Date(today - back * DAY).toISOString().slice(0, 10);
/** 300 queries a day over 90 days: 27,000 query×page rows, more than one 25,000-row page. */
function searchRows(): GscRow[] {
  const rows: GscRow[] = [];
  for (let back = 90; back >= 1; back--) {
    for (let q = 0; q < 300; q++) {
      rows.push({ date: date(back), query: `garden query ${q}`, page: `https://example-garden.com/p/${q % 20}`, clicks: q % 7, impressions: 20 + (q % 11), position: 1 + (q % 30) });
    }
  }
  return rows;
}

/** Connects the user's Google account through the whole browser round trip. */
async function connect(user: SignedInUser, sub: string) {
  const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect', token: user.accessToken });
  assert.equal(start.statusCode, 200);
  const consent = google.authorize(start.data.authorization_url, { sub, email: `${sub}@gmail.com` });
  // In the browser that asked for the link: it holds the state cookie the connect answer set.
  const cookie = start.cookies.find((c) => c.name === 'sos_google_connect_state')!;
  const back = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies: { sos_google_connect_state: cookie.value } });
  return { start: start.data.authorization_url as string, consent, back };
}

before(async () => {
  google = await startGoogleServer();
  ctx = await startTestApp({ ...google.env, PUBLIC_URL: 'http://service.test' });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Garden', domain: 'example-garden.com' } })).data.id;
  google.properties('owner-sub', [
    { siteUrl: 'sc-domain:example-garden.com', permissionLevel: 'siteOwner' },
    { siteUrl: 'https://blog.example-garden.com/', permissionLevel: 'siteFullUser' },
  ]);
  google.searchData('sc-domain:example-garden.com', searchRows());
  google.analyticsData('properties/123', Array.from({ length: 30 }, (_, i) => ({ date: date(i + 1), sessions: 100 + i, screenPageViews: 250 + i, bounceRate: 0.4, keyEvents: 3 })));
});
after(async () => {
  await ctx.close();
  await google.close();
});

describe('connecting Google', () => {
  it('asks Google for read-only Search Console and GA4 access, offline, with PKCE S256 and a state', async () => {
    const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect', token: owner.accessToken });
    const url = new URL(start.data.authorization_url);
    assert.equal(url.origin + url.pathname, google.env.GOOGLE_AUTH_URL);
    assert.equal(url.searchParams.get('redirect_uri'), 'http://service.test/api/v1/integrations/google/callback');
    assert.equal(url.searchParams.get('access_type'), 'offline');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('scope')!, /webmasters\.readonly.*analytics\.readonly/);
    assert.ok(url.searchParams.get('state')!.length >= 40);
  });

  it('refuses a callback with an unknown or replayed state, and a code redeemed with the wrong PKCE verifier', async () => {
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/v1/integrations/google/callback?code=x&state=forged' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().detail, /Unknown or expired state/);

    const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect', token: other.accessToken });
    const tampered = new URL(start.data.authorization_url);
    tampered.searchParams.set('code_challenge', 'AAAA-not-the-challenge-of-the-stored-verifier-AAAAAAAAAAAA');
    const consent = google.authorize(tampered.href, { sub: 'other-sub', email: 'other@gmail.com' });
    const cookies = { sos_google_connect_state: start.cookies.find((c) => c.name === 'sos_google_connect_state')!.value };
    const refused = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().detail, /invalid_grant/);
    const replay = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies });
    assert.match(replay.json().detail, /Unknown or expired state/, 'a state is good once');
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: other.accessToken })).data.connected, false);
  });

  it('answers 409 for properties before connecting, and 401 without a token', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/search-console/properties', token: other.accessToken });
    assert.equal(res.statusCode, 409);
    assert.match(res.data.detail, /Google is not connected/);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/integrations/google/search-console/properties' }, owner);
  });

  it('is bound to the browser that asked for the consent link, for API clients too (a forwarded link connects nothing)', async () => {
    const attacker = await signUp(ctx);
    const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect', token: attacker.accessToken });
    const victim = google.authorize(start.data.authorization_url, { sub: 'victim-api-sub', email: 'victim-api@gmail.com' });
    const refused = await ctx.app.inject({ method: 'GET', url: victim.redirect.pathname + victim.redirect.search });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match(refused.json().detail, /not started in this browser/);
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: attacker.accessToken })).data.connected, false, 'the victim\'s grant is not the attacker\'s');
  });

  it('started by the web app, goes back to its settings saying so (or why not)', async () => {
    const someone = await signUp(ctx);
    const start = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect?return=app', token: someone.accessToken });
    const cookie = start.cookies.find((c) => c.name === 'sos_google_connect_state')!;
    assert.ok(cookie && cookie.httpOnly && cookie.sameSite === 'Lax' && cookie.path === '/api/v1/integrations/google/callback', JSON.stringify(start.cookies));
    const consent = google.authorize(start.data.authorization_url, { sub: 'app-connect-sub', email: 'app-connect@gmail.com' });
    // OAuth CSRF: the consent link opened in another browser (no state cookie) connects nothing to this account.
    const victim = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect?return=app', token: someone.accessToken });
    const forwarded = google.authorize(victim.data.authorization_url, { sub: 'victim-sub', email: 'victim@gmail.com' });
    const refused = await ctx.app.inject({ method: 'GET', url: forwarded.redirect.pathname + forwarded.redirect.search });
    assert.equal(refused.statusCode, 303);
    assert.equal(refused.headers.location, '/settings?google_error=other_browser');
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: someone.accessToken })).data.connected, false, 'the victim\'s grant is not stored');
    const back = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies: { sos_google_connect_state: cookie.value } });
    assert.equal(back.statusCode, 303, back.body);
    assert.equal(back.headers.location, '/settings?google=connected');
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: someone.accessToken })).data.connected, true);

    const again = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/connect?return=app', token: someone.accessToken });
    const state = new URL(again.data.authorization_url).searchParams.get('state')!;
    const denied = await ctx.app.inject({ method: 'GET', url: `/api/v1/integrations/google/callback?error=access_denied&state=${state}`, cookies: { sos_google_connect_state: state } });
    assert.equal(denied.statusCode, 303);
    assert.equal(denied.headers.location, '/settings?google_error=not_granted', 'a code the app words itself, never text from the address bar');
  });

  it('connects, lists the caller\'s Search Console properties and syncs the site from its matching property', async () => {
    const { back } = await connect(owner, 'owner-sub');
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual(back.json().missing_scopes, []);
    const status = (await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: owner.accessToken })).data;
    assert.deepEqual([status.connected, status.email], [true, 'owner-sub@gmail.com']);
    const row = await ctx.database.db.selectFrom('google_connections').select(['refresh_token']).where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    assert.ok(!row.refresh_token.startsWith('1//'), 'the refresh token is sealed at rest');

    const properties = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/search-console/properties', token: owner.accessToken });
    assert.deepEqual(properties.data, {
      items: [
        { site_url: 'https://blog.example-garden.com/', permission_level: 'siteFullUser' },
        { site_url: 'sc-domain:example-garden.com', permission_level: 'siteOwner' },
      ],
      total: 2,
    });

    const progress = await until(
      async () => (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/progress`, token: owner.accessToken })).data,
      (p) => p.last_analytics_sync_at !== null, 'the first sync', 60_000,
    );
    assert.equal(progress.analytics_sync_error, null);
    const site = (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: owner.accessToken })).data;
    assert.equal(site.gsc_property, 'sc-domain:example-garden.com', 'the matching sc-domain: property was picked');
    const pagedQueries = google.requests.filter((r) => r.path.endsWith('/searchAnalytics/query') && (r.body as { dimensions: string[] }).dimensions.length === 3);
    assert.deepEqual(pagedQueries.map((r) => (r.body as { startRow: number }).startRow), [0, 25_000], 'paged with startRow until a short page');
    const db = ctx.database.db;
    const count = async () => Number((await db.selectFrom('search_query_daily').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow()).n);
    assert.equal(await count(), 27_000);
    // Countries and devices, each fetched on its own, every day synced (the stand-in's rows are all usa, desktop).
    const segments = async () => (await db.selectFrom('search_segment_daily').select(['dimension', 'key', (eb) => eb.fn.countAll<number>().as('days'), (eb) => eb.fn.sum<number>('clicks').as('clicks')])
      .where('site_id', '=', siteId).groupBy(['dimension', 'key']).orderBy('dimension').execute()).map((r) => [r.dimension, r.key, Number(r.days), Number(r.clicks)]);
    const totalClicks = Number((await db.selectFrom('search_daily').select((eb) => eb.fn.sum<number>('clicks').as('c')).where('site_id', '=', siteId).executeTakeFirstOrThrow()).c);
    const days = Number((await db.selectFrom('search_daily').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow()).n);
    assert.deepEqual(await segments(), [['country', 'usa', days, totalClicks], ['device', 'desktop', days, totalClicks]]);
    const stats = (await call(ctx, { method: 'GET', url: `/api/v1/keywords/stats?site_id=${siteId}`, token: owner.accessToken })).data;
    assert.equal(stats.total_keywords, 300);
    const traffic = (await call(ctx, { method: 'GET', url: `/api/v1/analytics/trends?site_id=${siteId}&metric=organic_traffic&period=7d`, token: owner.accessToken })).data;
    assert.ok(traffic.data_points.every((p: { value: number }) => p.value > 0));

    // A site synced before countries and devices were fetched has none: its next sync fetches their 16 months.
    await db.deleteFrom('search_segment_daily').where('site_id', '=', siteId).execute();
    // A re-sync replaces the days it fetches: nothing doubles. A 429 is retried after Retry-After.
    google.failNext('/webmasters/v3/sites/', 429, undefined, { 'retry-after': '1' });
    const before = progress.last_analytics_sync_at;
    await ctx.app.jobs.send(SYNC_JOB, { siteId });
    await until(async () => (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/progress`, token: owner.accessToken })).data, (p) => p.last_analytics_sync_at !== before, 'the re-sync', 60_000);
    assert.equal(await count(), 27_000);
    assert.deepEqual(await segments(), [['country', 'usa', days, totalClicks], ['device', 'desktop', days, totalClicks]], 'nor do countries and devices, backfilled whole');
  });

  it('keeps the data and says so on the site\'s progress when Google\'s quota is exhausted', async () => {
    const quota = { error: { code: 403, message: 'Quota exceeded for quota metric', errors: [{ reason: 'quotaExceeded', domain: 'usageLimits', message: 'Quota exceeded' }], status: 'PERMISSION_DENIED' } };
    google.failNext('/webmasters/v3/sites/', 403, quota);
    await ctx.app.jobs.send(SYNC_JOB, { siteId });
    const progress = await until(
      async () => (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/progress`, token: owner.accessToken })).data,
      (p) => p.analytics_sync_error !== null, 'the quota error', 30_000,
    );
    assert.match(progress.analytics_sync_error, /quota exceeded: the previous data is kept/);
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/keywords/stats?site_id=${siteId}`, token: owner.accessToken })).data.total_keywords, 300);
  });

  it('syncs GA4 once a property is linked, with string values and YYYYMMDD dates', async () => {
    const linked = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: owner.accessToken, payload: { ga4_property: 'properties/123' } });
    assert.equal(linked.statusCode, 200);
    assert.equal((await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: owner.accessToken, payload: { ga4_property: '123' } })).statusCode, 422);
    const views = await until(
      async () => (await call(ctx, { method: 'GET', url: `/api/v1/analytics/trends?site_id=${siteId}&metric=page_views&period=7d`, token: owner.accessToken })).data.data_points,
      (points: Array<{ value: number }>) => points.some((p) => p.value > 0), 'GA4 data', 60_000,
    );
    assert.equal(views.at(-1)!.value, 250);
  });

  it('reports a revoked grant clearly, and disconnecting revokes it at Google', async () => {
    google.revokeAll();
    google.expireAccessTokens();
    await ctx.database.db.updateTable('google_connections').set({ access_expires_at: new Date(0) }).where('user_id', '=', owner.id).execute();
    const res = await call(ctx, { method: 'GET', url: '/api/v1/integrations/google/search-console/properties', token: owner.accessToken });
    assert.equal(res.statusCode, 409);
    assert.match(res.data.detail, /revoked or expired: connect Google again/);
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/integrations/google', token: owner.accessToken })).data.status, 'revoked');

    await connect(owner, 'owner-sub');
    const gone = await call(ctx, { method: 'DELETE', url: '/api/v1/integrations/google', token: owner.accessToken });
    assert.equal(gone.statusCode, 204);
    const revoke = google.requests.filter((r) => r.path === '/revoke').at(-1)!;
    assert.ok((revoke.body as { token: string }).token.startsWith('1//'), 'the refresh token is revoked, sent in the body');
    assert.equal((await call(ctx, { method: 'DELETE', url: '/api/v1/integrations/google', token: owner.accessToken })).statusCode, 409);
  });
});

describe('without Google configured', () => {
  it('answers 503 naming the missing configuration', async (t) => {
    const bare = await startTestApp({}, { workJobs: false });
    t.after(() => bare.close());
    const user = await signUp(bare);
    const res = await call(bare, { method: 'GET', url: '/api/v1/integrations/google/connect', token: user.accessToken });
    assert.equal(res.statusCode, 503);
    assert.match(res.data.detail, /GOOGLE_CLIENT_ID/);
  });
});

describe('Google sign-in', () => {
  async function signIn(sub: string, email: string) {
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    assert.equal(start.statusCode, 302);
    const consent = google.authorize(start.headers.location as string, { sub, email });
    return { consent, res: await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search }) };
  }

  it('redirects to Google with openid scopes, a nonce, a state and PKCE', async () => {
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    const url = new URL(start.headers.location as string);
    assert.equal(url.searchParams.get('scope'), 'openid email profile');
    assert.ok(url.searchParams.get('nonce') && url.searchParams.get('state') && url.searchParams.get('code_challenge'));
    assert.equal(url.searchParams.get('redirect_uri'), 'http://service.test/api/v1/auth/google/callback');
  });

  it('verifies the id_token, creates the user once, and issues this service\'s own tokens', async () => {
    const first = await signIn('new-sub', 'New.Person@gmail.com');
    assert.equal(first.res.statusCode, 200, first.res.body);
    const tokens = first.res.json();
    assert.equal(tokens.token_type, 'bearer');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(me.json().email, 'new.person@gmail.com');
    const again = (await signIn('new-sub', 'new.person@gmail.com')).res.json();
    const meAgain = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${again.access_token}` } });
    assert.equal(meAgain.json().id, me.json().id, 'the same account');
  });

  it('signs an existing account in by its verified e-mail and links the Google identity', async () => {
    const res = (await signIn('owner-google-sub', owner.email)).res;
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${res.json().access_token}` } });
    assert.equal(me.json().id, owner.id);
  });

  it('claims an account made from an invitation, whose address was never proven: the password chosen before stops working and its sessions end', async () => {
    // Anyone may invite any address and accept the link themself, choosing the password: Google proving the address takes it back.
    const email = `claimed-${Date.now()}@gmail.com`;
    const inviter = await signUp(ctx);
    const workspace = (await call(ctx, { method: 'POST', url: '/api/v1/workspaces', token: inviter.accessToken, payload: { name: 'Pre-made' } })).data.id;
    const invitation = await call(ctx, { method: 'POST', url: `/api/v1/workspaces/${workspace}/invitations`, token: inviter.accessToken, payload: { email, role: 'viewer' } });
    const made = await call(ctx, { method: 'POST', url: `/api/v1/invitations/${invitation.data.token}/accept`, payload: { name: 'Pre', password: 'chosen-by-the-inviter' } });
    assert.equal(made.statusCode, 200, made.body);

    const { res } = await signIn('claimed-sub', email);
    assert.equal(res.statusCode, 200, res.body);
    const old = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${made.data.access_token}` } });
    assert.equal(old.statusCode, 401, 'the session made with the invitation has ended');
    const password = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: 'chosen-by-the-inviter' } });
    assert.equal(password.statusCode, 401, 'the password chosen before no longer signs in');
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${res.json().access_token}` } });
    assert.equal(mine.json().email, email);

    // An account whose address was proven keeps its password when Google is linked (the test above): only the unproven are claimed.
    const proven = await signUp(ctx);
    assert.equal((await signIn('proven-sub', proven.email)).res.statusCode, 200);
    assert.equal((await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: proven.email, password: proven.password } })).statusCode, 200);
  });

  it('refuses a disabled account signing in with Google, and links nothing to it', async () => {
    const user = await signUp(ctx);
    await ctx.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
    const { res } = await signIn('disabled-sub', user.email);
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().code, 'account_disabled');
    const row = await ctx.database.db.selectFrom('users').select('google_sub').where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal(row.google_sub, null, 'the Google identity is not linked to the disabled account');
  });

  it('refuses a forged, expired or foreign id_token, and a bad state', async () => {
    const { generateKeyPair } = await import('jose');
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    const cases: Array<[string, (claims: { sub: string; email: string; nonce: string | undefined }) => Promise<string>, RegExp]> = [
      ['forged', (c) => google.idToken({ ...c, nonce: c.nonce! }, otherKey), /signature verification failed/],
      ['expired', (c) => google.idToken({ ...c, nonce: c.nonce!, expiresIn: -600 }), /"exp" claim timestamp check failed/],
      ['another audience', (c) => google.idToken({ ...c, nonce: c.nonce!, aud: 'someone-else.apps.googleusercontent.com' }), /unexpected "aud" claim value/],
      ['another issuer', (c) => google.idToken({ ...c, nonce: c.nonce!, iss: 'https://evil.example' }), /unexpected "iss" claim value/],
      ['another nonce', (c) => google.idToken({ ...c, nonce: 'replayed' }), /nonce mismatch/],
    ];
    for (const [name, make, reason] of cases) {
      google.nextIdToken(make);
      const { res } = await signIn('attacker-sub', `attacker-${name.replace(/ /g, '-')}@gmail.com`);
      assert.equal(res.statusCode, 401, `${name}: ${res.body}`);
      assert.match(res.json().detail, reason, name);
    }
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/callback?code=x&state=forged' });
    assert.equal(bad.statusCode, 400);
  });

  it('started by the web app, sets its session cookie and goes back into the app; a refusal goes back with the reason', async () => {
    assert.deepEqual((await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/methods' })).json(), { password: true, google: true });
    const start = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start?return=app' });
    assert.equal(start.statusCode, 302);
    const stateCookie = start.cookies.find((c) => c.name === 'sos_google_state')!;
    assert.ok(stateCookie && stateCookie.httpOnly && stateCookie.sameSite === 'Lax' && stateCookie.path === '/api/v1/auth/google/callback');
    const consent = google.authorize(start.headers.location as string, { sub: 'app-sub', email: 'app.user@gmail.com' });
    // Login CSRF: the same callback in a browser that did not start it (no state cookie) signs no one in.
    const elsewhere = google.authorize((await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start?return=app' })).headers.location as string, { sub: 'attacker-sub', email: 'attacker@gmail.com' });
    const forged = await ctx.app.inject({ method: 'GET', url: elsewhere.redirect.pathname + elsewhere.redirect.search, cookies: { sos_google_state: stateCookie.value } });
    assert.equal(forged.statusCode, 303);
    assert.equal(forged.headers.location, '/?signin_error=other_browser');
    assert.ok(!forged.cookies.some((c) => c.name === 'sos_session' && c.value), 'no session for the attacker\'s account');
    // The usual case: a victim who never started a sign-in has no state cookie at all.
    const lured = google.authorize((await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start?return=app' })).headers.location as string, { sub: 'attacker-sub', email: 'attacker@gmail.com' });
    const exchanges = google.requests.filter((r) => r.path === '/token').length;
    const noCookie = await ctx.app.inject({ method: 'GET', url: lured.redirect.pathname + lured.redirect.search });
    assert.equal(noCookie.headers.location, '/?signin_error=other_browser');
    assert.equal(google.requests.filter((r) => r.path === '/token').length, exchanges, 'refused before Google\'s code is used');
    assert.ok(!noCookie.cookies.some((c) => c.name === 'sos_session' && c.value), 'no session without the state cookie');
    const back = await ctx.app.inject({ method: 'GET', url: consent.redirect.pathname + consent.redirect.search, cookies: { sos_google_state: stateCookie.value } });
    assert.equal(back.statusCode, 303, back.body);
    assert.equal(back.headers.location, '/');
    assert.equal(back.body, '', 'no token in the page');
    const cookie = back.cookies.find((c) => c.name === 'sos_session')!;
    assert.ok(cookie && cookie.httpOnly && cookie.sameSite === 'Strict' && cookie.path === '/api/v1/auth/session', JSON.stringify(back.cookies));
    // The app, loaded at /, takes its access token from the cookie.
    const session = await ctx.app.inject({
      method: 'POST', url: '/api/v1/auth/session/refresh', headers: { 'x-session-request': '1' }, cookies: { sos_session: cookie.value },
    });
    assert.equal(session.statusCode, 200, session.body);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${session.json().access_token}` } });
    assert.equal(me.json().email, 'app.user@gmail.com');

    const refused = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start?return=app' });
    const state = new URL(refused.headers.location as string).searchParams.get('state')!;
    const cancelled = await ctx.app.inject({ method: 'GET', url: `/api/v1/auth/google/callback?error=access_denied&state=${state}`, cookies: { sos_google_state: state } });
    assert.equal(cancelled.statusCode, 303);
    assert.equal(cancelled.headers.location, '/?signin_error=not_granted');
    assert.ok(!cancelled.cookies.some((c) => c.name === 'sos_session' && c.value), 'no session');
    assert.equal((await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/google/start?return=elsewhere' })).statusCode, 422, 'only back into the app');
  });
});
