import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { VERIFY_JOB } from './executor.ts';
import { until } from '../../../test/helpers/wait.ts';
import { hostname } from 'node:os';
import { EXECUTOR_ACTOR } from '../../jobs/worker-instance.ts';

const DESCRIPTION = 'Tables cut from a single oak board in our Devon workshop, oiled by hand and ready in six weeks.';
let ctx: TestContext;
let owner: SignedInUser;
let other: SignedInUser;
let siteId: string;
let live = { description: null as string | null, brokenLink: true };
/** What /gone answers: 404 until a test publishes the page again (200) or moves it (a redirect to /tables). */
let gone: 'missing' | 'published' | 'moved' | 'home' = 'missing';
/** Whether /tables links to /home, the home page's other address (it redirects to /). */
let linkHome = false;
let site: Awaited<ReturnType<typeof startFixtureSite>>;

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [owner, other] = await Promise.all([signUp(ctx), signUp(ctx)]);
  site = await startFixtureSite({
    '/tables': () => ({
      body: page({ head: '', body: `<h1>Tables</h1>${live.brokenLink ? '<a href="/gone">Old</a>' : ''}${linkHome ? '<a href="/home">Home</a>' : ''}` }).replace(
        /<meta name="description"[^>]*>/,
        live.description ? `<meta name="description" content="${live.description}">` : '',
      ),
    }),
    '/gone': () => (gone === 'published' ? { body: page({ body: '<h1>Back</h1>' }) }
      : gone === 'missing' ? { status: 404 } : { status: 301, headers: { location: gone === 'moved' ? '/tables' : '/' } }),
    '/': { body: page({ body: '<h1>Home</h1>' }) },
    '/home': { status: 301, headers: { location: '/' } },
  });
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop', domain: site.host } })).data.id;
});
after(async () => {
  await ctx.close();
  await site.close();
});

const repo = () => createTasksRepo(ctx.database.db);
async function propose(type: string, configuration: Record<string, unknown>) {
  const id = await repo().insertProposal({
    siteId, type, category: 'seo', priority: 'high', title: 't', description: 'd', target: `${site.origin}/tables`,
    configuration: { url: `${site.origin}/tables`, ...configuration }, evidence: [{ check_id: 'x' }],
  });
  return id!;
}
const detail = async (id: string) => (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken })).data;
const verification = async (id: string, token = owner.accessToken) =>
  call(ctx, { method: 'GET', url: `/api/v1/verification/tasks/${id}/verification-status`, token });

describe('executing an approved task', () => {
  it('completes it with a precise deliverable, then verifies the live page until the change shows', async () => {
    live = { description: null, brokenLink: false };
    const id = await propose('fix_missing_meta_description', { field: 'meta_description', before: null, after: DESCRIPTION });
    assert.equal((await verification(id)).data.status, 'pending', 'nothing to check before execution');
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });

    const done = await until(() => detail(id), (t) => t.status === 'completed');
    assert.deepEqual(done.execution_history.map((e: { to: string }) => e.to), ['awaiting_approval', 'queued', 'in_progress', 'completed']);
    assert.equal(done.deliverables[0].connector, 'manual');
    assert.equal(done.deliverables[0].html, `<meta name="description" content="${DESCRIPTION}">`);
    assert.deepEqual([done.outcome, done.can_roll_back], ['site_change', false], 'the manual connector wrote nothing: nothing to roll back');

    // The change is not on the site yet: verification stays pending and will look again.
    const first = await until(() => verification(id), (v) => v.data.checked_at !== null);
    assert.equal(first.data.status, 'pending');
    assert.deepEqual(first.data.checks[0], { check: 'meta_description', expected: DESCRIPTION, actual: null, passed: false });

    live.description = DESCRIPTION; // someone applied the deliverable
    await ctx.app.jobs.send(VERIFY_JOB, { taskId: id, attempt: 2 });
    const verified = await until(() => verification(id), (v) => v.data.status !== 'pending');
    assert.equal(verified.data.status, 'verified');
    assert.equal((await detail(id)).verification.status, 'verified');
  });

  it('fails verification after the last attempt when the change never shows', async () => {
    live = { description: null, brokenLink: true };
    const id = await propose('fix_broken_links', { changes: [{ link_to: `${site.origin}/gone`, action: 'remove' }] });
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });
    await until(() => detail(id), (t) => t.status === 'completed');
    await ctx.app.jobs.send(VERIFY_JOB, { taskId: id, attempt: 6 });
    const failed = await until(() => verification(id), (v) => v.data.status === 'failed');
    assert.equal(failed.data.checks[0].check, 'broken_link_fixed');
    assert.equal(failed.data.checks[0].passed, false);
  });

  it('verifies a broken link that is kept once its page answers again (published, or moved with a redirect)', async () => {
    live = { description: null, brokenLink: true };
    gone = 'missing';
    const id = await propose('fix_broken_links', { changes: [{ link_to: `${site.origin}/gone`, action: 'publish it', page_expected: 'legal_page' }] });
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });
    await until(() => detail(id), (t) => t.status === 'completed');
    const pending = await until(() => verification(id), (v) => v.data.checked_at !== null);
    assert.equal(pending.data.status, 'pending', 'the link is there and still answers 404');
    assert.deepEqual(pending.data.checks[0], { check: 'broken_link_fixed', expected: 'the link removed, or its page answering 200', actual: `${site.origin}/gone answers 404`, passed: false });
    let checkedAt = pending.data.checked_at;
    // Redirected to the home page it is still missing (a soft 404); moved to its new address, or published again, it is fixed.
    for (const [state, attempt, status, actual] of [
      ['home', 2, 'pending', `${site.origin}/gone answers 200 at ${site.origin}/ (the home page: a soft 404, not the page)`],
      ['moved', 3, 'verified', `${site.origin}/gone answers 200 at ${site.origin}/tables`],
      ['published', 4, 'verified', `${site.origin}/gone answers 200`],
    ] as const) {
      gone = state;
      await ctx.app.jobs.send(VERIFY_JOB, { taskId: id, attempt });
      const read = await until(() => verification(id), (v) => v.data.checked_at !== checkedAt);
      checkedAt = read.data.checked_at;
      assert.equal(read.data.status, status, state);
      assert.equal(read.data.checks[0].actual, actual);
    }
    gone = 'missing';
  });

  it('verifies a kept link to the home page\'s other address that redirects to it (not a soft 404)', async () => {
    live = { description: null, brokenLink: false };
    linkHome = true;
    const id = await propose('fix_broken_links', { changes: [{ link_to: `${site.origin}/home`, action: 'keep it', page_expected: 'shop_system_page' }] });
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });
    await until(() => detail(id), (t) => t.status === 'completed');
    const read = await until(() => verification(id), (v) => v.data.checked_at !== null);
    linkHome = false;
    assert.deepEqual([read.data.status, read.data.checks[0].actual], ['verified', `${site.origin}/home answers 200 at ${site.origin}/`]);
  });

  it('fails a task whose worker died mid-execution instead of running it twice', async () => {
    const id = await propose('fix_title_tag', { field: 'title', before: 'Hi', after: 'Oak tables | Shop of the test' });
    await ctx.database.db.updateTable('tasks').set({ status: 'in_progress' }).where('id', '=', id).execute();
    await ctx.app.jobs.send('task.execute', { taskId: id });
    const failed = await until(() => detail(id), (t) => t.status === 'failed');
    assert.match(failed.error.message, /stopped while executing/);
    assert.equal((await verification(id)).data.status, 'not_applicable');
  });
});

describe('rollback', () => {
  it('answers 409 for a task carried out by hand, 409 for one not completed, 404 for another user', async () => {
    live = { description: null, brokenLink: false };
    const id = await propose('fix_title_tag', { field: 'title', before: 'Hi', after: 'Oak chairs | Shop of the test' });
    const early = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/rollback`, token: owner.accessToken });
    assert.equal(early.statusCode, 409);
    assert.match(early.data.detail, /awaiting_approval/);
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken });
    await until(() => detail(id), (t) => t.status === 'completed');
    const manual = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/rollback`, token: owner.accessToken });
    assert.equal(manual.statusCode, 409);
    assert.match(manual.data.detail, /changed nothing the service can restore/);
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/rollback`, token: other.accessToken })).statusCode, 404);
    assert.equal((await verification(id, other.accessToken)).statusCode, 404);
    assert.equal((await verification(randomUUID())).statusCode, 404);
  });
});

describe('several workers', () => {
  it('never run one task twice', async (t) => {
    live = { description: null, brokenLink: false };
    // A second instance working jobs from the same database.
    const second = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { database: ctx.database });
    t.after(() => second.close());
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = await repo().insertProposal({
        siteId, type: 'fix_title_tag', category: 'seo', priority: 'high', title: 't', description: 'd',
        target: `${site.origin}/tables?variant=${i}`, configuration: { url: `${site.origin}/tables`, after: `Oak tables number ${i} | The shop` },
        evidence: [{ check_id: 'x' }],
      });
      ids.push(id!);
    }
    await Promise.all(ids.map((id) => call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken })));
    for (const id of ids) {
      const task = await until(() => detail(id), (d) => d.status === 'completed' || d.status === 'failed');
      assert.equal(task.status, 'completed');
      assert.equal(task.execution_history.filter((e: { to: string }) => e.to === 'in_progress').length, 1, `task ${id} ran once`);
      assert.equal(task.deliverables.length, 1);
    }
  });
});

describe('completing an executed task', () => {
  it('schedules its verification in the same transaction: if that send fails, the task is not left completed and unverified', async (t) => {
    live = { description: null, brokenLink: false };
    const id = await propose('fix_missing_meta_description', { field: 'meta_description', before: null, after: DESCRIPTION });
    const send = ctx.app.jobs.send;
    t.after(() => void (ctx.app.jobs.send = send));
    ctx.app.jobs.send = (async (name: string, ...rest: unknown[]) => {
      if (name === VERIFY_JOB) throw new Error('the job queue is unavailable');
      return (send as (...args: unknown[]) => Promise<unknown>)(name, ...rest);
    }) as typeof send;
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken })).statusCode, 200);
    const failed = await until(() => detail(id), (task) => task.status === 'failed' || task.status === 'completed');
    assert.equal(failed.status, 'failed', 'never completed without a verification to follow');
    assert.equal(failed.error.message, 'The change was made on the site, but its completion could not be recorded: check the page; what was changed is listed in the deliverables.');
    assert.equal(failed.error.retryable, false, 'the site changed: not to be run again as it is');
    assert.equal(failed.deliverables[0].html, `<meta name="description" content="${DESCRIPTION}">`, 'what was changed is kept');
    // Its whole history (found in review: a failed task's page showed only its proposal): approved by whom, run, failed and why.
    const history = failed.execution_history as Array<{ to: string; actor: string; detail: { message?: string } | null }>;
    assert.deepEqual(history.map((e) => [e.to, e.actor]), [
      ['awaiting_approval', 'agent:strategy'], ['queued', `user:${owner.id}`], ['in_progress', EXECUTOR_ACTOR], ['failed', EXECUTOR_ACTOR],
    ]);
    // The process that ran it (issue 24): this one, by host and pid.
    assert.equal(EXECUTOR_ACTOR, `worker:executor@${hostname()}:${process.pid}`);
    assert.match(history.at(-1)!.detail?.message ?? '', /completion could not be recorded/, 'the failure\'s reason is in its history');
    const jobs = await ctx.app.jobs.findJobs(VERIFY_JOB);
    assert.ok(!jobs.some((job) => (job.data as { taskId?: string }).taskId === id));
  });
});
