import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, uniqueEmail, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { createSitesRepo } from '../sites/sites.repo.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { createUsersRepo } from '../users/users.repo.ts';
import type { WorkspaceRole } from './roles.ts';
import { createWorkspacesRepo } from './workspaces.repo.ts';

let ctx: TestContext;
/** The owner of the shared workspace, a member of each other role, and someone who is no member. */
let owner: SignedInUser;
let admin: SignedInUser;
let editor: SignedInUser;
let viewer: SignedInUser;
let outsider: SignedInUser;
let workspaceId: string;
let siteId: string;
let n = 0;

const api = (user: SignedInUser | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  call(ctx, { method, url: `/api/v1${url}`, ...(user ? { token: user.accessToken } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

/** Invites `user` with `role` (as `by`) and accepts as that signed-in user. */
async function join(user: SignedInUser, role: WorkspaceRole, by: SignedInUser = owner) {
  const invited = await api(by, 'POST', `/workspaces/${workspaceId}/invitations`, { email: user.email, role });
  assert.equal(invited.statusCode, 201, invited.body);
  const accepted = await api(user, 'POST', `/invitations/${invited.data.token}/accept`);
  assert.equal(accepted.statusCode, 200, accepted.body);
  assert.equal(accepted.data.workspace.role, role);
}

async function propose(site: string) {
  const id = await createTasksRepo(ctx.database.db).insertProposal({
    siteId: site, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'Add a meta description',
    description: 'The page has no meta description.', target: `https://example.com/${++n}`,
    configuration: { before: null, after: 'A description.' }, evidence: [{ check_id: 'meta_description_missing', url: 'https://example.com/' }],
  });
  assert.ok(id);
  return id;
}

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [owner, admin, editor, viewer, outsider] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx)]);
  const created = await api(owner, 'POST', '/workspaces', { name: 'Acme Garden Co.' });
  assert.equal(created.statusCode, 201, created.body);
  workspaceId = created.data.id;
  await join(admin, 'admin');
  await join(editor, 'editor');
  await join(viewer, 'viewer');
  const site = await api(owner, 'POST', '/sites', { name: 'Acme', domain: `acme-${Date.now()}.com`, workspace_id: workspaceId });
  assert.equal(site.statusCode, 201, site.body);
  siteId = site.data.id;
});
after(() => ctx.close());

const members = () => ({ owner, admin, editor, viewer, outsider });
type Who = keyof ReturnType<typeof members>;

/**
 * Calls `request` as each member and the outsider, and checks each status: the guard of every route acting on a site or what
 * hangs off it. `request` gets a fresh resource per call where acting uses it up (a task approved is approved).
 */
async function expectByRole(request: (user: SignedInUser) => Promise<{ statusCode: number; body: string }>, expected: Record<Who, number>) {
  for (const [who, status] of Object.entries(expected) as Array<[Who, number]>) {
    const res = await request(members()[who]);
    assert.equal(res.statusCode, status, `${who}: ${res.body}`);
    if (status === 403) assert.match(JSON.parse(res.body).detail, /needs the (editor|admin|owner) role/, 'a 403 names the role needed');
  }
}

const READ = { owner: 200, admin: 200, editor: 200, viewer: 200, outsider: 404 };
const EDIT = { owner: 200, admin: 200, editor: 200, viewer: 403, outsider: 404 };
const ADMIN = { owner: 200, admin: 200, editor: 403, viewer: 403, outsider: 404 };

describe('every route on a site and what hangs off it, for each role', () => {
  it('reads: any member (viewer and up); a non-member gets 404', async () => {
    const task = await propose(siteId);
    await expectByRole((u) => api(u, 'GET', `/sites/${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/sites/${siteId}/progress`), READ);
    await expectByRole((u) => api(u, 'GET', `/sites/${siteId}/connector`), READ);
    await expectByRole((u) => api(u, 'GET', `/tasks/${task}`), READ);
    await expectByRole((u) => api(u, 'GET', `/tasks?site_id=${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/tasks/awaiting-approval?site_id=${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/keywords?site_id=${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/analytics/dashboard?site_id=${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/cms/rollback/history?site_id=${siteId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/analytics/performance?site_id=${siteId}`), READ);
    // A workspace filter: any member; the outsider's 404 says nothing of it.
    await expectByRole((u) => api(u, 'GET', `/tasks?workspace_id=${workspaceId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/tasks/awaiting-approval?workspace_id=${workspaceId}`), READ);
    await expectByRole((u) => api(u, 'GET', `/cms/rollback/history?workspace_id=${workspaceId}`), READ);
  });

  it('lists the workspace\'s sites to every member, and to nobody else', async () => {
    for (const user of [admin, editor, viewer]) {
      const res = await api(user, 'GET', '/sites');
      assert.ok(res.data.items.some((s: { id: string; workspace_id: string }) => s.id === siteId && s.workspace_id === workspaceId));
    }
    assert.equal((await api(outsider, 'GET', '/sites')).data.items.some((s: { id: string }) => s.id === siteId), false);
  });

  it('approve, cancel, retry, audits and keywords: editor and up; a viewer gets 403 naming the role', async () => {
    await expectByRole(async (u) => api(u, 'POST', `/tasks/${await propose(siteId)}/approve`), EDIT);
    await expectByRole(async (u) => api(u, 'POST', `/tasks/${await propose(siteId)}/cancel`, { reason: 'not now' }), EDIT);
    // A task awaiting approval cannot be retried: 409 for those allowed to try, 403 below, 404 outside.
    await expectByRole(async (u) => api(u, 'POST', `/tasks/${await propose(siteId)}/retry`), { ...EDIT, owner: 409, admin: 409, editor: 409 });
    await expectByRole(async (u) => api(u, 'POST', `/tasks/${await propose(siteId)}/rollback`), { ...EDIT, owner: 409, admin: 409, editor: 409 });
    await expectByRole((u) => api(u, 'POST', '/audits', { site_id: siteId }), { ...EDIT, owner: 202, admin: 202, editor: 202 });
    // The agent's run of a queued audit cannot be retried: 409 for those allowed to try.
    const audit = (await api(owner, 'POST', '/audits', { site_id: siteId })).data.id as string;
    await expectByRole((u) => api(u, 'POST', `/audits/${audit}/agent`), { ...EDIT, owner: 409, admin: 409, editor: 409 });
    await expectByRole((u) => api(u, 'POST', '/keywords', { site_id: siteId, keyword: `garden tools ${++n}` }), { ...EDIT, owner: 201, admin: 201, editor: 201 });
    const keyword = async () => (await api(owner, 'POST', '/keywords', { site_id: siteId, keyword: `rose pruning ${++n}` })).data.id as string;
    await expectByRole(async (u) => api(u, 'DELETE', `/keywords/${await keyword()}`), { ...EDIT, owner: 204, admin: 204, editor: 204 });
  });

  it('site settings and the connector: admin and up', async () => {
    await expectByRole((u) => api(u, 'PUT', `/sites/${siteId}`, { name: `Acme ${++n}` }), ADMIN);
    await expectByRole((u) => api(u, 'PUT', `/sites/${siteId}/connector`, { type: 'manual' }), ADMIN);
  });

  it('names the member who acted in the task\'s history', async () => {
    const task = await propose(siteId);
    assert.equal((await api(editor, 'POST', `/tasks/${task}/approve`)).statusCode, 200);
    const detail = await api(viewer, 'GET', `/tasks/${task}`);
    assert.equal(detail.data.execution_history.at(-1).actor, `user:${editor.id}`);
  });

  it('adds a site to a workspace only for its admins; moves one only for an owner where it is, admin where it goes', async () => {
    const domain = `new-${Date.now()}.com`;
    assert.equal((await api(editor, 'POST', '/sites', { name: 'N', domain, workspace_id: workspaceId })).statusCode, 403);
    assert.equal((await api(outsider, 'POST', '/sites', { name: 'N', domain, workspace_id: workspaceId })).statusCode, 404);
    const added = await api(admin, 'POST', '/sites', { name: 'N', domain, workspace_id: workspaceId });
    assert.equal(added.statusCode, 201);
    assert.equal((await api(admin, 'POST', '/sites', { name: 'N', domain, workspace_id: workspaceId })).statusCode, 409, 'one domain once per workspace');

    // An admin is owner of their own personal workspace: with admin alone they could take the client's site, credentials and all.
    const adminsPersonal = (await api(admin, 'GET', '/workspaces')).data.items.find((w: { personal: boolean }) => w.personal).id as string;
    const taken = await api(admin, 'PUT', `/sites/${added.data.id}`, { workspace_id: adminsPersonal });
    assert.equal(taken.statusCode, 403);
    assert.match(taken.data.detail, /needs the owner role/);
    const ownersPersonal = (await api(owner, 'GET', '/workspaces')).data.items.find((w: { personal: boolean }) => w.personal).id as string;
    assert.equal((await api(owner, 'PUT', `/sites/${added.data.id}`, { workspace_id: adminsPersonal })).statusCode, 404, 'not a member there');
    const moved = await api(owner, 'PUT', `/sites/${added.data.id}`, { workspace_id: ownersPersonal });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.data.workspace_id, ownersPersonal);
    assert.equal((await api(editor, 'GET', `/sites/${added.data.id}`)).statusCode, 404, 'gone from the workspace with it');
  });

  it('lets only the member who added a site pick its Search Console property (their Google connection reads it), and syncs it only while they are a member', async () => {
    const site = await api(admin, 'POST', '/sites', { name: 'G', domain: `g-${Date.now()}.com`, workspace_id: workspaceId });
    const other = await api(owner, 'PUT', `/sites/${site.data.id}`, { gsc_property: 'sc-domain:other-client.com' });
    assert.equal(other.statusCode, 403, other.body);
    assert.match(other.data.detail, /member who added this site/);
    assert.equal((await api(admin, 'PUT', `/sites/${site.data.id}`, { gsc_property: 'sc-domain:g.com' })).statusCode, 200);
    assert.equal((await api(owner, 'PUT', `/sites/${site.data.id}`, { name: 'Renamed', gsc_property: 'sc-domain:g.com' })).statusCode, 200, 'the same property again is no pick');
    const sync = createSitesRepo(ctx.database.db);
    assert.equal((await sync.findForSync(site.data.id))?.owner_id, admin.id);
    const temp = await signUp(ctx);
    await join(temp, 'admin');
    const theirs = await api(temp, 'POST', '/sites', { name: 'T', domain: `t-${Date.now()}.com`, workspace_id: workspaceId });
    assert.equal((await api(temp, 'DELETE', `/workspaces/${workspaceId}/members/${temp.id}`)).statusCode, 204);
    assert.equal((await sync.findForSync(theirs.data.id))?.owner_id, null, 'the member who left no longer feeds it');
  });
});

describe('workspaces', () => {
  it('lists the caller\'s workspaces, personal first, with the caller\'s role and counts', async () => {
    const res = await api(editor, 'GET', '/workspaces');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.items[0].personal, true);
    const shared = res.data.items.find((w: { id: string }) => w.id === workspaceId);
    assert.equal(shared.role, 'editor');
    assert.ok(shared.member_count >= 4 && shared.site_count >= 1);
    assert.equal((await api(outsider, 'GET', '/workspaces')).data.items.some((w: { id: string }) => w.id === workspaceId), false);
    assert.equal((await api(null, 'GET', '/workspaces')).statusCode, 401);
  });

  it('creates, reads, renames and deletes, each by the role it needs', async () => {
    assert.equal((await api(owner, 'POST', '/workspaces', { name: ' ' })).statusCode, 422);
    assert.equal((await api(owner, 'POST', '/workspaces', { name: 'X', extra: 1 })).statusCode, 422);
    assert.equal((await api(owner, 'GET', '/workspaces/not-a-uuid')).statusCode, 422);
    assert.equal((await api(outsider, 'GET', `/workspaces/${workspaceId}`)).statusCode, 404);
    assert.equal((await api(owner, 'GET', `/workspaces/${randomUUID()}`)).statusCode, 404);
    await expectByRole((u) => api(u, 'PATCH', `/workspaces/${workspaceId}`, { name: `Acme Garden ${++n}` }), ADMIN);
    assert.equal((await api(admin, 'DELETE', `/workspaces/${workspaceId}`)).statusCode, 403, 'deleting is an owner\'s');
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}`)).statusCode, 409, 'it still holds sites');
    const personal = (await api(owner, 'GET', '/workspaces')).data.items[0];
    assert.equal((await api(owner, 'DELETE', `/workspaces/${personal.id}`)).statusCode, 409, 'a personal workspace stays');
    const empty = await api(owner, 'POST', '/workspaces', { name: 'Empty' });
    assert.equal((await api(owner, 'DELETE', `/workspaces/${empty.data.id}`)).statusCode, 204);
    assert.equal((await api(owner, 'GET', `/workspaces/${empty.data.id}`)).statusCode, 404);
  });

  it('changes no member whose role changed since the caller\'s right to change it was judged (an owner promoted them meanwhile)', async () => {
    const temp = await signUp(ctx);
    await join(temp, 'editor');
    const repo = createWorkspacesRepo(ctx.database.db);
    assert.equal(await repo.changeMember(workspaceId, temp.id, 'viewer', 'owner'), 'changed');
    assert.equal(await repo.roleOf(workspaceId, temp.id), 'editor');
    assert.equal(await repo.changeMember(workspaceId, temp.id, null, 'editor'), true);
  });

  it('members: listed to members; roles changed by admins, owners only by owners; the last owner stays', async () => {
    const list = await api(viewer, 'GET', `/workspaces/${workspaceId}/members`);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.data.items.map((m: { role: string }) => m.role).sort(), ['admin', 'editor', 'owner', 'viewer']);
    assert.equal((await api(outsider, 'GET', `/workspaces/${workspaceId}/members`)).statusCode, 404);

    const temp = await signUp(ctx);
    await join(temp, 'viewer', admin);
    const url = `/workspaces/${workspaceId}/members/${temp.id}`;
    assert.equal((await api(editor, 'PATCH', url, { role: 'editor' })).statusCode, 403);
    assert.equal((await api(admin, 'PATCH', url, { role: 'editor' })).data.role, 'editor');
    assert.equal((await api(admin, 'PATCH', url, { role: 'owner' })).statusCode, 403, 'only an owner makes an owner');
    assert.equal((await api(admin, 'PATCH', `/workspaces/${workspaceId}/members/${owner.id}`, { role: 'viewer' })).statusCode, 403, 'an admin cannot touch an owner');
    assert.equal((await api(admin, 'PATCH', url, { role: 'boss' })).statusCode, 422);
    assert.equal((await api(admin, 'PATCH', `/workspaces/${workspaceId}/members/${outsider.id}`, { role: 'viewer' })).statusCode, 404);
    assert.equal((await api(owner, 'PATCH', `/workspaces/${workspaceId}/members/${owner.id}`, { role: 'admin' })).statusCode, 409, 'the last owner');
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}/members/${owner.id}`)).statusCode, 409, 'the last owner cannot leave');

    // Two owners: one may step down; then the other is the last.
    assert.equal((await api(owner, 'PATCH', url, { role: 'owner' })).data.role, 'owner');
    assert.equal((await api(temp, 'PATCH', url, { role: 'viewer' })).data.role, 'viewer');
    assert.equal((await api(viewer, 'DELETE', url)).statusCode, 403, 'a viewer removes nobody else');
    assert.equal((await api(temp, 'DELETE', url)).statusCode, 204, 'anyone may leave');
    assert.equal((await api(temp, 'GET', `/sites/${siteId}`)).statusCode, 404, 'and sees the workspace\'s sites no more');
  });
});

describe('an account deleted with what it owns', () => {
  it('hands a shared workspace it alone owns to its longest-serving member of the highest role, and deletes one with nobody else', async () => {
    const leaving = await signUp(ctx);
    const [first, second, viewerToo] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx)]);
    const alone = (await api(leaving, 'POST', '/workspaces', { name: 'Alone' })).data.id as string;
    const shared = (await api(leaving, 'POST', '/workspaces', { name: 'Shared' })).data.id as string;
    const coOwned = (await api(leaving, 'POST', '/workspaces', { name: 'Co-owned' })).data.id as string;
    const add = async (workspace: string, user: SignedInUser, role: WorkspaceRole) => {
      const sent = await api(leaving, 'POST', `/workspaces/${workspace}/invitations`, { email: user.email, role });
      assert.equal((await api(user, 'POST', `/invitations/${sent.data.token}/accept`)).statusCode, 200);
    };
    await add(shared, viewerToo, 'viewer');
    await add(shared, first, 'admin');
    await add(shared, second, 'admin');
    await add(coOwned, outsider, 'owner');
    await add(coOwned, first, 'editor');

    assert.equal(await createUsersRepo(ctx.database.db).deleteByEmail(leaving.email), true);
    const left = await ctx.database.db.selectFrom('workspaces').select('id').where('id', 'in', [alone, shared, coOwned]).execute();
    assert.deepEqual(left.map((w) => w.id).sort(), [shared, coOwned].sort(), 'only the one with nobody else is gone');
    assert.equal((await api(first, 'GET', `/workspaces/${shared}`)).data.role, 'owner', 'the first admin to join takes it over');
    assert.equal((await api(second, 'GET', `/workspaces/${shared}`)).data.role, 'admin');
    assert.equal((await api(first, 'GET', `/workspaces/${coOwned}`)).data.role, 'editor', 'a workspace with another owner stays as it is');
    assert.equal((await api(outsider, 'DELETE', `/workspaces/${coOwned}`)).statusCode, 204);
  });
});

describe('invitations', () => {
  const invite = (by: SignedInUser, payload: unknown) => api(by, 'POST', `/workspaces/${workspaceId}/invitations`, payload);

  it('are made by admins (an owner for an owner), with a single-use link valid 7 days', async () => {
    const email = uniqueEmail('invitee');
    assert.equal((await invite(editor, { email, role: 'viewer' })).statusCode, 403);
    assert.equal((await invite(outsider, { email, role: 'viewer' })).statusCode, 404);
    assert.equal((await invite(admin, { email, role: 'owner' })).statusCode, 403);
    assert.equal((await invite(admin, { email: 'not-an-email', role: 'viewer' })).statusCode, 422);
    const personal = (await api(owner, 'GET', '/workspaces')).data.items[0].id;
    assert.equal((await api(owner, 'POST', `/workspaces/${personal}/invitations`, { email, role: 'viewer' })).statusCode, 409);
    const res = await invite(admin, { email, role: 'editor' });
    assert.equal(res.statusCode, 201);
    assert.equal(res.data.status, 'pending');
    assert.match(res.data.link, /\/invitations\/[A-Za-z0-9_-]{43}$/);
    const days = (new Date(res.data.expires_at).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 6.99 && days <= 7, `${days}`);
    const listed = await api(admin, 'GET', `/workspaces/${workspaceId}/invitations`);
    assert.equal(listed.data.items[0].id, res.data.id);
    assert.equal('token' in listed.data.items[0], false, 'the link is shown once');
    assert.equal((await api(editor, 'GET', `/workspaces/${workspaceId}/invitations`)).statusCode, 403);
  });

  it('shows its holder what the link offers before accepting, without a sign-in, and says when it is no longer good', async () => {
    const email = uniqueEmail('preview');
    const { data } = await invite(admin, { email, role: 'editor' });
    const res = await api(null, 'GET', `/invitations/${data.token}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.workspace_name, (await api(owner, 'GET', `/workspaces/${workspaceId}`)).data.name);
    assert.deepEqual([res.data.email, res.data.role, res.data.invited_by, res.data.status], [email, 'editor', admin.name, 'pending']);
    assert.equal('token' in res.data, false);
    assert.equal((await api(null, 'GET', `/invitations/${'y'.repeat(43)}`)).statusCode, 404);
    await api(admin, 'DELETE', `/workspaces/${workspaceId}/invitations/${data.id}`);
    assert.equal((await api(null, 'GET', `/invitations/${data.token}`)).data.status, 'revoked');
  });

  it('makes an account on accepting, for someone who has none, and signs them in', async () => {
    const email = uniqueEmail('new');
    const { data } = await invite(owner, { email, role: 'viewer' });
    assert.equal((await api(null, 'POST', `/invitations/${data.token}/accept`)).statusCode, 401, 'neither signed in nor a password');
    assert.equal((await api(null, 'POST', `/invitations/${data.token}/accept`, { name: 'Nia', password: 'short' })).statusCode, 422);
    const res = await api(null, 'POST', `/invitations/${data.token}/accept`, { name: 'Nia', password: 'a-long-enough-password' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.workspace.role, 'viewer');
    const site = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: res.data.access_token });
    assert.equal(site.data.role, 'viewer');
    assert.equal((await api(null, 'POST', `/invitations/${data.token}/accept`, { name: 'Nia', password: 'a-long-enough-password' })).statusCode, 409, 'used once');
  });

  it('is void once its sender can no longer invite (removed, or demoted below admin)', async () => {
    const invitee = await signUp(ctx);
    const sent = await invite(admin, { email: invitee.email, role: 'viewer' });
    assert.equal((await api(owner, 'PATCH', `/workspaces/${workspaceId}/members/${admin.id}`, { role: 'editor' })).statusCode, 200);
    try {
      const res = await api(invitee, 'POST', `/invitations/${sent.data.token}/accept`);
      assert.equal(res.statusCode, 409);
      assert.match(res.data.detail, /can no longer invite/);
    } finally {
      assert.equal((await api(owner, 'PATCH', `/workspaces/${workspaceId}/members/${admin.id}`, { role: 'admin' })).statusCode, 200);
    }
    assert.equal((await api(invitee, 'POST', `/invitations/${sent.data.token}/accept`)).statusCode, 200, 'good again once the sender may invite');
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}/members/${invitee.id}`)).statusCode, 204);
  });

  it('refuses one sent to another address, revoked, expired, unknown, or for an e-mail that has an account and is not signed in', async () => {
    const other = await invite(owner, { email: uniqueEmail('someone'), role: 'viewer' });
    assert.equal((await api(outsider, 'POST', `/invitations/${other.data.token}/accept`)).statusCode, 403);

    const revoked = await invite(owner, { email: outsider.email, role: 'viewer' });
    assert.equal((await api(editor, 'DELETE', `/workspaces/${workspaceId}/invitations/${revoked.data.id}`)).statusCode, 403);
    assert.equal((await api(owner, 'DELETE', `/workspaces/${workspaceId}/invitations/${randomUUID()}`)).statusCode, 404);
    assert.equal((await api(admin, 'DELETE', `/workspaces/${workspaceId}/invitations/${revoked.data.id}`)).statusCode, 204);
    assert.match((await api(outsider, 'POST', `/invitations/${revoked.data.token}/accept`)).body, /revoked/);

    const expired = await invite(owner, { email: outsider.email, role: 'viewer' });
    await ctx.database.db.updateTable('workspace_invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.data.id).execute();
    const late = await api(outsider, 'POST', `/invitations/${expired.data.token}/accept`);
    assert.equal(late.statusCode, 409);
    assert.match(late.body, /expired/);

    assert.equal((await api(outsider, 'POST', `/invitations/${'x'.repeat(43)}/accept`)).statusCode, 404);
    assert.equal((await api(outsider, 'POST', '/invitations/short/accept')).statusCode, 422);

    const existing = await invite(owner, { email: outsider.email, role: 'viewer' });
    assert.equal((await api(null, 'POST', `/invitations/${existing.data.token}/accept`, { name: 'O', password: 'a-long-enough-password' })).statusCode, 409);
    assert.equal((await api(outsider, 'GET', `/sites/${siteId}`)).statusCode, 404, 'none of these made the outsider a member');
  });
});
