import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, uniqueEmail, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { RESET_LIMITS } from './accounts.routes.ts';
import { hashResetToken } from './reset-tokens.ts';

let ctx: TestContext;
let smtp: TestSmtpServer;
let admin: SignedInUser;
let ipCount = 0;
/** Each test its own client address, so the per-address limits of one never reach another. */
const nextIp = () => `198.51.100.${++ipCount}`;

before(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://seo.example.test', MAIL_FROM: 'SEO Team <seo@example.test>' });
  admin = await signUp(ctx, { role: 'admin' });
});
after(async () => {
  await ctx.close();
  await smtp.close();
});

const requestReset = (email: string, ip = '127.0.0.1') =>
  call(ctx, { method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, remoteAddress: ip });
const confirm = (payload: object, ip = '127.0.0.1') =>
  call(ctx, { method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload, remoteAddress: ip });
const login = (email: string, password: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
const refresh = (token: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: token } });
const linkIn = (text: string) => /https:\/\/seo\.example\.test\/reset-password\?token=(\S+)/.exec(text);

/** Waits until the request job for this address has run (whatever it did). */
const requestHandled = (email: string) => until(
  () => ctx.app.jobs.findJobs('account.reset-password'),
  (jobs) => jobs.some((j) => (j.data as { email: string }).email === email.toLowerCase() && j.state === 'completed'),
  `the reset request for ${email}`,
);
const resetsOf = (userId: string) => ctx.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', userId).execute();

describe('forgotten password', () => {
  it('e-mails a link through SMTP; the link sets a new password once and ends every session', async () => {
    const user = await signUp(ctx, { name: 'Rosa' });
    const other = await login(user.email, user.password); // a second session, on another device

    const asked = await requestReset(user.email.toUpperCase(), nextIp());
    assert.equal(asked.statusCode, 202);
    assert.match(asked.data.message, /If an account exists/);

    const mail = await smtp.mailTo(user.email);
    assert.match(mail.from, /^"?SEO Team"? <seo@example\.test>$/, 'from MAIL_FROM');
    assert.match(mail.subject, /Reset your .*password/);
    assert.match(mail.text, /Hello Rosa/);
    assert.match(mail.text, /within 30 minutes/);
    const link = linkIn(mail.text);
    assert.ok(link, mail.text);
    const token = decodeURIComponent(link[1]!);
    const [stored] = await resetsOf(user.id);
    assert.equal(stored?.token_hash, hashResetToken(token), 'only the hash is stored');
    assert.ok(!JSON.stringify(await ctx.app.jobs.findJobs('mail.password-reset')).includes(token), 'the mail job carries the token sealed');
    const minutes = (stored!.expires_at.getTime() - stored!.created_at.getTime()) / 60_000;
    assert.ok(Math.abs(minutes - 30) < 0.1, `valid 30 minutes (${minutes})`);

    const done = await confirm({ token, password: 'a-brand-new-password' }, nextIp());
    assert.equal(done.statusCode, 204, done.body);

    assert.equal((await login(user.email, user.password)).statusCode, 401, 'the old password is gone');
    assert.equal((await login(user.email, 'a-brand-new-password')).statusCode, 200);
    for (const old of [user.refreshToken, other.data.refresh_token]) assert.equal((await refresh(old)).statusCode, 401, 'old refresh tokens end');
    for (const old of [user.accessToken, other.data.access_token]) {
      assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/auth/me', token: old })).statusCode, 401, 'old access tokens end at once');
    }

    const again = await confirm({ token, password: 'yet-another-password' }, nextIp());
    assert.equal(again.statusCode, 422);
    assert.match(again.data.detail, /already been used/);
    assert.equal(again.data.errors[0].path, '/body/token');
    assert.equal((await login(user.email, 'a-brand-new-password')).statusCode, 200, 'a used link changes nothing');
  });

  it('answers an address without an account exactly as one with: 202, the same body, and sends nothing', async () => {
    const user = await signUp(ctx);
    const nobody = uniqueEmail('nobody');
    const [known, unknown] = [await requestReset(user.email, nextIp()), await requestReset(nobody, nextIp())];
    assert.deepEqual([known.statusCode, unknown.statusCode], [202, 202]);
    assert.deepEqual(known.data, unknown.data);
    await smtp.mailTo(user.email);
    await requestHandled(nobody);
    assert.ok(!smtp.received.some((m) => m.to.includes(nobody)));
  });

  it('sends no link to a disabled account, and a link made before it was disabled opens nothing', async () => {
    const user = await signUp(ctx);
    await requestReset(user.email, nextIp());
    const link = linkIn((await smtp.mailTo(user.email)).text)!;
    const disabled = await call(ctx, { method: 'PATCH', url: `/api/v1/admin/users/${user.id}`, token: admin.accessToken, payload: { disabled: true } });
    assert.equal(disabled.statusCode, 200);
    const refused = await confirm({ token: decodeURIComponent(link[1]!), password: 'taking-it-over-1' }, nextIp());
    assert.equal(refused.statusCode, 422);

    const before = smtp.received.length;
    await requestReset(user.email, nextIp());
    await until(() => ctx.app.jobs.findJobs('account.reset-password'),
      (jobs) => jobs.filter((j) => (j.data as { email: string }).email === user.email && j.state === 'completed').length === 2, 'the second request handled');
    assert.equal((await resetsOf(user.id)).length, 1, 'no new link');
    assert.equal(smtp.received.length, before);
  });

  it('lets one of two requests racing with one link use it', async () => {
    const user = await signUp(ctx);
    const token = 'sopr_raced-token-for-this-test';
    await ctx.database.db.insertInto('password_resets')
      .values({ user_id: user.id, token_hash: hashResetToken(token), expires_at: new Date(Date.now() + 60_000) }).execute();
    const answers = await Promise.all(['first-new-password', 'second-new-password'].map((password) => confirm({ token, password }, nextIp())));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [204, 422]);
    const winner = answers[0]!.statusCode === 204 ? 'first-new-password' : 'second-new-password';
    assert.equal((await login(user.email, winner)).statusCode, 200);
  });

  it('opens nothing for an account disabled since the link was made, even if the link itself was left usable', async () => {
    const user = await signUp(ctx);
    const token = 'sopr_token-of-a-disabled-account';
    await ctx.database.db.insertInto('password_resets')
      .values({ user_id: user.id, token_hash: hashResetToken(token), expires_at: new Date(Date.now() + 60_000) }).execute();
    await ctx.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
    assert.equal((await confirm({ token, password: 'taking-it-over-1' }, nextIp())).statusCode, 422);
    const [row] = await resetsOf(user.id);
    assert.equal(row?.used_at, null, 'the refusal rolled back: nothing was used or changed');
  });

  it('lifts the sign-in lock of the address the reset was confirmed from', async () => {
    const user = await signUp(ctx);
    const ip = nextIp();
    const loginFrom = (password: string) => call(ctx, { method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password }, remoteAddress: ip });
    for (let i = 0; i < 10; i++) await loginFrom(`forgotten-${i}-guess`);
    assert.equal((await loginFrom('still-guessing-1')).statusCode, 429, 'locked out after 10 failures');
    await requestReset(user.email, ip);
    const token = decodeURIComponent(linkIn((await smtp.mailTo(user.email)).text)![1]!);
    assert.equal((await confirm({ token, password: 'a-brand-new-password' }, ip)).statusCode, 204);
    assert.equal((await loginFrom('a-brand-new-password')).statusCode, 200);
  });

  it('refuses an unknown or expired token with 422 saying which, and leaves the password alone', async () => {
    const user = await signUp(ctx);
    const unknown = await confirm({ token: 'sopr_not-a-token-we-ever-made', password: 'a-brand-new-password' }, nextIp());
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.data.code, 'validation_failed');
    assert.match(unknown.data.detail, /not valid/);

    const token = 'sopr_expired-token-for-this-test';
    await ctx.database.db.insertInto('password_resets')
      .values({ user_id: user.id, token_hash: hashResetToken(token), expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await confirm({ token, password: 'a-brand-new-password' }, nextIp());
    assert.equal(expired.statusCode, 422);
    assert.match(expired.data.detail, /expired/);
    assert.equal((await login(user.email, user.password)).statusCode, 200);
  });

  it('answers 422 to bad bodies: a weak new password, a missing token, a bad e-mail, unknown properties', async () => {
    const cases: Array<[string, object, string]> = [
      ['confirm', { token: 'sopr_x', password: 'short' }, '/body/password'],
      ['confirm', { password: 'a-brand-new-password' }, '/body/token'],
      ['confirm', { token: 'sopr_x', password: 'a-brand-new-password', email: 'a@b.co' }, '/body/email'],
      ['request', { email: 'not-an-address' }, '/body/email'],
      ['request', {}, '/body/email'],
      ['request', { email: 'a@b.co', name: 'x' }, '/body/name'],
    ];
    for (const [which, payload, path] of cases) {
      const res = which === 'confirm' ? await confirm(payload, nextIp()) : await call(ctx, { method: 'POST', url: '/api/v1/auth/password-reset', payload, remoteAddress: nextIp() });
      assert.equal(res.statusCode, 422, `${which} ${JSON.stringify(payload)}`);
      assert.ok(res.data.errors.some((e: { path: string }) => e.path === path), res.body);
    }
  });

  it(`limits requests to ${RESET_LIMITS.perEmail} per e-mail address and ${RESET_LIMITS.perIp} per client address (429)`, async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < RESET_LIMITS.perEmail; i++) assert.equal((await requestReset(email, nextIp())).statusCode, 202);
    const perEmail = await requestReset(email.toUpperCase(), nextIp());
    assert.equal(perEmail.statusCode, 429, 'from any address, whatever the case');
    assert.match(String(perEmail.headers['content-type']), /application\/problem\+json/);
    assert.ok(Number(perEmail.headers['retry-after']) > 0);
    assert.match(perEmail.data.detail, /for one e-mail address/);

    const ip = nextIp();
    for (let i = 0; i < RESET_LIMITS.perIp; i++) assert.equal((await requestReset(uniqueEmail('spray'), ip)).statusCode, 202);
    const perIp = await requestReset(uniqueEmail('spray'), ip);
    assert.equal(perIp.statusCode, 429);
    assert.match(perIp.data.detail, /from one address/);
  });

  it('limits confirmations to 60 a minute from one address (429)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 60; i++) assert.equal((await confirm({ token: `sopr_guess-${i}`, password: 'a-brand-new-password' }, ip)).statusCode, 422);
    const limited = await confirm({ token: 'sopr_guess-61', password: 'a-brand-new-password' }, ip);
    assert.equal(limited.statusCode, 429);
    assert.equal((await confirm({ token: 'sopr_guess-62', password: 'a-brand-new-password' }, nextIp())).statusCode, 422, 'other addresses go on');
  });
});
