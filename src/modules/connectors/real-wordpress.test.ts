import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { until } from '../../../test/helpers/wait.ts';
import { pagesOf } from '../task-types/index.ts';

/**
 * The connector against a real WordPress (Debian's package, Twenty Twenty-One, the SEO-field
 * mu-plugin), started by `npm run wordpress:up`: posts with SEO problems are created,
 * audited, fixed through the connector, verified on the pages WordPress serves, and rolled
 * back to exactly what WordPress held before.
 */
const STATE = '.wordpress/state.json';
const state = fs.existsSync(STATE) ? (JSON.parse(fs.readFileSync(STATE, 'utf8')) as { url: string; username: string; application_password: string }) : undefined;
const skip = state ? false : 'no real WordPress: run `npm run wordpress:up` (it installs Debian\'s wordpress, php-cli and php-mysql) to include this test';

const run = `${process.env.TEST_DB ?? 'embedded'}-${Date.now().toString(36)}`;
const ABOUT = `<!-- wp:paragraph -->\n<p>Our nursery grows old shrub roses, climbers and ramblers on four acres in Kent. Every plant is raised from our own cuttings.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Visitors can walk the beds from April to October and ask the growers anything about pruning, feeding and planting.</p>\n<!-- /wp:paragraph -->`;
const LONG_TITLE = 'How to prune roses well: everything you need to know in a small garden';
const KENTS_TITLE = "Kent's roses for a wall: fences, arches and pergolas in a small garden";
const ROSES = '<h1>Roses</h1>\n<p>We grow old shrub roses in Kent and sell them bare-root from November.</p>\n<p><img src="/wp-content/uploads/red-rose-bush-1024x768.jpg"></p>\n<p>See the <a href="/no-such-guide-' + run + '/">older guide</a> for planting.</p>';

let ctx: TestContext;
let owner: SignedInUser;
const created: Array<{ kind: 'pages' | 'posts'; id: number; link: string; slug: string }> = [];

const auth = () => `Basic ${Buffer.from(`${state!.username}:${state!.application_password}`).toString('base64')}`;
async function wp(method: 'GET' | 'POST' | 'DELETE', route: string, body?: object) {
  const response = await fetch(`${state!.url}/wp-json/wp/v2/${route}`, {
    method, headers: { authorization: auth(), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json() as Record<string, any>;
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
/** What a task did to one page: its configuration and its deliverable for that page (a task may cover several). */
const forPage = (done: Record<string, any>, link: string) => ({
  configuration: (done.configuration.pages as Array<Record<string, any>> | undefined)?.find((p) => p.url === link) ?? done.configuration,
  deliverable: (done.deliverables as Array<Record<string, any>>).find((d) => d.url === link) ?? done.deliverables[0],
});
const held = async (item: { kind: string; id: number }) => wp('GET', `${item.kind}/${item.id}?context=edit`);

/**
 * Posts and pages an interrupted run left behind (its `after` never ran) would be part of
 * this run's crawl: three copies of one paragraph make it template text, and the drafts
 * then differ from what this run expects. The WordPress outlives test runs, so start clean.
 */
async function removeLeftovers() {
  for (const kind of ['pages', 'posts'] as const) {
    for (let page = 1; ; page++) {
      const response = await fetch(`${state!.url}/wp-json/wp/v2/${kind}?context=edit&status=any&per_page=100&page=${page}`, { headers: { authorization: auth() } });
      if (!response.ok) break;
      const items = await response.json() as Array<{ id: number; slug: string }>;
      for (const item of items.filter((i) => /-(embedded|postgres)-[0-9a-z]+(-\d+)?$/.test(i.slug))) {
        await wp('DELETE', `${kind}/${item.id}?force=true`);
      }
      if (items.length < 100) break;
    }
  }
}

async function create(kind: 'pages' | 'posts', fields: Record<string, unknown>) {
  const item = await wp('POST', kind, { status: 'publish', ...fields });
  const entry = { kind, id: item.id as number, link: item.link as string, slug: item.slug as string };
  created.push(entry);
  return entry;
}

const api = (method: 'GET' | 'POST', url: string, token = owner.accessToken) => call(ctx, { method, url, token });
const detail = async (id: string, token = owner.accessToken) => (await api('GET', `/api/v1/tasks/${id}`, token)).data;
async function approveAndRun(id: string, token = owner.accessToken) {
  assert.equal((await api('POST', `/api/v1/tasks/${id}/approve`, token)).statusCode, 200);
  const done = await until(() => detail(id, token), (t) => t.status === 'completed' || t.status === 'failed', 'execution', 30_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  return done;
}
const verified = (id: string, token = owner.accessToken) =>
  until(async () => (await api('GET', `/api/v1/verification/tasks/${id}/verification-status`, token)).data, (v) => v.status !== 'pending', 'verification', 30_000);

/** A site for the WordPress, its connector, an audit and the strategy agent's tasks by "type url". */
async function auditedSite(user: SignedInUser, connector: Record<string, unknown>) {
  const host = new URL(state!.url).host;
  const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Real WordPress', domain: host } })).data.id;
  const saved = await call(ctx, {
    method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: user.accessToken,
    payload: { type: 'wordpress', base_url: state!.url, username: state!.username, application_password: state!.application_password, ...connector },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const audit = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId, max_pages: 300 } });
  const done = await until(
    async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: user.accessToken })).data,
    (a) => a.id === audit.data.id && (a.agent_summary !== null || a.status === 'failed'), 'the audit', 120_000,
  );
  assert.equal(done.status, 'completed', done.error);
  const tasks = new Map<string, Record<string, any>>();
  for (let page = 1; ; page++) {
    const list = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}&page_size=100&page=${page}`, token: user.accessToken })).data;
    for (const t of list.items) {
      // A task covering several pages (one problem on many pages) is found under each of its pages.
      const full = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${t.id}`, token: user.accessToken })).data;
      for (const page of pagesOf(full)) tasks.set(`${t.type} ${page.target}`, t);
    }
    if (page * 100 >= list.total) break;
  }
  return { siteId, tasks };
}

describe('a real WordPress, end to end', { skip }, () => {
  let about: Awaited<ReturnType<typeof create>>;
  let pruning: Awaited<ReturnType<typeof create>>;
  let roses: Awaited<ReturnType<typeof create>>;
  let kents: Awaited<ReturnType<typeof create>>;
  let tasks: Map<string, Record<string, any>>;
  const task = (type: string, link: string) => {
    const found = tasks.get(`${type} ${link}`);
    assert.ok(found, `${type} for ${link} among ${tasks.size} tasks`);
    return found;
  };

  before(async () => {
    await removeLeftovers();
    ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0' });
    owner = await signUp(ctx);
    about = await create('pages', { title: `About the nursery ${run}`, slug: `about-${run}`, content: ABOUT });
    pruning = await create('posts', {
      title: LONG_TITLE, slug: `pruning-${run}`, content: '<p>Prune in late winter, above an outward-facing bud.</p>',
      meta: { sos_meta_description: 'How and when to prune roses in a small garden: the cuts to make, the tools to use and the mistakes that cost you flowers.' },
    });
    roses = await create('posts', {
      title: `Our roses ${run}`, slug: `roses-${run}`, content: ROSES,
      meta: { sos_meta_description: 'The old shrub roses we grow on four acres in Kent, raised from our own cuttings and sold bare-root every November.' },
    });
    kents = await create('posts', {
      title: KENTS_TITLE, slug: `kents-${run}`, content: '<p>Climbing roses want a wall, a wire and patience.</p>',
      meta: { sos_meta_description: 'Which climbing roses suit a Kent garden, how to train them on a wall and how to prune them in their first three winters.' },
    });
    ({ tasks } = await auditedSite(owner, {}));
  });
  after(async () => {
    for (const item of created) await wp('DELETE', `${item.kind}/${item.id}?force=true`).catch(() => undefined);
    await ctx?.close();
  });

  it('writes a meta description into the registered SEO field, live in the page head, and restores it', async () => {
    const t = task('fix_missing_meta_description', about.link);
    const done = await approveAndRun(t.id);
    const { configuration, deliverable } = forPage(done, about.link);
    assert.equal(deliverable.connector, 'wordpress', JSON.stringify(deliverable));
    assert.deepEqual(deliverable.changes.map((c: { field: string }) => c.field), ['meta.sos_meta_description']);
    assert.equal((await held(about)).meta.sos_meta_description, configuration.after);
    assert.ok(configuration.after.startsWith('Our nursery grows'), `drafted from the page's own text, not the theme's header: ${configuration.after}`);
    const verification = await verified(t.id);
    assert.equal(verification.status, 'verified', JSON.stringify(verification.checks));

    assert.equal((await api('POST', `/api/v1/tasks/${t.id}/rollback`)).statusCode, 200);
    assert.equal((await held(about)).meta.sos_meta_description, '');
  });

  it('shortens titles so that the theme\'s " – Site" suffix completes them, verifies one WordPress renders with typographic quotes (wptexturize), and restores the originals', async () => {
    // The two pages may share one task (title problems on several pages are one task): each task runs once.
    const ids = [...new Set([task('fix_title_tag', pruning.link).id, task('fix_title_tag', kents.link).id])];
    const runs = new Map<string, Record<string, any>>();
    for (const id of ids) runs.set(id, await approveAndRun(id));
    const pruned = forPage(runs.get(task('fix_title_tag', pruning.link).id)!, pruning.link).configuration;
    assert.ok(pruned.after.endsWith(' – Site Optimization Test Garden'), pruned.after);
    assert.match(forPage(runs.get(task('fix_title_tag', kents.link).id)!, kents.link).configuration.after, /^Kent’s/, 'drafted from the live h1, as WordPress renders it');
    for (const page of [pruning, kents]) {
      const id = task('fix_title_tag', page.link).id;
      // Each page's own check (a task covering several pages may wait on pages only a person can change, such as the blog index).
      const check = await until(async () => (await detail(id)).verification?.checks?.find((c: { url?: string }) => !c.url || c.url === page.link), (c) => c?.passed === true, `${page.link} verified`, 30_000);
      assert.equal(check.passed, true, JSON.stringify(check));
    }
    assert.notEqual((await held(pruning)).title.raw, LONG_TITLE);
    assert.ok(!(await held(kents)).title.raw.includes('Site Optimization Test Garden'), 'the theme adds the site name; the post title does not repeat it');

    for (const id of ids) assert.equal((await api('POST', `/api/v1/tasks/${id}/rollback`)).statusCode, 200);
    assert.equal((await held(pruning)).title.raw, LONG_TITLE);
    assert.equal((await held(kents)).title.raw, KENTS_TITLE);
  });

  it('edits the content for alt text, a second h1 and a broken link, live on the page, and undoes them in reverse order', async () => {
    const order = ['add_image_alt_text', 'fix_h1', 'fix_broken_links'].map((type) => task(type, roses.link));
    for (const t of order) {
      await approveAndRun(t.id);
      const verification = await verified(t.id);
      assert.equal(verification.status, 'verified', `${t.type}: ${JSON.stringify(verification.checks)}`);
    }
    const edited = (await held(roses)).content.raw as string;
    assert.match(edited, /<img src="\/wp-content\/uploads\/red-rose-bush-1024x768.jpg" alt="Red rose bush">/);
    assert.match(edited, /^<h2>Roses<\/h2>/);
    assert.ok(!edited.includes('no-such-guide') && edited.includes('older guide'));

    for (const t of [...order].reverse()) assert.equal((await api('POST', `/api/v1/tasks/${t.id}/rollback`)).statusCode, 200, t.type);
    assert.equal((await held(roses)).content.raw, ROSES, 'byte for byte what WordPress held before');
  });

  it('is refused (422, WordPress\'s reason) when the application password is wrong', async () => {
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Wrong', domain: `wrong-${run}.example.org` } })).data.id;
    const res = await call(ctx, {
      method: 'PUT', url: `/api/v1/sites/${siteId}/connector`, token: owner.accessToken,
      payload: { type: 'wordpress', base_url: state!.url, username: state!.username, application_password: 'abcd abcd abcd abcd abcd abcd' },
    });
    assert.equal(res.statusCode, 422);
    // WordPress treats a wrong application password as no credentials at all.
    assert.match(res.data.detail, /refused the user name or application password \(rest_not_logged_in\)/);
  });

  it('writes the excerpt when the site prints it as the description, and restores it', async () => {
    const other = await signUp(ctx);
    const page = await create('pages', { title: `Visiting the nursery ${run}`, slug: `visiting-${run}`, content: ABOUT.replace('Our nursery', 'The nursery') });
    const { tasks: theirs } = await auditedSite(other, { meta_description_field: 'excerpt' });
    const t = theirs.get(`fix_missing_meta_description ${page.link}`);
    assert.ok(t);
    const done = await approveAndRun(t.id, other.accessToken);
    const { configuration, deliverable } = forPage(done, page.link);
    assert.deepEqual(deliverable.changes.map((c: { field: string }) => c.field), ['excerpt']);
    assert.equal((await held(page)).excerpt.raw, configuration.after);
    assert.equal((await verified(t.id, other.accessToken)).status, 'verified');
    assert.equal((await api('POST', `/api/v1/tasks/${t.id}/rollback`, other.accessToken)).statusCode, 200);
    assert.equal((await held(page)).excerpt.raw, '');
  });
});
