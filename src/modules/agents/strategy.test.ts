import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startFixtureSite } from '../../../test/helpers/fixture-site.ts';

let ctx: TestContext;
let owner: SignedInUser;
let admin: SignedInUser;
let site: Awaited<ReturnType<typeof startFixtureSite>>;

const prose = 'Our tables are cut from a single oak board in our workshop in Devon. Every table is oiled by hand and ready in six weeks. Delivery is free across the country.';
const doc = (title: string, description: string | null, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${description ? `<meta name="description" content="${description}">` : ''}</head><body>${body}</body></html>`;

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [owner, admin] = await Promise.all([signUp(ctx), signUp(ctx, { role: 'admin' })]);
  site = await startFixtureSite({
    '/': { body: doc('Welcome to the workshop | Fixture Shop', 'The home page of a fixture shop that sells oak tables, chairs and shelves made by hand in Devon.', '<h1>Welcome</h1><a href="/no-desc">Tables</a><a href="/thin">Thin</a><a href="/bad-title">Chairs</a><a href="/gone">Old page</a>') },
    '/no-desc': { body: doc('Oak tables made by hand | Fixture Shop', null, `<h1>Oak tables</h1><p>${prose}</p>`) },
    '/thin': { body: doc('A thin page of the shop | Fixture Shop', null, '<h1>Thin</h1><p>Hardly anything.</p>') },
    '/bad-title': { body: doc('Hi', 'Chairs made from oak offcuts, shaped and finished by hand, with a ten-year guarantee on every joint.', '<h1>Handmade oak chairs</h1><p>Chairs.</p>') },
  });
});
after(async () => {
  await site.close();
  await ctx.close();
});

async function auditAndWait(siteId: string) {
  const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId } });
  for (let i = 0; i < 100; i++) {
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken });
    if (latest.data.id === started.data.id && latest.data.status === 'completed') return latest.data;
    await sleep(200);
  }
  throw new Error('audit did not complete');
}

describe('the strategy agent', () => {
  it('turns audit findings into evidence-backed tasks with concrete values, and records what its gates refused', async () => {
    const created = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Fixture', domain: site.host } });
    const siteId = created.data.id as string;
    const audit = await auditAndWait(siteId);
    let tasks: Array<Record<string, any>> = [];
    for (let i = 0; i < 25 && tasks.length < 3; i++) {
      tasks = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}`, token: owner.accessToken })).data.items;
      if (tasks.length < 3) await sleep(200);
    }
    const byType = new Map(tasks.map((t) => [t.type, t]));
    assert.deepEqual([...byType.keys()].sort(), ['fix_broken_links', 'fix_missing_meta_description', 'fix_title_tag']);
    for (const task of tasks) assert.equal(task.status, 'awaiting_approval');

    const description = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${byType.get('fix_missing_meta_description')!.id}`, token: owner.accessToken })).data;
    assert.equal(description.target, `${site.origin}/no-desc`);
    assert.equal(description.configuration.before, null);
    assert.ok(prose.startsWith(description.configuration.after.replace(/…$/, '')), 'drafted from the page itself');
    assert.ok(description.configuration.after.length >= 80 && description.configuration.after.length <= 160);
    assert.deepEqual(
      { check: description.evidence[0].check_id, url: description.evidence[0].url, audit: description.evidence[0].audit_id },
      { check: 'meta_description_missing', url: `${site.origin}/no-desc`, audit: audit.id },
    );
    assert.equal(description.priority, 'medium');

    const title = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${byType.get('fix_title_tag')!.id}`, token: owner.accessToken })).data;
    assert.deepEqual([title.configuration.before, title.configuration.after], ['Hi', 'Handmade oak chairs | Fixture Shop']);

    const links = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${byType.get('fix_broken_links')!.id}`, token: owner.accessToken })).data;
    assert.equal(links.configuration.changes[0].link_to, `${site.origin}/gone`);

    const rejections = await call(ctx, { method: 'GET', url: `/api/v1/admin/task-rejections?site_id=${siteId}`, token: admin.accessToken });
    assert.equal(rejections.statusCode, 200);
    const thin = rejections.data.items.find((r: { target: string }) => r.target === `${site.origin}/thin`);
    assert.match(thin.reason, /too little text/);

    // A second audit finds the same problems: the open tasks are not proposed twice.
    await auditAndWait(siteId);
    await sleep(300);
    const again = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}`, token: owner.accessToken })).data;
    assert.equal(again.total, 3);
    const later = await call(ctx, { method: 'GET', url: `/api/v1/admin/task-rejections?site_id=${siteId}&page_size=100`, token: admin.accessToken });
    assert.ok(later.data.items.some((r: { reason: string }) => /already covers/.test(r.reason)));
  });

  it('shows rejections to admins only', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/admin/task-rejections', token: owner.accessToken });
    assert.equal(res.statusCode, 403);
  });
});
