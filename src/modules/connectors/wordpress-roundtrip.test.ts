import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { startWordPressServer, type WordPressServer } from '../demo/wordpress-stand-in.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { until } from '../../../test/helpers/wait.ts';

/**
 * From audit to rollback against a server speaking WordPress's REST wire format: the
 * strategy agent proposes, the owner approves, the worker writes through the REST API,
 * the verifier reads the live page, and rollback puts the exact old values back.
 */
const ABOUT = 'We are a family garden shop in Kent. We grow our own roses and perennials on four acres. Visitors can walk the beds and ask the growers anything.';
const ROSES = '<h1>Roses</h1>\n<p>We grow old shrub roses.</p><figure><img src="/wp-content/uploads/2024/05/red-rose-bush-1024x768.jpg" class="wp-image-7"></figure>';
const LONG_TITLE = 'Pruning roses in a small garden: everything you ever wanted to know';

let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let wp: WordPressServer;
let siteId: string;
const tasks = new Map<string, Record<string, any>>();

const api = (method: 'GET' | 'POST', url: string, token = owner.accessToken) => call(ctx, { method, url, token });
const detail = async (id: string) => (await api('GET', `/api/v1/tasks/${id}`)).data;
const approveAndRun = async (id: string) => {
  assert.equal((await api('POST', `/api/v1/tasks/${id}/approve`)).statusCode, 200);
  return until(() => detail(id), (t) => t.status === 'completed' || t.status === 'failed', 'execution');
};
const verified = (id: string) =>
  until(async () => (await api('GET', `/api/v1/verification/tasks/${id}/verification-status`)).data, (v) => v.status !== 'pending', 'verification');

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  wp = await startWordPressServer({
    items: [
      { type: 'page', slug: 'about', title: 'About the Garden Shop team', content: `<p>${ABOUT}</p><p>Open daily from nine.</p>` },
      {
        type: 'post', slug: 'pruning-roses', title: LONG_TITLE,
        content: '<p>Prune in late winter. Cut above an outward bud.</p><p>See our <a href="/old-guide/">older guide</a> for more.</p>',
        meta: { sos_meta_description: 'How and when to prune roses in a small garden: the cuts to make, the tools to use and the mistakes that cost you next summer\'s flowers.' },
      },
      {
        type: 'page', slug: 'roses', title: 'Our roses and how we grow them',
        content: ROSES,
        meta: { sos_meta_description: 'The roses we grow on four acres in Kent: old shrub roses, climbers and ramblers, all raised from our own cuttings and sold bare-root.' },
      },
    ],
  });
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Garden', domain: wp.host } })).data.id;
  const connector = await call(ctx, {
    method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken,
    payload: { type: 'wordpress', base_url: wp.origin, username: wp.username, application_password: wp.applicationPassword },
  });
  assert.equal(connector.statusCode, 200);

  const audit = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId } });
  // Done when the strategy agent has run on the stored audit.
  await until(async () => (await api('GET', `/api/v1/audits/site/${siteId}/latest`)).data, (a) => a.id === audit.data.id && a.agent_summary !== null, 'the audit');
  const list = (await api('GET', `/api/v1/tasks?site_id=${siteId}&page_size=100`)).data.items;
  for (const task of list) tasks.set(`${task.type} ${(await detail(task.id)).target}`, task);
});
after(async () => {
  await ctx.close();
  await wp.close();
});

describe('a WordPress site, end to end', () => {
  it('writes the proposed meta description into the registered meta field, verifies it live and rolls it back exactly', async () => {
    const task = tasks.get(`fix_missing_meta_description ${wp.origin}/about/`);
    assert.ok(task, `proposed: ${[...tasks.keys()].join(', ')}`);
    const done = await approveAndRun(task.id);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const [deliverable] = done.deliverables;
    assert.equal(deliverable.connector, 'wordpress');
    assert.deepEqual(deliverable.resource, { kind: 'pages', id: wp.item('about')!.id });
    assert.deepEqual(deliverable.changes, [{ field: 'meta.sos_meta_description', before: '', after: done.configuration.after }]);
    assert.equal(wp.item('about')!.meta.sos_meta_description, done.configuration.after);
    assert.ok(ABOUT.startsWith(done.configuration.after.replace(/…$/, '')));
    assert.equal((await verified(task.id)).status, 'verified');

    const rolled = await api('POST', `/api/v1/tasks/${task.id}/rollback`);
    assert.equal(rolled.statusCode, 200);
    assert.equal(rolled.data.status, 'rolled_back');
    assert.equal(wp.item('about')!.meta.sos_meta_description, '', 'WordPress holds the original value again');
    const after = await detail(task.id);
    assert.equal(after.status, 'rolled_back');
    assert.equal(after.rollback.status, 'restored');
    assert.deepEqual(after.rollback.checks, [{ check: 'meta_description', expected: null, actual: null, passed: true }]);
    assert.equal(after.execution_history.at(-1).to, 'rolled_back');
    assert.equal((await api('POST', `/api/v1/tasks/${task.id}/rollback`)).statusCode, 409, 'only once');
  });

  it('shortens a post title so that the theme\'s " – Site" suffix completes it, and refuses to undo over a later edit unless forced', async () => {
    const task = tasks.get(`fix_title_tag ${wp.origin}/pruning-roses/`);
    assert.ok(task);
    const done = await approveAndRun(task.id);
    assert.equal(done.configuration.after, 'Pruning roses in a small garden – Garden Shop', 'the theme prints the suffix: the subtitle goes to fit it, never a word of the headline');
    assert.deepEqual(done.deliverables[0].changes, [{ field: 'title', before: LONG_TITLE, after: 'Pruning roses in a small garden' }]);
    const verification = await verified(task.id);
    assert.equal(verification.status, 'verified', JSON.stringify(verification.checks));

    wp.edit('pruning-roses', { title: 'Pruning roses, edited by hand' });
    const refused = await api('POST', `/api/v1/tasks/${task.id}/rollback`);
    assert.equal(refused.statusCode, 409);
    assert.match(refused.data.detail, /title of .* changed in WordPress after the task ran/);
    assert.equal(wp.item('pruning-roses')!.title, 'Pruning roses, edited by hand', 'nothing written');

    const forced = await api('POST', `/api/v1/tasks/${task.id}/rollback?force=true`);
    assert.equal(forced.statusCode, 200);
    assert.equal(wp.item('pruning-roses')!.title, LONG_TITLE);
    const history = (await api('GET', `/api/v1/cms/rollback/history?site_id=${siteId}`)).data;
    const forThis = history.items.filter((r: { task_id: string }) => r.task_id === task.id);
    assert.deepEqual(forThis.map((r: { status: string }) => r.status), ['restored', 'failed']);
    assert.deepEqual(forThis[0].changes[0], {
      url: `${wp.origin}/pruning-roses/`, resource: { kind: 'posts', id: wp.item('pruning-roses')!.id },
      field: 'title', restored: LONG_TITLE, replaced: 'Pruning roses, edited by hand',
    });
    assert.equal(forThis[0].actor, `user:${owner.id}`);
  });

  it('removes a broken link from the content and nothing else; concurrent rollbacks have one winner', async () => {
    const task = tasks.get(`fix_broken_links ${wp.origin}/pruning-roses/`);
    assert.ok(task);
    const original = wp.item('pruning-roses')!.content;
    const done = await approveAndRun(task.id);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.equal(wp.item('pruning-roses')!.content, '<p>Prune in late winter. Cut above an outward bud.</p><p>See our older guide for more.</p>');
    assert.equal((await verified(task.id)).status, 'verified');

    const answers = await Promise.all([1, 2, 3, 4].map(() => api('POST', `/api/v1/tasks/${task.id}/rollback`)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409, 409, 409]);
    assert.equal(wp.item('pruning-roses')!.content, original, 'byte for byte');
    const history = (await detail(task.id)).execution_history.filter((e: { to: string }) => e.to === 'rolled_back');
    assert.equal(history.length, 1);
  });

  it('edits the post content for alt text and a second h1, leaving every other byte alone, and restores it', async () => {
    const alt = tasks.get(`add_image_alt_text ${wp.origin}/roses/`);
    const h1 = tasks.get(`fix_h1 ${wp.origin}/roses/`);
    assert.ok(alt && h1, [...tasks.keys()].join(', '));
    assert.equal((await approveAndRun(alt.id)).status, 'completed');
    assert.equal(wp.item('roses')!.content, ROSES.replace('class="wp-image-7">', 'class="wp-image-7" alt="Red rose bush">'));
    assert.equal((await verified(alt.id)).status, 'verified');
    const demoted = await approveAndRun(h1.id);
    assert.equal(demoted.status, 'completed', JSON.stringify(demoted.error));
    assert.ok(wp.item('roses')!.content.startsWith('<h2>Roses</h2>\n<p>'), 'the theme prints the title as the h1; the content\'s h1 became an h2');
    assert.equal((await verified(h1.id)).status, 'verified');

    // The alt task's content was changed again by the h1 task: undoing it first would lose that change.
    const early = await api('POST', `/api/v1/tasks/${alt.id}/rollback`);
    assert.equal(early.statusCode, 409);
    assert.match(early.data.detail, /content of .* changed in WordPress after the task ran/);
    // Undone in reverse order, each restores exactly what it replaced.
    assert.equal((await api('POST', `/api/v1/tasks/${h1.id}/rollback`)).statusCode, 200);
    assert.equal(wp.item('roses')!.content, ROSES.replace('class="wp-image-7">', 'class="wp-image-7" alt="Red rose bush">'));
    assert.equal((await api('POST', `/api/v1/tasks/${alt.id}/rollback`)).statusCode, 200);
    assert.equal(wp.item('roses')!.content, ROSES);
  });

  it('falls back to a manual deliverable, with the reason, for a page WordPress does not store (the blog index)', async () => {
    const id = (await createTasksRepo(ctx.database.db).insertProposal({
      siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'medium', title: 't', description: 'd',
      target: `${wp.origin}/`, configuration: { url: `${wp.origin}/`, after: 'A family garden shop in Kent: roses, perennials and the advice of the people who grow them.' },
      evidence: [{ check_id: 'meta_description_missing' }],
    }))!;
    const done = await approveAndRun(id);
    assert.equal(done.status, 'completed');
    assert.equal(done.deliverables[0].connector, 'manual');
    assert.match(done.deliverables[0].note, /WordPress has no post or page behind/);
    assert.equal(done.can_roll_back, false);
    assert.equal((await api('POST', `/api/v1/tasks/${id}/rollback`)).statusCode, 409);
  });

  it('hands a brief over as it is, without looking for it on the site', async () => {
    const brief = tasks.get(`add_structured_data ${wp.origin}/`);
    assert.ok(brief, [...tasks.keys()].join(', '));
    const before = wp.requests.length;
    const done = await approveAndRun(brief.id);
    assert.equal(done.status, 'completed');
    assert.deepEqual([done.outcome, done.deliverables[0].connector, done.deliverables[0].note], ['brief', 'manual', undefined]);
    assert.ok(!wp.requests.slice(before).some((r) => r.path.startsWith('/wp-json')), 'no request to the WordPress API');
  });

  it('fails the task with WordPress\'s error when the write is refused, leaving the site unchanged', async () => {
    const repo = createTasksRepo(ctx.database.db);
    const id = (await repo.insertProposal({
      siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'medium', title: 't', description: 'd',
      target: `${wp.origin}/about/`, configuration: { after: 'A family garden shop in Kent that grows its own roses and perennials on four acres of beds.' },
      evidence: [{ check_id: 'meta_description_missing' }],
    }))!;
    wp.failNext(500, 'POST');
    const failed = await approveAndRun(id);
    assert.equal(failed.status, 'failed');
    assert.deepEqual(
      { status: failed.error.http_status, code: failed.error.wordpress_code, connector: failed.error.connector },
      { status: 500, code: 'internal_server_error', connector: 'wordpress' },
    );
    assert.match(failed.error.message, /WordPress answered 500/);
    assert.equal(wp.item('about')!.meta.sos_meta_description, '');
  });

  it('answers 502 when WordPress fails during a rollback, keeps the task completed and records the failure', async () => {
    const repo = createTasksRepo(ctx.database.db);
    const id = (await repo.insertProposal({
      siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'medium', title: 't', description: 'd',
      target: `${wp.origin}/about/`, configuration: { after: 'A family garden shop in Kent that grows its own roses and perennials on four acres of open beds.' },
      evidence: [{ check_id: 'meta_description_missing' }],
    }))!;
    assert.equal((await approveAndRun(id)).status, 'completed');
    wp.failNext(500, 'POST');
    const res = await api('POST', `/api/v1/tasks/${id}/rollback`);
    assert.equal(res.statusCode, 502);
    assert.match(res.data.detail, /The rollback failed; the task stays completed\./);
    const after = await detail(id);
    assert.deepEqual([after.status, after.rollback.status], ['completed', 'failed']);
    assert.equal((await api('POST', `/api/v1/tasks/${id}/rollback`)).statusCode, 200, 'a failed rollback can be retried');
    assert.equal(wp.item('about')!.meta.sos_meta_description, '');
  });

  it('shows the rollback history to the owner only', async () => {
    const mine = await api('GET', '/api/v1/cms/rollback/history?page_size=2');
    assert.equal(mine.statusCode, 200);
    assert.equal(mine.data.page_size, 2);
    assert.equal(mine.data.items.length, 2);
    assert.ok(mine.data.total >= 4);
    const theirs = await api('GET', '/api/v1/cms/rollback/history', other.accessToken);
    assert.deepEqual([theirs.data.total, theirs.data.items.length], [0, 0]);
    assert.equal((await api('GET', `/api/v1/cms/rollback/history?site_id=${siteId}`, other.accessToken)).statusCode, 404);
    assert.equal((await api('GET', '/api/v1/cms/rollback/history?page_size=101')).statusCode, 422);
    const task = tasks.get(`fix_missing_meta_description ${wp.origin}/about/`)!;
    assert.equal((await api('POST', `/api/v1/tasks/${task.id}/rollback`, other.accessToken)).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/cms/rollback/history' }, owner);
  });
});
