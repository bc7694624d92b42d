import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';

let ctx: TestContext;
let admin: SignedInUser;

const as = (user: SignedInUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  call(ctx, { method, url: `/api/v1${url}`, token: user.accessToken, ...(payload ? { payload } : {}) });
const setDisabled = (userId: string, disabled: boolean) => as(admin, 'PATCH', `/admin/users/${userId}`, { disabled });

async function workspace(owner: SignedInUser, name: string, members: Array<[SignedInUser, 'owner' | 'admin' | 'editor' | 'viewer']>) {
  const id = (await as(owner, 'POST', '/workspaces', { name })).data.id as string;
  for (const [user, role] of members) {
    const invited = await as(owner, 'POST', `/workspaces/${id}/invitations`, { email: user.email, role });
    assert.equal((await as(user, 'POST', `/invitations/${invited.data.token}/accept`)).statusCode, 200);
  }
  return id;
}

before(async () => {
  ctx = await startTestApp();
  admin = await signUp(ctx, { role: 'admin' });
});
after(() => ctx.close());

describe('disabling the only active owner of a shared workspace', () => {
  it('disables the account at once and names the shared workspaces left without an active owner', async () => {
    const [owner, member, coOwner, formerOwner] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx), signUp(ctx)]);
    const alone = await workspace(owner, 'Beta Clients', [[member, 'admin']]);
    await workspace(owner, 'Shared Ownership', [[coOwner, 'owner'], [member, 'viewer']]);
    await workspace(owner, 'Nobody Else', []);
    const lapsed = await workspace(owner, 'Alpha Agency', [[formerOwner, 'owner'], [member, 'editor']]);
    assert.equal((await setDisabled(formerOwner.id, true)).statusCode, 200);

    const res = await setDisabled(owner.id, true);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.disabled, true);
    assert.deepEqual(res.data.ownerless_workspaces, [
      { id: lapsed, name: 'Alpha Agency', members: 3 }, // its other owner is disabled too
      { id: alone, name: 'Beta Clients', members: 2 },
    ], 'not one with another active owner, nor one with no other member, nor the personal workspace');
    assert.equal((await as(owner, 'GET', '/workspaces')).statusCode, 401, 'its sessions ended at once');
    assert.equal((await as(member, 'GET', `/workspaces/${alone}`)).statusCode, 200, 'the members go on');

    const enabled = await setDisabled(owner.id, false);
    assert.equal(enabled.statusCode, 200);
    assert.deepEqual(enabled.data.ownerless_workspaces, []);
  });

  it('names none for an account that owns no shared workspace', async () => {
    const user = await signUp(ctx);
    const res = await setDisabled(user.id, true);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data.ownerless_workspaces, []);
  });
});
