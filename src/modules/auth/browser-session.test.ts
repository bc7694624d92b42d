import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { SESSION_COOKIE, SESSION_PATH } from './browser-session.routes.ts';

let ctx: TestContext;
let user: SignedInUser;
const GUARD = { 'x-session-request': '1' };

before(async () => {
  ctx = await startTestApp();
  user = await signUp(ctx);
});
after(() => ctx.close());

const login = (headers: Record<string, string> = GUARD, password = user.password) =>
  call(ctx, { method: 'POST', url: SESSION_PATH, headers, payload: { email: user.email, password } });
const refresh = (cookie: string | undefined, headers: Record<string, string> = GUARD) =>
  call(ctx, { method: 'POST', url: `${SESSION_PATH}/refresh`, headers: { ...headers, ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}) } });
const sessionCookie = (res: { cookies: Array<{ name: string; value: string }> }) => res.cookies.find((c) => c.name === SESSION_COOKIE);

describe('browser sessions', () => {
  it('signs in with the access token in the body and the refresh token only in an httpOnly, SameSite=Strict cookie on the session path', async () => {
    const res = await login();
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.data).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(res.headers['cache-control'], 'no-store');
    const setCookie = String(res.headers['set-cookie']);
    assert.match(setCookie, new RegExp(`^${SESSION_COOKIE}=sor_`));
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, new RegExp(`Path=${SESSION_PATH}(;|$)`));
    assert.doesNotMatch(setCookie, /Secure/, 'plain http in tests');
    const me = await call(ctx, { method: 'GET', url: '/api/v1/auth/me', token: res.data.access_token });
    assert.equal(me.data.email, user.email);
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: SESSION_PATH, headers: { ...GUARD, 'x-forwarded-proto': 'https' }, payload: { email: user.email, password: user.password } });
    // Without TRUST_PROXY the forwarded scheme is ignored, so the cookie stays plain here...
    assert.doesNotMatch(String(res.headers['set-cookie']), /Secure/);
    const behindProxy = await startTestApp({ TRUST_PROXY: 'true' }, { database: ctx.database });
    try {
      const secure = await behindProxy.app.inject({ method: 'POST', url: SESSION_PATH, headers: { ...GUARD, 'x-forwarded-proto': 'https' }, payload: { email: user.email, password: user.password } });
      assert.equal(secure.statusCode, 200);
      assert.match(String(secure.headers['set-cookie']), /; Secure/);
    } finally {
      await behindProxy.close();
    }
  });

  it('refreshes from the cookie alone, rotating it; a used cookie ends the session', async () => {
    const first = sessionCookie(await login())!.value;
    const renewed = await refresh(first);
    assert.equal(renewed.statusCode, 200);
    assert.ok(renewed.data.access_token);
    const second = sessionCookie(renewed)!.value;
    assert.notEqual(second, first);
    const replay = await refresh(first);
    assert.equal(replay.statusCode, 401);
    assert.equal(sessionCookie(replay)?.value, '', 'the dead cookie is cleared');
    assert.equal((await refresh(second)).statusCode, 401, 'reuse revoked the whole session');
    assert.equal((await refresh(undefined)).statusCode, 401);
  });

  it('two tabs refreshing at once: one rotates the cookie, the other gets 401 and keeps it', async () => {
    const cookie = sessionCookie(await login())!.value;
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    const winner = a.statusCode === 200 ? a : b;
    const loser = winner === a ? b : a;
    assert.deepEqual([winner.statusCode, loser.statusCode], [200, 401]);
    assert.equal(sessionCookie(loser), undefined, "the loser does not clear the cookie the winner just set");
    // The losing tab tries again with what the browser now holds: the winner's cookie.
    const retried = await refresh(sessionCookie(winner)!.value);
    assert.equal(retried.statusCode, 200);
  });

  it('refuses requests without the CSRF header or from another origin (403), before touching the session', async () => {
    const cookie = sessionCookie(await login())!.value;
    const noHeader = await refresh(cookie, {});
    assert.equal(noHeader.statusCode, 403);
    assert.match(noHeader.data.detail, /x-session-request/);
    const evil = await refresh(cookie, { ...GUARD, origin: 'https://evil.example' });
    assert.equal(evil.statusCode, 403);
    assert.equal((await login({})).statusCode, 403, 'sign-in is guarded too (login CSRF)');
    // The refused attempts did not use the cookie up.
    const own = await refresh(cookie, { ...GUARD, origin: 'http://localhost:80' });
    assert.equal(own.statusCode, 200, 'its own origin is accepted');
  });

  it('signs out: the bearer is required, the session ends and the cookie is cleared', async () => {
    const res = await login();
    const cookie = sessionCookie(res)!.value;
    const anonymous = await call(ctx, { method: 'DELETE', url: SESSION_PATH, headers: { ...GUARD, cookie: `${SESSION_COOKIE}=${cookie}` } });
    assert.equal(anonymous.statusCode, 401);
    const out = await call(ctx, { method: 'DELETE', url: SESSION_PATH, token: res.data.access_token, headers: { ...GUARD, cookie: `${SESSION_COOKIE}=${cookie}` } });
    assert.equal(out.statusCode, 204);
    assert.equal(sessionCookie(out)?.value, '');
    assert.equal((await refresh(cookie)).statusCode, 401);
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/auth/me', token: res.data.access_token })).statusCode, 401);
  });

  it('leaves the JSON API as the contract says: login still answers the token pair and sets no cookie', async () => {
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password: user.password } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.token_type, 'bearer');
    assert.ok(res.data.refresh_token);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it('answers a wrong password like /auth/login does', async () => {
    const res = await login(GUARD, 'not-the-password');
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['set-cookie'], undefined);
  });
});
