import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/wait.ts';
import { startWordPressServer, type WordPressServer } from '../demo/wordpress-stand-in.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { createExecutor } from '../execution/executor.ts';
import type { SiteConnector } from './connector.types.ts';
import { sql } from 'kysely';

/**
 * One problem on many pages is one task (configuration.pages): carried out page by page
 * through WordPress, verified on every page, rolled back whole or not at all, and a page
 * that fails puts back the pages changed before it.
 */
const SLUGS = ['roses', 'tulips', 'hedges', 'ferns', 'herbs', 'bulbs'];
/** Pages of the task whose execution stops mid-way and is resumed. */
const RESUMED = ['lilies', 'peonies', 'irises', 'dahlias'];
/** Pages of the task whose rollback fails mid-way and is retried. */
const HALF_RESTORED = ['asters', 'phlox', 'sedums'];
/** Pages of the tasks an attempt presumed dead wakes up in. */
const FENCED = ['crocus', 'snowdrops', 'aconites'];
const FENCED_FAILING = ['heathers', 'hostas', 'sedges'];
/** Pages of the title task resumed after a page written but not recorded. */
const RETITLED = ['violets', 'primulas', 'anemones'];
/** Pages of the task that fails on its last page after an editor changed its first. */
const NOT_UNDONE = ['yarrows', 'thistles', 'sorrels'];
/** Pages of the task whose every attempt died. */
const ABANDONED = ['mosses', 'lichens'];
const titleOf = (slug: string) => `How to grow ${slug} in a Kent garden \u2013 Garden Shop`;
const draft = (slug: string) => `How we grow ${slug} on four acres in Kent: where to plant them, what they need through the year and the mistakes to avoid.`;

let ctx: TestContext;
let owner: SignedInUser;
let wp: WordPressServer;
let siteId: string;

const api = (method: 'GET' | 'POST', url: string) => call(ctx, { method, url, token: owner.accessToken });
const detail = async (id: string) => (await api('GET', `/api/v1/tasks/${id}`)).data;
const described = (slug: string) => wp.item(slug)!.meta.sos_meta_description;

async function groupedTask(slugs: string[], field: 'meta_description' | 'title' = 'meta_description') {
  const [type, check] = field === 'title' ? ['fix_title_tag', 'title_too_short'] : ['fix_missing_meta_description', 'meta_description_missing'];
  return (await createTasksRepo(ctx.database.db).insertProposal({
    siteId, type, category: 'seo', priority: 'medium', title: `Fix ${slugs.length} pages`, description: 'd',
    target: `${wp.origin}/${slugs[0]}/`,
    configuration: {
      pages: slugs.map((slug) => ({
        url: `${wp.origin}/${slug}/`, field,
        ...(field === 'title' ? { before: `Growing ${slug} \u2013 Garden Shop`, after: titleOf(slug) } : { before: null, after: draft(slug) }),
      })),
      group: { checks: [check], pages: slugs.length },
    },
    evidence: slugs.map((slug) => ({ check_id: check, url: `${wp.origin}/${slug}/` })),
  }))!;
}
async function run(id: string) {
  assert.equal((await api('POST', `/api/v1/tasks/${id}/approve`)).statusCode, 200);
  return until(() => detail(id), (t) => t.status === 'completed' || t.status === 'failed', 'execution');
}

/**
 * An attempt at task `id` whose connector stops (as a dead or stalled worker) before its page
 * number `at`, or just after writing it, until released; then goes on, or fails that page.
 * progressEveryMs 1e9: it never records its progress, so another attempt finds its lease stale.
 */
function stalling(id: string, at: number, options: { afterWriting?: boolean; failOnRelease?: boolean; progressEveryMs?: number } = {}) {
  const { tasks, connectors } = ctx.app.services;
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  let reached!: () => void;
  const reachedIt = new Promise<void>((resolve) => { reached = resolve; });
  const executor = createExecutor({
    tasks, log: ctx.app.log, progressEveryMs: options.progressEveryMs ?? 0,
    connectors: {
      async forSite(siteId: string) {
        const real = await connectors.forSite(siteId);
        let calls = 0;
        return { ...real, async apply(task, applyOptions) {
          const stop = ++calls === at;
          const written = stop && options.afterWriting ? await real.apply(task, applyOptions) : undefined;
          if (stop) {
            reached();
            await held;
            if (options.failOnRelease) throw new Error('the site stopped answering');
          }
          return written ?? real.apply(task, applyOptions);
        } } satisfies SiteConnector;
      },
    },
  });
  return { run: executor.runTask(id), reached: reachedIt, release };
}

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' }, { workJobs: true });
  owner = await signUp(ctx);
  wp = await startWordPressServer({ items: [...SLUGS, ...RESUMED, ...HALF_RESTORED, ...FENCED, ...FENCED_FAILING, ...RETITLED, ...NOT_UNDONE, ...ABANDONED].map((slug) => ({ type: 'page' as const, slug, title: `Growing ${slug}`, content: `<p>${slug}</p>` })) });
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Garden', domain: wp.host } })).data.id;
  const connector = await call(ctx, {
    method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken,
    payload: { type: 'wordpress', base_url: wp.origin, username: wp.username, application_password: wp.applicationPassword },
  });
  assert.equal(connector.statusCode, 200);
});
after(async () => {
  await ctx.close();
  await wp.close();
});

describe('a task covering several pages', () => {
  it('is carried out and verified page by page, and rolled back whole or not at all', async () => {
    const slugs = SLUGS.slice(0, 3);
    const id = await groupedTask(slugs);
    const done = await run(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.deepEqual(done.deliverables.map((d: { url: string }) => d.url), slugs.map((s) => `${wp.origin}/${s}/`));
    for (const slug of slugs) assert.equal(described(slug), draft(slug));
    const verification = await until(async () => (await detail(id)).verification, (v) => v?.status === 'verified', 'verification');
    assert.deepEqual(verification.checks.map((c: { url: string; passed: boolean }) => [c.url, c.passed]), slugs.map((s) => [`${wp.origin}/${s}/`, true]));

    // An editor rewrote one page since: the rollback restores none of them.
    wp.edit('tulips', { meta: { sos_meta_description: 'Written by hand after the task ran, and kept.' } });
    const refused = await api('POST', `/api/v1/tasks/${id}/rollback`);
    assert.equal(refused.statusCode, 409);
    assert.match(refused.data.detail, /1 of the 3 pages changed .*tulips.*nothing was restored/);
    assert.equal(described('roses'), draft('roses'), 'the other pages keep the change');
    assert.equal((await detail(id)).status, 'completed');

    const forced = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/rollback?force=true`, token: owner.accessToken });
    assert.equal(forced.statusCode, 200, forced.body);
    for (const slug of slugs) assert.equal(described(slug), '', `${slug} restored`);
    assert.equal((await detail(id)).status, 'rolled_back');
  });

  it('puts back the pages it changed when a later page fails, and says which page failed', async () => {
    const slugs = SLUGS.slice(3);
    const id = await groupedTask(slugs);
    wp.failNext(500, 'POST', `/wp/v2/pages/${wp.item('herbs')!.id}`);
    assert.equal((await run(id)).status, 'failed');
    // Failed first (under the attempt's lease), then the pages are put back and the error says so.
    const done = await until(() => detail(id), (t) => !/putting back/.test(t.error?.message ?? ''), 'the pages put back');
    assert.match(done.error.message, new RegExp(`page 2 of 3 \\(${wp.origin}/herbs/\\) failed: .*the 1 page\\(s\\) changed before it were put back`));
    assert.deepEqual(done.deliverables, [], 'no page is still changed');
    for (const slug of slugs) assert.equal(described(slug), '', `${slug} is as it was`);
    assert.equal(done.error.retryable, true, 'the site is as it was: the task may simply run again');
    assert.equal(done.can_retry, true);

    // Its owner runs it again: a new attempt, after the failed one, in its history; no one else may.
    const stranger = await signUp(ctx);
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/retry`, token: stranger.accessToken })).statusCode, 404);
    const retried = await api('POST', `/api/v1/tasks/${id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.deepEqual(retried.data, { id, status: 'queued', message: 'Task queued again for a new attempt' });
    const second = await until(() => detail(id), (t) => t.status === 'completed' || t.status === 'failed', 'the second attempt');
    assert.equal(second.status, 'completed');
    assert.equal(second.error, null, "the first attempt's error is cleared");
    assert.deepEqual([second.outcome, second.can_roll_back, second.can_retry], ['site_change', true, false], 'written through WordPress: it can be put back');
    for (const slug of slugs) assert.equal(described(slug), draft(slug), `${slug} written by the second attempt`);
    assert.deepEqual(second.execution_history.map((e: { from: string | null; to: string }) => `${e.from}->${e.to}`), [
      'null->awaiting_approval', 'awaiting_approval->queued', 'queued->in_progress', 'in_progress->failed',
      'failed->queued', 'queued->in_progress', 'in_progress->completed',
    ]);
    assert.equal(second.execution_history[4].actor, `user:${owner.id}`);
    const again = await api('POST', `/api/v1/tasks/${id}/retry`);
    assert.equal(again.statusCode, 409);
    assert.match(again.data.detail, /The task is completed \(completed\); it can be tried again only while failed/);
  });

  it('says which pages it could not put back when a later page fails, and keeps them as its deliverables', async () => {
    const id = await groupedTask(NOT_UNDONE);
    await sql`update tasks set status = 'queued' where id = ${id}`.execute(ctx.database.db);
    const attempt = stalling(id, 3);
    await attempt.reached;
    // An editor rewrites the first page meanwhile, and the last page's write fails.
    wp.edit('yarrows', { meta: { sos_meta_description: 'Rewritten by hand while the task ran.' } });
    wp.failNext(500, 'POST', `/wp/v2/pages/${wp.item('sorrels')!.id}`);
    attempt.release();
    await attempt.run;
    const failed = await detail(id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error.message, new RegExp(`page 3 of 3 .* failed: .*; 1 page\\(s\\) changed before it could not be put back: ${wp.origin}/yarrows/$`));
    assert.deepEqual(failed.deliverables.map((d: { url: string }) => d.url), [`${wp.origin}/yarrows/`], 'the page still changed on the site');
    assert.equal(described('yarrows'), 'Rewritten by hand while the task ran.', 'the editor\'s text is not overwritten');
    assert.equal(described('thistles'), '', 'the page nobody touched is put back');
    assert.equal(failed.error.retryable, false);
    assert.equal(failed.can_retry, false);
    const retried = await api('POST', `/api/v1/tasks/${id}/retry`);
    assert.equal(retried.statusCode, 409, 'a page is still changed: running it again could write over it');
    assert.match(retried.data.detail, /cannot simply be run again/);
    assert.equal((await detail(id)).status, 'failed');
  });

  it('is failed, not left in progress, once every attempt died; a task that ended is left as it is', async () => {
    const { tasks, connectors } = ctx.app.services;
    const executor = createExecutor({ tasks, log: ctx.app.log, connectors });
    const id = await groupedTask(ABANDONED);
    await sql`update tasks set status = 'in_progress' where id = ${id}`.execute(ctx.database.db);
    await executor.abandonTask(id);
    const abandoned = await detail(id);
    assert.equal(abandoned.status, 'failed');
    assert.match(abandoned.error.message, /Every attempt to carry this task out stopped before it ended/);
    const completed = await groupedTask(['roses']).then(async (other) => {
      await sql`update tasks set status = 'completed' where id = ${other}`.execute(ctx.database.db);
      await executor.abandonTask(other);
      return detail(other);
    });
    assert.equal(completed.status, 'completed');
  });

  it('resumes after the pages a stopped attempt recorded; the stopped attempt, back to life, changes nothing more', async () => {
    const id = await groupedTask(RESUMED);
    // Queued as an approval leaves it, without the job: the attempts below are driven by hand.
    await sql`update tasks set status = 'queued' where id = ${id}`.execute(ctx.database.db);
    const stored = async () => (await detail(id));

    const first = stalling(id, 3, { afterWriting: true }); // writes its third page, then stops before recording it
    await first.reached;
    assert.deepEqual((await stored()).deliverables.map((d: { url: string }) => d.url), RESUMED.slice(0, 2).map((s) => `${wp.origin}/${s}/`), 'two pages recorded');
    assert.equal(described('irises'), draft('irises'), 'the third page is written, not recorded');

    const second = stalling(id, 2); // the retry: resumes at the third page, then stops before the fourth
    await second.reached;
    let now = await stored();
    assert.equal(now.status, 'in_progress');
    assert.equal(now.deliverables.length, 3);
    assert.deepEqual(now.execution_history.at(-1).detail, { message: 'resumed after the attempt that stopped', pages_done: 2 });

    // The first attempt wakes up: its lease is gone, so it saves and finishes nothing.
    first.release();
    await first.run;
    now = await stored();
    assert.equal(now.status, 'in_progress', 'the stopped attempt did not finish the task');
    assert.equal(now.deliverables.length, 3, 'nor record its pages');

    second.release();
    await second.run;
    const done = await stored();
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.deepEqual(done.deliverables.map((d: { url: string }) => d.url), RESUMED.map((s) => `${wp.origin}/${s}/`), 'each page once, in order');
    for (const slug of RESUMED) assert.equal(described(slug), draft(slug));
    assert.equal(done.execution_history.filter((e: { to: string }) => e.to === 'completed').length, 1);
    // The page the stopped attempt wrote without recording is restorable: its before is the one the task was planned from.
    const irises = done.deliverables.find((d: { url: string }) => d.url === `${wp.origin}/irises/`);
    assert.deepEqual(irises.changes.map((c: { field: string; before: string }) => [c.field, c.before]), [['meta.sos_meta_description', '']]);
    assert.equal((await api('POST', `/api/v1/tasks/${id}/rollback`)).statusCode, 200);
    for (const slug of RESUMED) assert.equal(described(slug), '', `${slug} restored`);
  });

  it('records a title the stopped attempt wrote as the post title it replaced, so the rollback restores it', async () => {
    const id = await groupedTask(RETITLED, 'title');
    await sql`update tasks set status = 'queued' where id = ${id}`.execute(ctx.database.db);
    const first = stalling(id, 2, { afterWriting: true }); // writes its second page, then stops before recording it
    await first.reached;
    assert.equal(wp.item('primulas')!.title, 'How to grow primulas in a Kent garden', 'written without the site suffix the theme adds');
    const second = stalling(id, 99);
    await second.run;
    first.release();
    await first.run;
    const done = await detail(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const primulas = done.deliverables.find((d: { url: string }) => d.url === `${wp.origin}/primulas/`);
    assert.deepEqual(primulas.changes.map((c: { field: string; before: string }) => [c.field, c.before]), [['title', 'Growing primulas']]);
    assert.equal((await api('POST', `/api/v1/tasks/${id}/rollback`)).statusCode, 200);
    for (const slug of RETITLED) assert.equal(wp.item(slug)!.title, `Growing ${slug}`, `${slug} restored`);
  });

  it('says which pages a rollback that failed mid-way already put back, records them, and a retry restores the rest', async () => {
    const id = await groupedTask(HALF_RESTORED);
    assert.equal((await run(id)).status, 'completed');
    wp.failNext(500, 'POST', `/wp/v2/pages/${wp.item('phlox')!.id}`);
    const failed = await api('POST', `/api/v1/tasks/${id}/rollback`);
    assert.equal(failed.statusCode, 502, failed.body);
    assert.match(failed.data.detail, /the task stays completed \(1 of the 3 pages were already put back .*a retry restores the rest\)/);
    assert.equal(described('asters'), '', 'the first page was put back');
    assert.equal(described('sedums'), draft('sedums'), 'the last page was not reached');
    const history = (await api('GET', `/api/v1/cms/rollback/history?site_id=${siteId}`)).data.items.filter((r: { task_id: string }) => r.task_id === id);
    assert.equal(history[0].status, 'failed');
    assert.deepEqual(history[0].changes.map((c: { url: string }) => c.url), [`${wp.origin}/asters/`], 'what it restored before failing is recorded');

    const retried = await api('POST', `/api/v1/tasks/${id}/rollback`);
    assert.equal(retried.statusCode, 200, retried.body);
    for (const slug of HALF_RESTORED) assert.equal(described(slug), '', `${slug} restored`);
    assert.equal((await detail(id)).status, 'rolled_back');
  });

  it('lets an attempt presumed dead neither finish the task nor put its pages back', async () => {
    const queued = async (slugs: string[]) => {
      const id = await groupedTask(slugs);
      await sql`update tasks set status = 'queued' where id = ${id}`.execute(ctx.database.db);
      return id;
    };

    // Both attempts stop before their last page; the first (never recording) wakes up first: its finish is refused.
    const id = await queued(FENCED);
    const first = stalling(id, 3, { progressEveryMs: 1e9 });
    await first.reached;
    const second = stalling(id, 3);
    await second.reached;
    first.release();
    await first.run;
    assert.equal((await detail(id)).status, 'in_progress', 'the attempt presumed dead did not complete the task');
    second.release();
    await second.run;
    const done = await detail(id);
    assert.equal(done.status, 'completed');
    assert.equal(done.deliverables.length, 3);

    // An attempt presumed dead whose page then fails puts nothing back: the task is the other attempt's, completed.
    const other = await queued(FENCED_FAILING);
    const stale = stalling(other, 2, { progressEveryMs: 1e9, failOnRelease: true });
    await stale.reached;
    const retry = stalling(other, 99);
    await retry.run;
    assert.equal((await detail(other)).status, 'completed');
    stale.release();
    await stale.run;
    assert.equal((await detail(other)).status, 'completed');
    for (const slug of FENCED_FAILING) assert.equal(described(slug), draft(slug), `${slug} keeps the change the completed task made`);
  });

  it('is refused by the gate when a page repeats or a draft is out of bounds', async () => {
    const { configurationFailure } = await import('../task-types/index.ts');
    const page = (slug: string, after = draft(slug)) => ({ url: `${wp.origin}/${slug}/`, before: null, after });
    assert.equal(configurationFailure('fix_missing_meta_description', { pages: [page('a'), page('b')] }), undefined);
    assert.match(configurationFailure('fix_missing_meta_description', { pages: [page('a'), page('a')] })!, /its own url, once/);
    assert.match(configurationFailure('fix_missing_meta_description', { pages: [page('a'), page('b', 'Too short.')] })!, /\/b\/: the drafted description is outside 50-160/);
    assert.match(configurationFailure('fix_missing_meta_description', { pages: [page('a')] })!, /several pages/, 'one page is not a group');
    assert.match(configurationFailure('add_structured_data', { pages: [page('a'), page('b')] })!, /does not match the add_structured_data schema \(/, 'a type without per-page tasks is checked against its one-page schema');
  });
});
