import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { startWordPressServer, type WordPressServer } from '../demo/wordpress-stand-in.ts';

let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let wp: WordPressServer;
let siteId: string;

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  wp = await startWordPressServer({ namespaces: ['wp/v2', 'yoast/v1'] });
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Garden', domain: wp.host } })).data.id;
});
after(async () => {
  await ctx.close();
  await wp.close();
});

const put = (payload: object, token = owner.accessToken, id = siteId) => call(ctx, { method: 'PUT', url: `/api/v1/sites/${id}/connector`, token, payload });
const wordpress = () => ({ type: 'wordpress', base_url: wp.origin, username: wp.username, application_password: wp.applicationPassword });

describe('the site connector', () => {
  it('is manual until configured', async () => {
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken });
    assert.equal(res.statusCode, 200);
    assert.deepEqual({ type: res.data.type, has_credentials: res.data.has_credentials, base_url: res.data.base_url }, { type: 'manual', has_credentials: false, base_url: null });
  });

  it('checks WordPress credentials against the site, stores them sealed and never returns them', async () => {
    const res = await put(wordpress());
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.type, 'wordpress');
    assert.equal(res.data.has_credentials, true);
    assert.deepEqual(res.data.seo_plugins, ['yoast']);
    assert.ok(res.data.verified_at);
    assert.ok(!JSON.stringify(res.data).includes('EFGH'), 'the password is never in a response');
    assert.ok(wp.requests.some((r) => r.path.startsWith('/wp-json/wp/v2/users/me') && r.authorized));

    const row = await ctx.database.db.selectFrom('site_connectors').selectAll().where('site_id', '=', siteId).executeTakeFirstOrThrow();
    assert.ok(row.secret && !row.secret.includes('EFGH') && !row.secret.includes(wp.applicationPassword.replace(/ /g, '')), 'sealed at rest');
    assert.ok(!JSON.stringify(row.settings).includes('EFGH'));

    // Settings change without sending the password again: the stored one is kept.
    const again = await put({ type: 'wordpress', meta_description_field: 'my_description' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.data.meta_description_field, 'my_description');
    assert.equal(again.data.username, wp.username);

    // Not to another address: the stored password would be sent there (another admin of the workspace could point it anywhere).
    const elsewhere = await put({ type: 'wordpress', base_url: 'https://collector.example/' });
    assert.equal(elsewhere.statusCode, 422);
    assert.match(elsewhere.data.detail, /application_password: send it again for a new address/);
    assert.equal((await put({ type: 'wordpress', base_url: wp.origin })).statusCode, 200, 'the same address keeps it');
  });

  it('refuses wrong credentials or an unreachable site with 422 and keeps the working connector', async () => {
    const wrong = await put({ ...wordpress(), application_password: 'wrong wrong wrong wrong' });
    assert.equal(wrong.statusCode, 422);
    assert.match(wrong.data.detail, /refused the user name or application password \(rest_not_logged_in\)/);
    const unknownUser = await put({ ...wordpress(), username: 'nobody', application_password: 'wrong wrong wrong wrong' });
    assert.equal(unknownUser.statusCode, 422);
    assert.match(unknownUser.data.detail, /rest_not_logged_in/);
    const closed = await put({ ...wordpress(), base_url: 'http://127.0.0.1:9/' });
    assert.equal(closed.statusCode, 422);
    assert.match(closed.data.detail, /could not be used/);
    const kept = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken });
    assert.equal(kept.data.type, 'wordpress');
  });

  it('validates its input: 422 for missing credentials, unknown fields or a bad URL', async () => {
    const fresh = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Other', domain: 'example.org' } })).data.id;
    assert.match((await put({ type: 'wordpress', base_url: wp.origin, username: 'x' }, owner.accessToken, fresh)).data.detail, /application_password: is required/);
    assert.match((await put({ type: 'wordpress', base_url: wp.origin, application_password: 'abcd abcd abcd abcd' }, owner.accessToken, fresh)).data.detail, /username: is required/);
    assert.equal((await put({ type: 'ftp' }, owner.accessToken, fresh)).statusCode, 422);
    assert.equal((await put({ type: 'manual', secret: 'x' }, owner.accessToken, fresh)).statusCode, 422);
    assert.equal((await put({ ...wordpress(), base_url: 'not a url' }, owner.accessToken, fresh)).statusCode, 422);
    assert.equal((await put({ ...wordpress(), base_url: 'ftp://example.org/' }, owner.accessToken, fresh)).statusCode, 422);
  });

  it('refuses a base URL carrying credentials, which would be stored and logged in the clear', async () => {
    const res = await put({ ...wordpress(), base_url: wp.origin.replace('http://', 'http://editor:secret@') });
    assert.equal(res.statusCode, 422);
    assert.match(res.data.detail, /must not contain a user name or password/);
  });

  it('asks for the application password again when the stored one cannot be read (SECRETS_KEY changed)', async (t) => {
    assert.equal((await put(wordpress())).statusCode, 200);
    const rekeyed = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', SECRETS_KEY: 'another-secrets-key-that-is-long-enough-1234' }, { database: ctx.database, workJobs: false });
    t.after(() => rekeyed.close());
    const res = await call(rekeyed, { method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken, payload: { type: 'wordpress', meta_description_field: 'x' } });
    assert.equal(res.statusCode, 422);
    assert.match(res.data.detail, /stored one cannot be read \(the server's encryption key has changed\)/);
    const again = await call(rekeyed, { method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken, payload: wordpress() });
    assert.equal(again.statusCode, 200, 'sending it again stores it under the new key');
  });

  it('refuses private addresses unless allowed', async (t) => {
    const strict = await startTestApp({});
    t.after(() => strict.close());
    const user = await signUp(strict);
    const id = (await call(strict, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'G', domain: 'example.org' } })).data.id;
    const res = await call(strict, { method: 'PUT', url: `/api/v1/sites/${id}/connector`, token: user.accessToken, payload: wordpress() });
    assert.equal(res.statusCode, 422);
    assert.match(res.data.detail, /private or reserved address/);
  });

  it('is 404 for another user\'s site and 401 without a valid token', async () => {
    assert.equal((await put(wordpress(), other.accessToken)).statusCode, 404);
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/connector`, token: other.accessToken })).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/connector` }, owner);
  });

  it('can go back to manual, which forgets the credential', async () => {
    const res = await put({ type: 'manual' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.has_credentials, false);
    const row = await ctx.database.db.selectFrom('site_connectors').select('secret').where('site_id', '=', siteId).executeTakeFirstOrThrow();
    assert.equal(row.secret, null);
  });
});

describe('the connector and rollback endpoints under the per-user rate limit', () => {
  it('answer 429 with Retry-After past the limit', async (t) => {
    const limited = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '3' });
    t.after(() => limited.close());
    const user = await signUp(limited);
    const id = (await call(limited, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'G', domain: 'example.org' } })).data.id;
    const answers = [];
    for (const url of [`/api/v1/sites/${id}/connector`, '/api/v1/cms/rollback/history', `/api/v1/sites/${id}/connector`]) {
      answers.push(await call(limited, { method: 'GET', url, token: user.accessToken }));
    }
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 429]);
    assert.ok(Number(answers[2]!.headers['retry-after']) > 0);
  });
});
