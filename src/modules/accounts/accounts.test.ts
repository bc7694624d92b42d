import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, uniqueEmail, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { until } from '../../../test/helpers/wait.ts';
import { PASSWORD_CHANGE_LIMIT } from './accounts.routes.ts';

let ctx: TestContext;
let admin: SignedInUser;

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  admin = await signUp(ctx, { role: 'admin' });
});
after(() => ctx.close());

const login = (email: string, password: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
const refresh = (token: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: token } });
const me = (token: string) => call(ctx, { method: 'GET', url: '/api/v1/auth/me', token });
const changePassword = (token: string, payload: object) => call(ctx, { method: 'PUT', url: '/api/v1/auth/me/password', token, payload });
const setDisabled = (token: string, userId: string, disabled: boolean) =>
  call(ctx, { method: 'PATCH', url: `/api/v1/admin/users/${userId}`, token, payload: { disabled } });

describe('PATCH /api/v1/auth/me', () => {
  it("changes the caller's own name, trimmed", async () => {
    const user = await signUp(ctx, { name: 'Old Name' });
    const res = await call(ctx, { method: 'PATCH', url: '/api/v1/auth/me', token: user.accessToken, payload: { name: '  Ana Lima ' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data, { id: user.id, email: user.email, name: 'Ana Lima', role: 'user' });
    assert.equal((await me(user.accessToken)).data.name, 'Ana Lima');
  });

  it('answers 422 to a blank or over-long name, a role or any other property', async () => {
    const user = await signUp(ctx);
    for (const payload of [{ name: '   ' }, { name: '' }, { name: 'x'.repeat(201) }, {}, { name: 'Ok', role: 'admin' }, { email: 'me@example.com' }]) {
      const res = await call(ctx, { method: 'PATCH', url: '/api/v1/auth/me', token: user.accessToken, payload });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
    }
    assert.equal((await me(user.accessToken)).data.role, 'user');
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'PATCH', url: '/api/v1/auth/me', payload: { name: 'X' } }, admin);
  });
});

describe('/api/v1/auth/me/preferences', () => {
  const prefs = (token: string, payload?: object) => call(ctx, { method: payload ? 'PATCH' : 'GET', url: '/api/v1/auth/me/preferences', token, ...(payload ? { payload } : {}) });

  it('keeps the time zone a person reads dates in (null: the browser\'s), and only their own', async () => {
    const [user, neighbour] = [await signUp(ctx), await signUp(ctx)];
    assert.deepEqual((await prefs(user.accessToken)).data, { time_zone: null });
    const set = await prefs(user.accessToken, { time_zone: 'Europe/Lisbon' });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.data, { time_zone: 'Europe/Lisbon' });
    assert.deepEqual((await prefs(user.accessToken)).data, { time_zone: 'Europe/Lisbon' });
    assert.deepEqual((await prefs(neighbour.accessToken)).data, { time_zone: null }, 'another account keeps its own');
    assert.deepEqual((await prefs(user.accessToken, { time_zone: 'UTC' })).data, { time_zone: 'UTC' });
    assert.deepEqual((await prefs(user.accessToken, { time_zone: 'europe/lisbon' })).data, { time_zone: 'Europe/Lisbon' }, 'stored as ICU spells it');
    assert.deepEqual((await prefs(user.accessToken, { time_zone: null })).data, { time_zone: null });
  });

  it('answers 422 to a zone no one has heard of, an empty body or another property; 401 without a token', async () => {
    const user = await signUp(ctx);
    for (const payload of [{ time_zone: 'Mars/Olympus_Mons' }, { time_zone: 'Europe/Lisbon; drop table users' }, { time_zone: '' }, {}, { time_zone: 'UTC', name: 'x' }]) {
      const res = await prefs(user.accessToken, payload);
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.match(String(res.headers['content-type']), /problem\+json/);
    }
    assert.deepEqual((await prefs(user.accessToken)).data, { time_zone: null });
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/auth/me/preferences' }, admin);
    await assertRejectsBadTokens(ctx, { method: 'PATCH', url: '/api/v1/auth/me/preferences', payload: { time_zone: 'UTC' } }, admin);
  });
});

describe('PUT /api/v1/auth/me/password', () => {
  it('changes the password with the current one; this session goes on, the others end', async () => {
    const user = await signUp(ctx);
    const other = await login(user.email, user.password);
    const res = await changePassword(user.accessToken, { current_password: user.password, new_password: 'a-new-long-password' });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal((await me(user.accessToken)).statusCode, 200, 'this session goes on');
    assert.equal((await refresh(user.refreshToken)).statusCode, 200, "and so does its refresh token");
    assert.equal((await me(other.data.access_token)).statusCode, 401, 'another session ends at once');
    assert.equal((await refresh(other.data.refresh_token)).statusCode, 401);
    assert.equal((await login(user.email, user.password)).statusCode, 401);
    assert.equal((await login(user.email, 'a-new-long-password')).statusCode, 200);
  });

  it('answers 422 to a wrong current password (beside that field) and to a weak new one, changing nothing', async () => {
    const user = await signUp(ctx);
    const wrong = await changePassword(user.accessToken, { current_password: 'not-my-password', new_password: 'a-new-long-password' });
    assert.equal(wrong.statusCode, 422);
    assert.deepEqual(wrong.data.errors.map((e: { path: string }) => e.path), ['/body/current_password']);
    for (const payload of [{ current_password: user.password, new_password: 'short' }, { new_password: 'a-new-long-password' }, { current_password: user.password, new_password: 'a-new-long-password', role: 'admin' }]) {
      assert.equal((await changePassword(user.accessToken, payload)).statusCode, 422, JSON.stringify(payload));
    }
    assert.equal((await login(user.email, user.password)).statusCode, 200);
  });

  it('answers 409 to an account that signs in only with Google (no password to change)', async () => {
    const google = await ctx.app.services.users.findOrCreateByGoogle({ sub: `g-${randomUUID()}`, email: uniqueEmail('google'), name: 'G' });
    const { access_token } = await ctx.app.services.auth.issueTokens(google.id);
    const res = await changePassword(access_token, { current_password: 'anything-at-all', new_password: 'a-new-long-password' });
    assert.equal(res.statusCode, 409);
    assert.match(res.data.detail, /Forgot password/);
  });

  it(`limits attempts to ${PASSWORD_CHANGE_LIMIT.max} per account (429), so a stolen token cannot guess the password`, async () => {
    const user = await signUp(ctx);
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT.max; i++) {
      assert.equal((await changePassword(user.accessToken, { current_password: `guess-${i}-wrong`, new_password: 'a-new-long-password' })).statusCode, 422);
    }
    const limited = await changePassword(user.accessToken, { current_password: user.password, new_password: 'a-new-long-password' });
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await login(user.email, user.password)).statusCode, 200, 'unchanged');
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'PUT', url: '/api/v1/auth/me/password', payload: { current_password: 'x', new_password: 'a-new-long-password' } }, admin);
  });
});

describe('POST /api/v1/auth/logout-all', () => {
  it('ends every session of the caller, this one included; signing in again works', async () => {
    const user = await signUp(ctx);
    const other = await login(user.email, user.password);
    const bystander = await signUp(ctx);
    const res = await call(ctx, { method: 'POST', url: '/api/v1/auth/logout-all', token: user.accessToken });
    assert.equal(res.statusCode, 204);
    for (const token of [user.accessToken, other.data.access_token]) assert.equal((await me(token)).statusCode, 401);
    for (const token of [user.refreshToken, other.data.refresh_token]) assert.equal((await refresh(token)).statusCode, 401);
    assert.equal((await me(bystander.accessToken)).statusCode, 200, "another user's session is untouched");
    assert.equal((await login(user.email, user.password)).statusCode, 200);
  });

  it("ends this session's access token even when its refresh token has expired", async () => {
    const user = await signUp(ctx);
    await ctx.database.db.updateTable('refresh_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    assert.equal((await call(ctx, { method: 'POST', url: '/api/v1/auth/logout-all', token: user.accessToken })).statusCode, 204);
    assert.equal((await me(user.accessToken)).statusCode, 401);
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'POST', url: '/api/v1/auth/logout-all' }, admin);
  });
});

describe('PATCH /api/v1/admin/users/{user_id}', () => {
  it('disables an account: its tokens stop at once, it cannot sign in (403 with the right password only); enabled, it signs in again', async () => {
    const user = await signUp(ctx);
    const res = await setDisabled(admin.accessToken, user.id, true);
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.disabled, true);
    assert.equal(res.data.id, user.id);
    assert.equal((await me(user.accessToken)).statusCode, 401, 'its access token is refused on the next request');
    assert.equal((await refresh(user.refreshToken)).statusCode, 401);
    const right = await login(user.email, user.password);
    assert.equal(right.statusCode, 403);
    assert.equal(right.data.code, 'account_disabled');
    const wrong = await login(user.email, 'not-the-password');
    assert.equal(wrong.statusCode, 401, 'without the password, a disabled account looks like any other');
    const listed = await call(ctx, { method: 'GET', url: '/api/v1/admin/users?page_size=200', token: admin.accessToken });
    assert.equal(listed.data.items.find((u: { id: string }) => u.id === user.id).disabled, true);

    const enabled = await setDisabled(admin.accessToken, user.id, false);
    assert.equal(enabled.statusCode, 200);
    assert.equal(enabled.data.disabled, false);
    const back = await login(user.email, user.password);
    assert.equal(back.statusCode, 200);
    assert.equal((await me(back.data.access_token)).statusCode, 200);
  });

  it("is honoured by another instance within a second: its access tokens are refused there too", async () => {
    const user = await signUp(ctx);
    const other = await startTestApp({}, { database: ctx.database, workJobs: false });
    try {
      const meThere = async () => (await call(other, { method: 'GET', url: '/api/v1/auth/me', token: user.accessToken })).statusCode;
      assert.equal(await meThere(), 200);
      assert.equal((await setDisabled(admin.accessToken, user.id, true)).statusCode, 200);
      await until(meThere, (status) => status === 401, 'the other instance to refuse the token', 3000);
    } finally {
      await other.close();
    }
  });

  it('refuses a disabled account new tokens wherever they would come from (Google sign-in, a refresh token that outlived the revocation)', async () => {
    const user = await signUp(ctx);
    // As if the account had been disabled while this refresh token was being issued: no revocation reached it.
    await ctx.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
    assert.equal((await refresh(user.refreshToken)).statusCode, 401);
    await assert.rejects(ctx.app.services.auth.issueTokens(user.id), (error: { code?: string }) => error.code === 'account_disabled');
  });

  it('answers 403 to a caller who is not an admin, before saying whether the account exists', async () => {
    const user = await signUp(ctx);
    const target = await signUp(ctx);
    for (const id of [target.id, randomUUID()]) {
      const res = await setDisabled(user.accessToken, id, true);
      assert.equal(res.statusCode, 403);
      assert.equal(res.data.code, 'forbidden');
    }
    assert.equal((await me(target.accessToken)).statusCode, 200, 'nothing changed');
  });

  it('answers 404 to an unknown account, 409 to an admin disabling their own, 422 to a bad id or body', async () => {
    assert.equal((await setDisabled(admin.accessToken, randomUUID(), true)).statusCode, 404);
    const self = await setDisabled(admin.accessToken, admin.id, true);
    assert.equal(self.statusCode, 409);
    assert.equal((await me(admin.accessToken)).statusCode, 200);
    assert.equal((await setDisabled(admin.accessToken, 'not-a-uuid', true)).statusCode, 422);
    const user = await signUp(ctx);
    for (const payload of [{}, { disabled: 'yes' }, { disabled: true, role: 'admin' }]) {
      const res = await call(ctx, { method: 'PATCH', url: `/api/v1/admin/users/${user.id}`, token: admin.accessToken, payload });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
    }
  });

  it('requires a valid bearer token', async () => {
    await assertRejectsBadTokens(ctx, { method: 'PATCH', url: `/api/v1/admin/users/${admin.id}`, payload: { disabled: false } }, admin);
  });
});
