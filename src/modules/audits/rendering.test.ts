import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { which } from '../../../test/helpers/programs.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { SPA_ARTICLE, startSpaSite } from '../demo/spa-site.ts';
import { createAuditsRepo } from './audits.repo.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? which('chromium');

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let spa: Awaited<ReturnType<typeof startSpaSite>>;
let siteId: string;
let auditId: string;

async function auditOf(id: string, user: SignedInUser) {
  await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: id } });
  for (let i = 0; i < 300; i++) {
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${id}/latest`, token: user.accessToken });
    if (latest.data?.status === 'completed' && latest.data.agent === 'finished') return latest.data;
    if (latest.data?.status === 'failed') assert.fail(latest.data.error);
    await sleep(100);
  }
  const last = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${id}/latest`, token: user.accessToken });
  assert.fail(`the audit did not complete: ${JSON.stringify(last.data)}`);
}

// Where Chromium is missing this suite skips, saying so; CI installs it, and there a missing one fails instead.
describe('GET /audits/{audit_id}/rendering: a client-rendered shop audited in auto', { skip: chromiumPath || process.env.CI ? false : 'Chromium is not installed (apt-get install chromium)' }, () => {
  before(async () => {
    assert.ok(chromiumPath, 'chromium is not installed: .ci/run installs it');
    ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', CHROMIUM_PATH: chromiumPath });
    [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
    spa = await startSpaSite();
    siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Northwind Roasters', domain: spa.host } })).data.id;
    auditId = (await auditOf(siteId, alice)).id;
  });
  after(async () => {
    await spa?.close();
    await ctx?.close();
  });

  const get = (user: SignedInUser | undefined, query = '', id = auditId) => call(ctx, { method: 'GET', url: `/api/v1/audits/${id}/rendering${query}`, token: user?.accessToken });

  it('says which pages were rendered and why, and each page raw against rendered', async () => {
    const res = await get(alice);
    assert.equal(res.statusCode, 200, res.body);
    const { data } = res;
    assert.deepEqual([data.mode, data.available, data.unavailable, data.rendered, data.failed, data.template_renders_content], ['auto', true, null, 4, 0, true]);
    assert.deepEqual(data.by_reason.map((r: { reason: string; pages: number }) => [r.reason, r.pages]), [['template_renders_content', 3], ['template_sample', 1]]);
    assert.match(data.by_reason[0].reason_text, /every page is rendered/);
    assert.equal(data.pages.total, 4);
    const about = data.pages.items.find((p: { url: string }) => p.url.endsWith('/about'));
    assert.deepEqual(about.changes.find((c: { field: string }) => c.field === 'robots'), { field: 'robots', raw: null, rendered: 'noindex' });
    assert.equal(about.raw.title, 'Northwind Roasters');
    assert.equal(about.rendered.title, 'About Northwind Roasters');
    assert.ok(about.text_in_raw < 0.5);
    assert.ok(data.peak_memory_mb > 0, 'Chromium\'s memory is measured');
  });

  it('pages the rendered pages (page, page_size), and refuses a page size out of bounds with 422', async () => {
    const first = await get(alice, '?page=1&page_size=2');
    const second = await get(alice, '?page=2&page_size=2');
    assert.deepEqual([first.data.pages.items.length, second.data.pages.items.length, first.data.pages.total], [2, 2, 4]);
    const urls = [...first.data.pages.items, ...second.data.pages.items].map((p: { url: string }) => p.url);
    assert.equal(new Set(urls).size, 4);
    for (const query of ['?page_size=0', '?page_size=101', '?page=0', '?colour=red']) assert.equal((await get(alice, query)).statusCode, 422, query);
  });

  it('audits the rendered pages: the checks find what only JavaScript shows, the agent drafts from the rendered text', async () => {
    const report = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken });
    const issues = new Set(report.data.issues.map((i: { check_id: string }) => i.check_id));
    for (const id of ['content_only_after_javascript', 'links_only_after_javascript', 'directive_changed_by_javascript', 'links_without_href']) assert.ok(issues.has(id), id);
    const tasks: Array<{ id: string; type: string; description: string }> = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}&page_size=100`, token: alice.accessToken })).data.items;
    const listed = tasks.find((t) => t.type === 'fix_missing_meta_description' && t.description.includes('/journal/brewing-at-altitude'));
    assert.ok(listed, `a description is drafted for the article: ${JSON.stringify(tasks.map((t) => t.description))}`);
    const article = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${listed.id}`, token: alice.accessToken })).data;
    // Drafted from the text the page's script fetched from /api: the shell has none of it.
    const words = (article.configuration.after as string).split(/\W+/).filter((w: string) => w.length > 4);
    assert.ok(words.length > 3 && words.every((w: string) => SPA_ARTICLE.paragraphs.join(' ').includes(w)), article.configuration.after);

    // The brief for a developer: which pages, what each misses in its HTML, and how to serve it.
    const brief = tasks.find((t) => t.type === 'render_on_server');
    assert.ok(brief, 'a render_on_server brief is proposed');
    const detail = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${brief.id}`, token: alice.accessToken })).data;
    assert.equal(detail.priority, 'high', 'a noindex only JavaScript adds is an error');
    const pages: Array<{ url: string; elements: string[]; example?: string }> = detail.configuration.pages;
    assert.equal(pages[0]!.url, `${spa.origin}/`, 'the home page first');
    assert.equal(pages.length, 4);
    assert.ok(pages.every((p) => p.elements.includes('internal links')));
    assert.equal(pages.find((p) => p.url.endsWith('/about'))?.example, 'robots: (none) -> noindex');
    assert.match(detail.configuration.instructions, /view source/);
    assert.match(detail.title, /Serve the main text of 3 pages in the HTML/);
  });

  it('never, set on the site, audits the shell alone: the same site shows the difference', async () => {
    const put = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: alice.accessToken, payload: { rendering: 'never' } });
    assert.equal(put.data.rendering, 'never');
    const audit = await auditOf(siteId, alice);
    assert.equal(audit.pages_crawled, 1, 'without JavaScript the shell links nowhere');
    const res = await get(alice, '', audit.id);
    assert.deepEqual([res.data.mode, res.data.rendered, res.data.pages.total], ['never', 0, 0]);
    await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: alice.accessToken, payload: { rendering: 'auto' } });
  });

  it('answers 404 for an audit the caller cannot see or that does not exist, and 401 without a valid token', async () => {
    assert.equal((await get(bob)).statusCode, 404, "another user's audit");
    assert.equal((await get(alice, '', randomUUID())).statusCode, 404);
    // The pages' query names the caller too, not only the audit's: another user reads none of them.
    const repo = createAuditsRepo(ctx.database.db);
    assert.equal((await repo.renderedPages(alice.id, auditId, 1, 20)).total, 4);
    assert.deepEqual(await repo.renderedPages(bob.id, auditId, 1, 20), { rows: [], total: 0 });
    assert.equal(await repo.renderingOf(bob.id, auditId), undefined);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/audits/${auditId}/rendering` }, alice);
  });

  it('answers 409 while the audit has not completed, and 404 for an audit recorded before rendering was', async () => {
    const other = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Other', domain: '127.0.0.1:9' } });
    const queued = await ctx.database.db.insertInto('audits').values({ site_id: other.data.id, max_pages: 10 }).returning('id').executeTakeFirstOrThrow();
    const running = await get(alice, '', queued.id);
    assert.equal(running.statusCode, 409);
    assert.match(running.data.detail, /queued/);
    const old = await ctx.database.db.insertInto('audits').values({ site_id: other.data.id, max_pages: 10, status: 'completed' }).returning('id').executeTakeFirstOrThrow();
    assert.equal((await get(alice, '', old.id)).statusCode, 404);
  });

  it('lets only an admin or owner change the setting (403 for an editor), and refuses an unknown mode with 422', async () => {
    const invalid = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: alice.accessToken, payload: { rendering: 'sometimes' } });
    assert.equal(invalid.statusCode, 422);
    const workspace = (await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: alice.accessToken })).data.workspace_id;
    // A member whose role is too low (an editor): a member's invitation, accepted, as stored.
    const carol = await signUp(ctx);
    await ctx.database.db.insertInto('workspace_members').values({ workspace_id: workspace, user_id: carol.id, role: 'editor' }).execute();
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: carol.accessToken })).data.rendering, 'auto', 'an editor reads it');
    const byEditor = await call(ctx, { method: 'PUT', url: `/api/v1/sites/${siteId}`, token: carol.accessToken, payload: { rendering: 'always' } });
    assert.equal(byEditor.statusCode, 403, byEditor.body);
  });
});
