import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, uniqueEmail, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp-server.ts';
import { until } from '../../../test/helpers/wait.ts';
import { createSecretBox } from '../../lib/secret-box.ts';
import type { Mail } from './mailer.ts';
import { createInvitationMailer } from './invitation-mail.ts';
import { invitationTokenContext } from '../workspaces/invitation-tokens.ts';
import { createInvitationsRepo } from '../workspaces/invitations.repo.ts';
import { invitationMail } from './invitation-message.ts';
import { INVITATION_LIMITS } from '../workspaces/workspaces.routes.ts';

let ctx: TestContext;
let smtp: TestSmtpServer;
let owner: SignedInUser;
let admin: SignedInUser;
let editor: SignedInUser;
let outsider: SignedInUser;
let workspaceId: string;
let otherWorkspaceId: string;

const api = (user: SignedInUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  call(ctx, { method, url: `/api/v1${url}`, ...(user ? { token: user.accessToken } : {}), ...(payload ? { payload } : {}) });
const invite = (by: SignedInUser, email: string, role = 'viewer', workspace = workspaceId) =>
  api(by, 'POST', `/workspaces/${workspace}/invitations`, { email, role });
const resend = (by: SignedInUser | null, invitationId: string, workspace = workspaceId) =>
  api(by, 'POST', `/workspaces/${workspace}/invitations/${invitationId}/resend`);
const linkIn = (mail: ReceivedMail) => /https:\/\/seo\.example\.test\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
/** Every message to `address` once there are `count` of them. */
const mailsTo = (address: string, count: number) =>
  until(async () => smtp.received.filter((m) => m.to.includes(address)), (m) => m.length >= count, `${count} messages to ${address}`);

async function join(user: SignedInUser, role: string, workspace = workspaceId) {
  const sent = await invite(owner, user.email, role, workspace);
  assert.equal((await api(user, 'POST', `/invitations/${sent.data.token}/accept`)).statusCode, 200);
}

before(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://seo.example.test' });
  [owner, admin, editor, outsider] = await Promise.all([signUp(ctx, { name: 'Olga Owner' }), signUp(ctx, { name: 'Ada Admin' }), signUp(ctx), signUp(ctx)]);
  workspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Acme Garden Co.' })).data.id;
  otherWorkspaceId = (await api(owner, 'POST', '/workspaces', { name: 'Other Client' })).data.id;
  await join(admin, 'admin');
  await join(editor, 'editor');
  await join(admin, 'admin', otherWorkspaceId);
});
after(async () => {
  await ctx.close();
  await smtp.close();
});

describe('invitation e-mails', () => {
  it('e-mails the invitee on inviting: the workspace, who invited, the role, the link and its expiry; the job carries the token sealed', async () => {
    const email = uniqueEmail('invitee');
    const sent = await invite(admin, email, 'editor');
    assert.equal(sent.statusCode, 201, sent.body);
    const mail = await smtp.mailTo(email);
    assert.match(mail.subject, /Ada Admin invited you to Acme Garden Co\./);
    assert.match(mail.text, /join the workspace "Acme Garden Co\." on Site Optimization as an editor/);
    assert.match(mail.text, /approve/);
    assert.equal(linkIn(mail), sent.data.token, 'the link answered is the link e-mailed');
    assert.match(mail.text, new RegExp(new Date(sent.data.expires_at).toUTCString().slice(0, 16)), 'names the day it expires');
    const jobs = await ctx.app.jobs.findJobs('mail.invitation');
    assert.ok(jobs.length > 0);
    assert.ok(!JSON.stringify(jobs).includes(sent.data.token), 'the token travels sealed');
  });
});

describe('names written into invitation e-mails', () => {
  it('refuse control characters (a line break would start a line of the inviter\'s in the mail): 422 for a workspace\'s or a person\'s name', async () => {
    assert.equal((await api(owner, 'POST', '/workspaces', { name: 'Acme\n\nVerify your account at https://evil.example' })).statusCode, 422);
    assert.equal((await call(ctx, { method: 'PATCH', url: '/api/v1/auth/me', token: owner.accessToken, payload: { name: 'Olga\r\nClick https://evil.example' } })).statusCode, 422);
    assert.equal((await api(owner, 'POST', '/sites', { name: 'Shop\nVerify at https://evil.example', domain: 'control-chars.example' })).statusCode, 422, 'a site\'s name too');
    assert.equal((await api(owner, 'POST', '/workspaces', { name: 'Acme Garden Co. (UK)' })).statusCode, 201, 'an ordinary name');
  });

  it('are written on one line whatever a stored name holds', () => {
    const mail = invitationMail({ to: 'a@example.com', workspace: 'Acme\nVerify at https://evil.example', inviter: 'Olga\r\nAdmin', role: 'viewer', link: 'https://seo.example.test/invitations/x', expiresAt: new Date() });
    assert.ok(!/[\r\n]/.test(mail.subject));
    assert.ok(!mail.text.split('\n').some((line) => line.startsWith('Verify at')), mail.text);
  });
});

describe('POST /workspaces/{id}/invitations/{id}/resend', () => {
  it('issues a new link (the old one stops working), 7 days from now, and e-mails it again', async () => {
    const invitee = await signUp(ctx);
    const sent = await invite(admin, invitee.email, 'viewer');
    await smtp.mailTo(invitee.email);
    // Nearly expired: resending starts the 7 days again.
    await ctx.database.db.updateTable('workspace_invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', sent.data.id).execute();

    const res = await resend(owner, sent.data.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.id, sent.data.id);
    assert.equal(res.data.status, 'pending');
    assert.notEqual(res.data.token, sent.data.token);
    assert.match(res.data.link, new RegExp(`/invitations/${res.data.token}$`));
    const days = (new Date(res.data.expires_at).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 6.99 && days <= 7, `${days}`);

    const [, second] = await mailsTo(invitee.email, 2);
    assert.equal(linkIn(second!), res.data.token, 'the new link is e-mailed');
    assert.match(second!.subject, /Olga Owner invited you/, 'the resender is now its sender');

    assert.equal((await api(null, 'GET', `/invitations/${sent.data.token}`)).statusCode, 404, 'the old link opens nothing');
    assert.equal((await api(invitee, 'POST', `/invitations/${sent.data.token}/accept`)).statusCode, 404);
    const accepted = await api(invitee, 'POST', `/invitations/${res.data.token}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.data.workspace.role, 'viewer');
  });

  it('needs a signed-in admin (an owner for an owner\'s invitation): 401, 403 naming the role', async () => {
    const sent = await invite(owner, uniqueEmail('roles'), 'editor');
    assert.equal((await resend(null, sent.data.id)).statusCode, 401);
    const byEditor = await resend(editor, sent.data.id);
    assert.equal(byEditor.statusCode, 403);
    assert.match(byEditor.headers['content-type'] as string, /application\/problem\+json/);
    assert.match(byEditor.data.detail, /needs the admin role/);
    const owners = await invite(owner, uniqueEmail('owner'), 'owner');
    const byAdmin = await resend(admin, owners.data.id);
    assert.equal(byAdmin.statusCode, 403, 'an admin cannot renew an owner\'s invitation');
    assert.match(byAdmin.data.detail, /needs the owner role/);
    assert.equal((await resend(admin, sent.data.id)).statusCode, 200);
  });

  it('is 404 for a non-member, for another workspace\'s invitation and for none; 422 for an id that is no uuid', async () => {
    const sent = await invite(owner, uniqueEmail('scoped'), 'viewer');
    assert.equal((await resend(outsider, sent.data.id)).statusCode, 404);
    const elsewhere = await invite(owner, uniqueEmail('elsewhere'), 'viewer', otherWorkspaceId);
    const crossed = await resend(admin, elsewhere.data.id, workspaceId);
    assert.equal(crossed.statusCode, 404, 'an admin of both workspaces still names the invitation\'s own');
    assert.equal((await resend(admin, randomUUID())).statusCode, 404);
    const bad = await api(admin, 'POST', `/workspaces/${workspaceId}/invitations/nope/resend`);
    assert.equal(bad.statusCode, 422);
    assert.equal((await api(null, 'GET', `/invitations/${elsewhere.data.token}`)).statusCode, 200, 'the refused resend changed nothing');
  });

  it('is 409 once accepted or revoked, and changes neither', async () => {
    const invitee = await signUp(ctx);
    const accepted = await invite(owner, invitee.email, 'viewer');
    assert.equal((await api(invitee, 'POST', `/invitations/${accepted.data.token}/accept`)).statusCode, 200);
    const again = await resend(owner, accepted.data.id);
    assert.equal(again.statusCode, 409);
    assert.match(again.data.detail, /already accepted/);

    const revoked = await invite(owner, uniqueEmail('revoked'), 'viewer');
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}/invitations/${revoked.data.id}`)).statusCode, 204);
    const res = await resend(owner, revoked.data.id);
    assert.equal(res.statusCode, 409);
    assert.match(res.data.detail, /revoked/);
    assert.equal((await api(null, 'GET', `/invitations/${revoked.data.token}`)).data.status, 'revoked', 'its link unchanged');
  });

  it(`resends one invitation at most ${INVITATION_LIMITS.resendsPerInvitation} times an hour, a budget nobody else can use up`, async () => {
    const sent = await invite(owner, uniqueEmail('often'), 'viewer');
    // An editor (who may not resend) trying it again and again: 403 each time, and the owner's resends are untouched.
    for (let i = 0; i <= INVITATION_LIMITS.resendsPerInvitation; i++) assert.notEqual((await resend(editor, sent.data.id)).statusCode, 200);
    for (let i = 0; i < INVITATION_LIMITS.resendsPerInvitation; i++) assert.equal((await resend(owner, sent.data.id)).statusCode, 200);
    const limited = await resend(owner, sent.data.id);
    assert.equal(limited.statusCode, 429);
    assert.match(limited.data.detail, /resent 3 times an hour/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });

  it(`lets one member send at most ${INVITATION_LIMITS.perUser} invitations (new or resent) an hour`, async () => {
    const busy = await signUp(ctx);
    const own = (await api(busy, 'POST', '/workspaces', { name: 'Busy' })).data.id as string;
    for (let i = 0; i < INVITATION_LIMITS.perUser; i++) assert.equal((await invite(busy, uniqueEmail('bulk'), 'viewer', own)).statusCode, 201);
    const limited = await invite(busy, uniqueEmail('bulk'), 'viewer', own);
    assert.equal(limited.statusCode, 429);
    assert.match(limited.data.detail, /limited to 50 an hour/);
    assert.equal((await invite(owner, uniqueEmail('other'), 'viewer')).statusCode, 201, 'another member is not held back');
  });
});

describe('the mail.invitation job', () => {
  it('sends nothing for a link that no longer opens anything (resent since, revoked)', async () => {
    const secrets = createSecretBox('a-test-key-for-the-invitation-mailer');
    const sentMail: Mail[] = [];
    const mailer = createInvitationMailer({
      invitations: createInvitationsRepo(ctx.database.db), mailer: { send: async (m) => void sentMail.push(m) }, secrets, publicUrl: 'https://x.test',
    });
    const first = await invite(owner, uniqueEmail('stale'), 'viewer');
    const job = (token: string) => ({ invitationId: first.data.id as string, token: secrets.seal(token, invitationTokenContext(first.data.id)) });
    await mailer.send(job(first.data.token));
    assert.equal(sentMail.length, 1, 'a live link goes');
    const renewed = await resend(owner, first.data.id);
    await mailer.send(job(first.data.token));
    assert.equal(sentMail.length, 1, 'the replaced link does not');
    await api(owner, 'DELETE', `/workspaces/${workspaceId}/invitations/${first.data.id}`);
    await mailer.send(job(renewed.data.token));
    assert.equal(sentMail.length, 1, 'nor a revoked one');
  });
});
