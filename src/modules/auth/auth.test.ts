import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { hashPassword } from '../users/passwords.ts';
import { CLOCK_TOLERANCE_SECONDS } from './access-tokens.ts';
import { signClaims } from '../../../test/helpers/tokens.ts';

let ctx: TestContext;
let alice: SignedInUser;

before(async () => {
  ctx = await startTestApp();
  alice = await signUp(ctx, { name: 'Alice' });
});
after(() => ctx.close());

const login = (email: string, password: string, ip = '127.0.0.1', c = ctx) =>
  call(c, { method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip });
const refresh = (token: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: token } });
const me = (token: string) => call(ctx, { method: 'GET', url: '/api/v1/auth/me', token });
const tokenRows = (userId: string) =>
  ctx.database.db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

describe('POST /api/v1/auth/login', () => {
  it('returns a bearer token pair for the right password, e-mail case ignored', async () => {
    const res = await login(alice.email.toUpperCase(), alice.password);
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.token_type, 'bearer');
    assert.equal(res.data.expires_in, 900);
    assert.match(res.data.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(res.data.refresh_token, /^sor_[\w-]{43}$/);
    const header = JSON.parse(Buffer.from(res.data.access_token.split('.')[0], 'base64url').toString());
    assert.equal(header.alg, 'HS256');
    const claims = JSON.parse(Buffer.from(res.data.access_token.split('.')[1], 'base64url').toString());
    for (const claim of ['sub', 'jti', 'iat', 'exp', 'iss', 'aud']) assert.ok(claims[claim] !== undefined, claim);
    assert.equal(claims.sub, alice.id);
    assert.equal(claims.exp - claims.iat, 900);
  });

  it('answers a wrong password and an unknown e-mail the same way: 401', async () => {
    const wrong = await login(alice.email, 'wrong-password-123', '10.0.0.1');
    const unknown = await login('nobody@example.com', 'wrong-password-123', '10.0.0.1');
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.data.detail, unknown.data.detail);
    assert.match(String(wrong.headers['content-type']), /application\/problem\+json/);
  });

  it('answers 422 to a missing field, a non-JSON body, malformed JSON and unknown properties', async () => {
    const cases = [
      { payload: { email: alice.email } },
      { payload: 'email=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: '{"email": "a@b.c", "password": ', headers: { 'content-type': 'application/json' } },
      { payload: { email: alice.email, password: alice.password, remember: true } },
      { payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } },
    ];
    for (const request of cases) {
      const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/login', ...request });
      assert.equal(res.statusCode, 422, JSON.stringify(request));
      assert.equal(res.data.code, 'validation_failed');
    }
  });

  it('locks one account from one address after 10 consecutive failures, not from elsewhere', async () => {
    const victim = await signUp(ctx);
    const attacker = '203.0.113.7';
    for (let i = 0; i < 10; i++) assert.equal((await login(victim.email, `guess-${i}-wrong`, attacker)).statusCode, 401);
    const locked = await login(victim.email, victim.password, attacker);
    assert.equal(locked.statusCode, 429, 'even the right password waits out the window');
    assert.ok(Number(locked.headers['retry-after']) > 800 && Number(locked.headers['retry-after']) <= 900);
    const owner = await login(victim.email, victim.password, '198.51.100.20');
    assert.equal(owner.statusCode, 200, 'the owner signs in from their own address');
  });

  it('counts only consecutive failures: a success resets the count', async () => {
    const user = await signUp(ctx);
    const ip = '198.51.100.30';
    for (let i = 0; i < 9; i++) await login(user.email, 'wrong-password-x', ip);
    assert.equal((await login(user.email, user.password, ip)).statusCode, 200);
    for (let i = 0; i < 9; i++) await login(user.email, 'wrong-password-x', ip);
    assert.equal((await login(user.email, user.password, ip)).statusCode, 200);
  });

  it('allows one address at most 60 login attempts a minute, with rate-limit headers', async () => {
    const ip = '192.0.2.99';
    let last;
    for (let i = 0; i < 60; i++) {
      last = await login(`spray-${i}@example.com`, 'whatever-password', ip);
      assert.equal(last.statusCode, 401);
    }
    assert.equal(last?.headers['ratelimit-policy'], '"login";q=60;w=60');
    const over = await login(alice.email, alice.password, ip);
    assert.equal(over.statusCode, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    assert.match(String(over.headers.ratelimit), /^"login";r=0;t=\d+$/);
    assert.equal(over.data.code, 'rate_limited');
  });
});

describe('GET /api/v1/auth/me', () => {
  it('returns the user behind the token', async () => {
    const res = await me(alice.accessToken);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data, { id: alice.id, email: alice.email, name: 'Alice', role: 'user' });
  });

  it('refuses missing, junk, expired, alg-none, re-signed and tampered tokens with 401', async () => {
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/auth/me' }, alice);
  });

  it('accepts a token with every required claim, iat within the clock tolerance (the control for the refusals)', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const iat of [now, now + CLOCK_TOLERANCE_SECONDS - 1, now - 800]) {
      const res = await me(await signClaims({ sub: alice.id, iat }));
      assert.equal(res.statusCode, 200, `iat ${iat - now}`);
    }
  });

  it('expires access tokens after ACCESS_TOKEN_TTL', async (t) => {
    const short = await startTestApp({ ACCESS_TOKEN_TTL: '30' });
    t.after(() => short.close());
    const user = await signUp(short);
    assert.equal((await call(short, { method: 'GET', url: '/api/v1/auth/me', token: user.accessToken })).statusCode, 200);
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 31_000 });
    const res = await call(short, { method: 'GET', url: '/api/v1/auth/me', token: user.accessToken });
    t.mock.timers.reset();
    assert.equal(res.statusCode, 401);
  });
});

describe('POST /api/v1/auth/refresh', () => {
  it('rotates: a new pair each time, the old refresh token used up', async () => {
    const user = await signUp(ctx);
    const first = await refresh(user.refreshToken);
    assert.equal(first.statusCode, 200);
    assert.notEqual(first.data.refresh_token, user.refreshToken);
    assert.equal((await me(first.data.access_token)).data.id, user.id);
    const second = await refresh(first.data.refresh_token);
    assert.equal(second.statusCode, 200);
  });

  it('detects reuse: a token presented again after its rotation committed revokes the whole session, at once', async () => {
    const user = await signUp(ctx);
    const rotated = await refresh(user.refreshToken);
    assert.equal(rotated.statusCode, 200);

    // No wait at all: the rotation has committed, so this is a copy being replayed.
    const replay = await refresh(user.refreshToken);
    assert.equal(replay.statusCode, 401);
    assert.match(replay.data.detail, /already used/);

    assert.equal((await refresh(rotated.data.refresh_token)).statusCode, 401, 'the legitimate successor is revoked too');
    assert.equal((await me(rotated.data.access_token)).statusCode, 401, "the session's access tokens die with it");
    assert.equal((await me(user.accessToken)).statusCode, 401);
    assert.ok((await tokenRows(user.id)).every((row) => row.revoked_at !== null), 'every token of the family is revoked');

    const fresh = await login(user.email, user.password, '198.51.100.41');
    assert.equal((await me(fresh.data.access_token)).statusCode, 200, 'other sessions are untouched');
  });

  it('gives two refreshes that race with one token one winner; the loser gets 401 and the session goes on', async () => {
    const user = await signUp(ctx);
    const results = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401]);
    const winner = results.find((r) => r.statusCode === 200)!.data;
    const loser = results.find((r) => r.statusCode === 401)!.data;
    assert.match(loser.detail, /being used by another request/);
    assert.equal(loser.code, 'refresh_in_progress', 'a client can tell a lost race from a dead token');
    const rows = await tokenRows(user.id);
    assert.equal(rows.length, 2, 'one rotation: one successor');
    assert.ok(rows.every((row) => row.revoked_at === null), 'the loser revoked nothing');
    assert.equal((await me(winner.access_token)).statusCode, 200, "the winner's access token works");
    assert.equal((await refresh(winner.refresh_token)).statusCode, 200, "the winner's refresh token works");
  });

  /**
   * Starts a rotation of the user's refresh token that is still under way when this returns:
   * on PostgreSQL another connection holds the token's row (another instance rotating it); on
   * the embedded database, which one process owns, this process's own rotation, not yet awaited.
   * `end` lets it finish and says whether it rotated the token.
   */
  async function rotationUnderWay(user: SignedInUser): Promise<{ end(): Promise<{ rotated: boolean }> }> {
    if (ctx.database.kind === 'embedded') {
      const rotating = ctx.app.services.auth.refresh(user.refreshToken);
      return { end: () => rotating.then(() => ({ rotated: true })) };
    }
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = ctx.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).forUpdate().execute();
      locked();
      await released;
    });
    await isLocked;
    // Were the lock waited for, the refresh under test would go on once this lets go (and rotate): it fails the test in 2 s.
    const letGo = setTimeout(release, 2000);
    return { end: async () => { clearTimeout(letGo); release(); await holder; return { rotated: false }; } };
  }

  it('answers 401 without revoking while another rotation of the token is under way (another instance, or this process)', async () => {
    const user = await signUp(ctx);
    const other = await rotationUnderWay(user);
    const during = await refresh(user.refreshToken);
    const { rotated } = await other.end();
    assert.equal(during.statusCode, 401);
    assert.equal(during.data.code, 'refresh_in_progress');
    assert.ok((await tokenRows(user.id)).every((row) => row.revoked_at === null), 'nothing revoked');
    assert.equal((await me(user.accessToken)).statusCode, 200, 'the session goes on');
    // The token is the other rotation's to use: used when it rotated, still good when it only held the row.
    assert.equal((await refresh(user.refreshToken)).statusCode, rotated ? 401 : 200);
  });

  it('keeps only hashes at rest: no stored value is a token', async () => {
    const user = await signUp(ctx);
    const rotated = await refresh(user.refreshToken);
    const stored = JSON.stringify(await tokenRows(user.id));
    for (const token of [user.refreshToken, rotated.data.refresh_token]) assert.ok(!stored.includes(token.slice(4)));
    assert.ok(!stored.includes(rotated.data.access_token.split('.')[1]!));
  });

  it('refuses an unknown token with 401 and a malformed body with 422', async () => {
    assert.equal((await refresh('sor_not-a-real-token')).statusCode, 401);
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/refresh', payload: { token: 'x' } });
    assert.equal(res.statusCode, 422);
  });

  it('refuses an expired refresh token', async () => {
    const user = await signUp(ctx);
    // Expiry is decided by the database clock, so age the token there.
    await ctx.database.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await refresh(user.refreshToken);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.data.detail, /expired/);
  });
});

describe('POST /api/v1/auth/logout', () => {
  it('revokes the access token and the session refresh token: 204', async () => {
    const user = await signUp(ctx);
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken, payload: { refresh_token: user.refreshToken } });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal((await me(user.accessToken)).statusCode, 401);
    assert.equal((await refresh(user.refreshToken)).statusCode, 401);
  });

  it('works without a body and still ends the session', async () => {
    const user = await signUp(ctx);
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken });
    assert.equal(res.statusCode, 204);
    assert.equal((await refresh(user.refreshToken)).statusCode, 401);
  });

  it("ignores another user's refresh token instead of revoking it", async () => {
    const [user, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken, payload: { refresh_token: other.refreshToken } });
    assert.equal(res.statusCode, 204);
    assert.equal((await me(other.accessToken)).statusCode, 200, "the other user's session is not ended");
    assert.equal((await refresh(other.refreshToken)).statusCode, 200);
  });

  it('reaches other instances through the revocation table', async () => {
    const user = await signUp(ctx);
    await call(ctx, { method: 'POST', url: '/api/v1/auth/logout', token: user.accessToken });
    const rows = await ctx.database.db.selectFrom('token_revocations').select('user_id').where('user_id', '=', user.id).execute();
    assert.equal(rows.length, 2, 'the jti and the session id');
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'POST', url: '/api/v1/auth/logout' }, alice);
  });
});

describe('passwords', () => {
  it('are hashed with argon2id at OWASP parameters', async () => {
    const hash = await hashPassword('some-password-1');
    assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
