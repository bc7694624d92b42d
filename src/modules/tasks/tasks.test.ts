import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import type { TaskCategory, TaskPriority } from '../../db/types.ts';
import { createTasksRepo } from './tasks.repo.ts';

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let repo: ReturnType<typeof createTasksRepo>;

before(async () => {
  // No job workers: approved tasks stay queued (these tests are about the lifecycle up to
  // approval; execution is tested against a local site in execution.test.ts).
  ctx = await startTestApp({}, { workJobs: false });
  [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
  repo = createTasksRepo(ctx.database.db);
});
after(() => ctx.close());

let n = 0;
async function site(user: SignedInUser) {
  const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'S', domain: `tasks-${++n}-${Date.now()}.com` } });
  return res.data.id as string;
}

/** What the strategy agent does once a proposal has passed its gates. */
async function propose(siteId: string, options: { priority?: TaskPriority; category?: TaskCategory; type?: string; target?: string; clicks?: number } = {}) {
  const id = await repo.insertProposal({
    siteId,
    type: options.type ?? 'fix_missing_meta_description',
    category: options.category ?? 'seo',
    priority: options.priority ?? 'high',
    title: 'Add a meta description',
    description: 'The page has no meta description.',
    target: options.target ?? `https://example.com/${++n}`,
    configuration: { before: null, after: 'A description.' },
    evidence: [{ check_id: 'meta_description_missing', url: 'https://example.com/' }],
    ...(options.clicks === undefined ? {} : { expectedClicks: { clicks: options.clicks, low: 0, high: options.clicks * 2, basis: 'page_clicks', method: 'm' } }),
  });
  assert.ok(id, 'proposal stored');
  return id;
}

const get = (user: SignedInUser, url: string) => call(ctx, { method: 'GET', url, token: user.accessToken });
const post = (user: SignedInUser, url: string) => call(ctx, { method: 'POST', url, token: user.accessToken });

describe('GET /api/v1/tasks', () => {
  it("lists the caller's tasks newest first, filtered and paged", async () => {
    const carol = await signUp(ctx);
    const [s1, s2] = [await site(carol), await site(carol)];
    const t1 = await propose(s1, { category: 'seo' });
    const t2 = await propose(s1, { category: 'content' });
    const t3 = await propose(s2, { category: 'seo' });
    await propose(await site(bob));

    const all = await get(carol, '/api/v1/tasks');
    assert.equal(all.statusCode, 200);
    assert.deepEqual(all.data.items.map((t: { id: string }) => t.id), [t3, t2, t1]);
    assert.equal(all.data.total, 3);
    assert.equal(all.data.page, 1);
    assert.equal(all.data.page_size, 20);
    assert.deepEqual(Object.keys(all.data.items[0]).sort(), ['created_at', 'description', 'expected_clicks', 'id', 'priority', 'site_id', 'status', 'title', 'type']);

    assert.deepEqual((await get(carol, `/api/v1/tasks?site_id=${s1}`)).data.items.map((t: { id: string }) => t.id), [t2, t1]);
    assert.deepEqual((await get(carol, '/api/v1/tasks?category=content')).data.items.map((t: { id: string }) => t.id), [t2]);
    const paged = await get(carol, '/api/v1/tasks?page=2&page_size=2');
    assert.deepEqual(paged.data.items.map((t: { id: string }) => t.id), [t1]);
    assert.equal(paged.data.total, 3);

    await post(carol, `/api/v1/tasks/${t1}/cancel`);
    assert.deepEqual((await get(carol, '/api/v1/tasks?status=cancelled')).data.items.map((t: { id: string }) => t.id), [t1]);
  });

  it("narrows both lists to one workspace's sites (404 for a workspace the caller is not in)", async () => {
    const dana = await signUp(ctx);
    const agency = (await call(ctx, { method: 'POST', url: '/api/v1/workspaces', token: dana.accessToken, payload: { name: 'Client' } })).data.id as string;
    const own = await site(dana);
    const client = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: dana.accessToken, payload: { name: 'C', domain: `client-${Date.now()}.com`, workspace_id: agency } })).data.id as string;
    const [mine, theirs] = [await propose(own), await propose(client)];
    assert.deepEqual((await get(dana, '/api/v1/tasks')).data.items.map((t: { id: string }) => t.id).sort(), [mine, theirs].sort());
    assert.deepEqual((await get(dana, `/api/v1/tasks?workspace_id=${agency}`)).data.items.map((t: { id: string }) => t.id), [theirs]);
    assert.deepEqual((await get(dana, `/api/v1/tasks/awaiting-approval?workspace_id=${agency}`)).data.items.map((t: { id: string }) => t.id), [theirs]);
    assert.equal((await get(bob, `/api/v1/tasks?workspace_id=${agency}`)).statusCode, 404, "another's workspace");
    assert.equal((await get(bob, `/api/v1/tasks/awaiting-approval?workspace_id=${agency}`)).statusCode, 404);
    assert.equal((await get(dana, '/api/v1/tasks?workspace_id=nope')).statusCode, 422);
  });

  it("answers 404 for another user's site_id and 422 for bad filters and paging", async () => {
    assert.equal((await get(alice, `/api/v1/tasks?site_id=${await site(bob)}`)).statusCode, 404);
    for (const q of ['page=0', 'page_size=101', 'status=pending', 'category=fun', 'site_id=x', 'colour=red']) {
      assert.equal((await get(alice, `/api/v1/tasks?${q}`)).statusCode, 422, q);
    }
  });
});

describe('GET /api/v1/tasks/export', () => {
  it('gives every task the filters select as CSV, newest first, with its history in words and who moved it', async () => {
    const erin = await signUp(ctx);
    const s1 = await site(erin);
    const first = await propose(s1, { target: 'https://example.com/=cmd', clicks: 12 });
    const second = await propose(s1);
    await call(ctx, { method: 'POST', url: `/api/v1/tasks/${first}/cancel`, token: erin.accessToken, payload: { reason: 'Not now' } });
    await propose(await site(bob));

    const res = await get(erin, `/api/v1/tasks/export?site_id=${s1}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="tasks-\d+-\d+\.com-tasks\.csv"$/);
    const text = res.rawPayload.subarray(3).toString('utf8');
    const [heading] = text.split('\n');
    assert.equal(heading, 'id,site,type,category,title,target,status,priority,expected_clicks_28d,created_at,updated_at,history');
    const rows = text.split('\n').slice(1).filter((l) => /^[0-9a-f-]{36},/.test(l));
    assert.deepEqual(rows.map((r) => r.slice(0, 36)), [second, first], 'newest first, only this site\'s');
    assert.match(text, new RegExp(`${first},tasks-[^,]+,fix_missing_meta_description,seo,Add a meta description,https://example.com/=cmd,cancelled,high,12,`));
    assert.match(text, /awaiting_approval by agent:strategy\n\S+ awaiting_approval → cancelled by [^ ]+@[^ ]+ \(reason: Not now\)"/, 'each move on its own line, a user by e-mail');

    const cancelled = await get(erin, '/api/v1/tasks/export?status=cancelled');
    assert.equal(cancelled.rawPayload.subarray(3).toString('utf8').split('\n').filter((l) => /^[0-9a-f-]{36},/.test(l)).length, 1);
    assert.match(String(cancelled.headers['content-disposition']), /"all-sites-tasks-cancelled\.csv"$/);
    assert.equal((await get(bob, `/api/v1/tasks/export?site_id=${s1}`)).statusCode, 404, "another user's site");
    for (const q of ['page=2', 'status=pending', 'site_id=x']) assert.equal((await get(erin, `/api/v1/tasks/export?${q}`)).statusCode, 422, q);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: '/api/v1/tasks/export' }, erin);

    // Each export reads a whole set: 30 a minute per member, then 429 with when to try again (the list itself is not limited so).
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 31 && !limited; i++) {
      const res = await get(erin, '/api/v1/tasks/export?status=cancelled');
      if (res.statusCode === 429) limited = res;
    }
    assert.ok(limited, 'refused within 31 exports');
    assert.match(String(limited.headers['content-type']), /application\/problem\+json/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await get(erin, '/api/v1/tasks')).statusCode, 200);
  });
});

describe('GET /api/v1/tasks/awaiting-approval', () => {
  it('lists only tasks awaiting approval, by priority then age', async () => {
    const dave = await signUp(ctx);
    const s = await site(dave);
    const low = await propose(s, { priority: 'low' });
    const critical = await propose(s, { priority: 'critical' });
    const highOld = await propose(s, { priority: 'high' });
    const highNew = await propose(s, { priority: 'high' });
    const approved = await propose(s, { priority: 'critical' });
    await post(dave, `/api/v1/tasks/${approved}/approve`);
    const res = await get(dave, '/api/v1/tasks/awaiting-approval');
    assert.deepEqual(res.data.items.map((t: { id: string }) => t.id), [critical, highOld, highNew, low]);
    assert.equal(res.data.total, 4);
  });

  it('lists them by expected clicks when asked (critical first, then most clicks, tasks without an estimate last), and refuses another order with 422', async () => {
    const frank = await signUp(ctx);
    const s = await site(frank);
    const critical = await propose(s, { priority: 'critical' });
    const none = await propose(s, { priority: 'high' });
    const few = await propose(s, { priority: 'high', clicks: 5 });
    const many = await propose(s, { priority: 'low', clicks: 500 });
    const some = await propose(s, { priority: 'medium', clicks: 40 });
    const res = await get(frank, '/api/v1/tasks/awaiting-approval?order=expected_clicks');
    assert.deepEqual(res.data.items.map((t: { id: string }) => t.id), [critical, many, some, few, none]);
    assert.deepEqual(res.data.items[1].expected_clicks, { clicks: 500, low: 0, high: 1000, basis: 'page_clicks', method: 'm' });
    assert.equal(res.data.items[4].expected_clicks, null);
    assert.deepEqual((await get(frank, '/api/v1/tasks/awaiting-approval')).data.items.map((t: { id: string }) => t.id), [critical, none, few, some, many], 'the default stays the contract\'s');
    assert.equal((await get(frank, '/api/v1/tasks/awaiting-approval?order=newest')).statusCode, 422);
  });

  it('filters by type, priority and category across pages (before paging), and refuses unknown values with 422', async () => {
    const erin = await signUp(ctx);
    const s = await site(erin);
    const titles = [await propose(s, { type: 'fix_title_tag', priority: 'medium' }), await propose(s, { type: 'fix_title_tag', priority: 'low' })];
    for (let i = 0; i < 3; i++) await propose(s, { priority: 'high' });
    const content = await propose(s, { type: 'expand_thin_content', category: 'content', priority: 'low' });
    const firstPage = await get(erin, '/api/v1/tasks/awaiting-approval?type=fix_title_tag&page_size=1');
    assert.deepEqual([firstPage.data.items.map((t: { id: string }) => t.id), firstPage.data.total], [[titles[0]], 2], 'the filter counts every page, not the loaded one');
    const second = await get(erin, '/api/v1/tasks/awaiting-approval?type=fix_title_tag&page_size=1&page=2');
    assert.deepEqual(second.data.items.map((t: { id: string }) => t.id), [titles[1]]);
    assert.equal((await get(erin, '/api/v1/tasks/awaiting-approval?priority=high')).data.total, 3);
    assert.deepEqual((await get(erin, '/api/v1/tasks/awaiting-approval?priority=low&category=content')).data.items.map((t: { id: string }) => t.id), [content]);
    assert.deepEqual((await get(erin, `/api/v1/tasks?site_id=${s}&type=expand_thin_content`)).data.items.map((t: { id: string }) => t.id), [content]);
    for (const q of ['type=fix_everything', 'priority=urgent', 'category=fun']) {
      assert.equal((await get(erin, `/api/v1/tasks/awaiting-approval?${q}`)).statusCode, 422, q);
    }
    assert.equal((await get(erin, `/api/v1/tasks/awaiting-approval?site_id=${await site(bob)}&type=fix_title_tag`)).statusCode, 404, "another user's site");
  });
});

describe('GET /api/v1/tasks/{task_id}', () => {
  it('returns the full task with configuration, evidence and history', async () => {
    const task = await propose(await site(alice));
    const res = await get(alice, `/api/v1/tasks/${task}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.category, 'seo');
    assert.deepEqual(res.data.configuration, { before: null, after: 'A description.' });
    assert.equal(res.data.evidence[0].check_id, 'meta_description_missing');
    assert.deepEqual(res.data.deliverables, []);
    assert.deepEqual(res.data.execution_history.map((e: { to: string; actor: string }) => [e.to, e.actor]), [['awaiting_approval', 'agent:strategy']]);
  });

  it("answers 404 for another user's task and 422 for a bad id", async () => {
    const task = await propose(await site(bob));
    assert.equal((await get(alice, `/api/v1/tasks/${task}`)).statusCode, 404);
    assert.equal((await get(alice, '/api/v1/tasks/nope')).statusCode, 422);
  });
});

describe('approve and cancel', () => {
  it('move a task through its lifecycle and refuse what its status forbids with 409', async () => {
    const task = await propose(await site(alice));
    const approved = await post(alice, `/api/v1/tasks/${task}/approve`);
    assert.equal(approved.statusCode, 200);
    assert.deepEqual(approved.data, { id: task, status: 'queued', message: 'Task approved and queued for execution' });

    const again = await post(alice, `/api/v1/tasks/${task}/approve`);
    assert.equal(again.statusCode, 409);
    assert.match(again.data.detail, /is queued/);

    const cancelled = await post(alice, `/api/v1/tasks/${task}/cancel`);
    assert.deepEqual(cancelled.data, { id: task, status: 'cancelled', message: 'Task cancelled' });
    const cancelAgain = await post(alice, `/api/v1/tasks/${task}/cancel`);
    assert.equal(cancelAgain.statusCode, 409);
    assert.match(cancelAgain.data.detail, /is cancelled/);

    const history = (await get(alice, `/api/v1/tasks/${task}`)).data.execution_history;
    assert.deepEqual(history.map((e: { from: string | null; to: string }) => [e.from, e.to]), [
      [null, 'awaiting_approval'], ['awaiting_approval', 'queued'], ['queued', 'cancelled'],
    ]);
    assert.equal(history[1].actor, `user:${alice.id}`);
  });

  it('keep the reason a proposal is rejected for in its history, and refuse a reason too long or unknown fields with 422', async () => {
    const task = await propose(await site(alice));
    const tooLong = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${task}/cancel`, token: alice.accessToken, payload: { reason: 'x'.repeat(501) } });
    assert.equal(tooLong.statusCode, 422);
    const unknown = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${task}/cancel`, token: alice.accessToken, payload: { why: 'no' } });
    assert.equal(unknown.statusCode, 422);
    const rejected = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${task}/cancel`, token: alice.accessToken, payload: { reason: '  We sell no hydrangeas any more  ' } });
    assert.equal(rejected.statusCode, 200);
    const history = (await get(alice, `/api/v1/tasks/${task}`)).data.execution_history;
    assert.deepEqual([history.at(-1).to, history.at(-1).detail], ['cancelled', { reason: 'We sell no hydrangeas any more' }]);
  });

  it('run a failed task again only when no open task took one of its fields meanwhile (409 naming it)', async () => {
    const s = await site(alice);
    const claim = [`https://example.com/claimed-${n}#title`];
    const failed = (await repo.insertProposal({
      siteId: s, type: 'fix_title_tag', category: 'seo', priority: 'low', title: 'First title fix', description: 'd', target: 'https://example.com/claimed',
      configuration: { after: 'A title of twenty characters' }, evidence: [{ check_id: 'title_too_short' }], claims: claim,
    }))!;
    await ctx.database.db.updateTable('tasks').set({ status: 'failed', error: JSON.stringify({ message: 'down', retryable: true }) }).where('id', '=', failed).execute();
    // While it was failed (not open), another proposal took the same field.
    const other = await repo.insertProposal({
      siteId: s, type: 'prioritize_quick_wins', category: 'strategy', priority: 'low', title: 'Put "x" in the title', description: 'd', target: 'https://example.com/claimed',
      configuration: { after: 'X: a title of twenty characters' }, evidence: [{ source: 'search_console' }], claims: claim,
    });
    assert.ok(other, 'a failed task claims nothing open');
    const retried = await post(alice, `/api/v1/tasks/${failed}/retry`);
    assert.equal(retried.statusCode, 409);
    assert.match(retried.data.detail, /The open task "Put "x" in the title" now changes the same field of this page/);
    await post(alice, `/api/v1/tasks/${other}/cancel`);
    assert.equal((await post(alice, `/api/v1/tasks/${failed}/retry`)).statusCode, 200, 'once that one is closed');
  });

  it('store one of two proposals that claim one field at once, whichever wins the site\'s lock', async () => {
    const s = await site(alice);
    const claim = [`https://example.com/race-${n}#meta_description`];
    const results = await Promise.all(['a', 'b'].map((suffix) => repo.insertProposal({
      siteId: s, type: suffix === 'a' ? 'fix_missing_meta_description' : 'fix_duplicate_meta_description', category: 'seo', priority: 'low', title: suffix,
      description: 'd', target: `https://example.com/race-${suffix}`, configuration: {}, evidence: [{ check_id: 'x' }], claims: claim,
    })));
    assert.equal(results.filter(Boolean).length, 1);
  });

  it('give exactly one winner among concurrent approvals, with one transition in the history', async () => {
    const task = await propose(await site(alice));
    const results = await Promise.all(Array.from({ length: 5 }, () => post(alice, `/api/v1/tasks/${task}/approve`)));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409, 409, 409, 409]);
    const history = (await get(alice, `/api/v1/tasks/${task}`)).data.execution_history;
    assert.equal(history.filter((e: { to: string }) => e.to === 'queued').length, 1);
  });

  it('give exactly one winner when an approval and a cancellation race', async () => {
    const task = await propose(await site(alice));
    const [a, c] = await Promise.all([post(alice, `/api/v1/tasks/${task}/approve`), post(alice, `/api/v1/tasks/${task}/cancel`)]);
    const final = (await get(alice, `/api/v1/tasks/${task}`)).data.status;
    // Either order is legal: approve then cancel (both 200), or cancel first (approve 409).
    if (a.statusCode === 200) assert.equal(final, c.statusCode === 200 ? 'cancelled' : 'queued');
    else assert.equal(final, 'cancelled');
    assert.equal(c.statusCode, 200, 'cancel is allowed from both awaiting_approval and queued');
  });

  it('approve and queue its execution together: a send that fails is 503, and the task is still awaiting approval', async (t) => {
    const task = await propose(await site(alice));
    const send = ctx.app.jobs.send;
    t.after(() => void (ctx.app.jobs.send = send));
    ctx.app.jobs.send = async () => { throw new Error('the job queue is unavailable'); };
    const refused = await post(alice, `/api/v1/tasks/${task}/approve`);
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '5');
    assert.match(refused.data.detail, /could not be queued, so nothing was changed/);
    const unchanged = (await get(alice, `/api/v1/tasks/${task}`)).data;
    assert.equal(unchanged.status, 'awaiting_approval');
    assert.deepEqual(unchanged.execution_history.map((e: { to: string }) => e.to), ['awaiting_approval'], 'the transition rolled back with the send');

    ctx.app.jobs.send = send;
    assert.equal((await post(alice, `/api/v1/tasks/${task}/approve`)).statusCode, 200, 'approved once the queue answers');
    const jobs = await ctx.app.jobs.findJobs('task.execute');
    assert.equal(jobs.filter((job) => (job.data as { taskId?: string }).taskId === task).length, 1, 'one execution job');
  });

  it("answer 404 for another user's task and leave it unchanged", async () => {
    const task = await propose(await site(bob));
    assert.equal((await post(alice, `/api/v1/tasks/${task}/approve`)).statusCode, 404);
    assert.equal((await post(alice, `/api/v1/tasks/${task}/cancel`)).statusCode, 404);
    assert.equal((await get(bob, `/api/v1/tasks/${task}`)).data.status, 'awaiting_approval');
    assert.equal((await post(alice, `/api/v1/tasks/${randomUUID()}/approve`)).statusCode, 404);
  });
});

describe('the no-duplicate gate', () => {
  it('refuses a second open task of one type for one target, and allows it once the first is closed', async () => {
    const s = await site(alice);
    const first = await propose(s, { target: 'https://example.com/dup' });
    const duplicate = await repo.insertProposal({
      siteId: s, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 't', description: 'd',
      target: 'https://example.com/dup', configuration: {}, evidence: [],
    });
    assert.equal(duplicate, undefined);
    await post(alice, `/api/v1/tasks/${first}/cancel`);
    assert.ok(await propose(s, { target: 'https://example.com/dup' }));
  });
});

describe('site progress', () => {
  it('counts the tasks by status', async () => {
    const s = await site(alice);
    const a = await propose(s);
    await propose(s);
    await post(alice, `/api/v1/tasks/${a}/approve`);
    const progress = await get(alice, `/api/v1/sites/${s}/progress`);
    assert.equal(progress.data.tasks.awaiting_approval, 1);
    assert.equal(progress.data.tasks.queued, 1);
    assert.equal(progress.data.tasks.total, 2);
  });
});

describe('authentication', () => {
  it('is required by every task endpoint', async () => {
    const id = randomUUID();
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/tasks' }, { method: 'GET' as const, url: '/api/v1/tasks/awaiting-approval' },
      { method: 'GET' as const, url: `/api/v1/tasks/${id}` }, { method: 'POST' as const, url: `/api/v1/tasks/${id}/approve` },
      { method: 'POST' as const, url: `/api/v1/tasks/${id}/cancel` },
    ]) await assertRejectsBadTokens(ctx, request, alice);
  });
});
