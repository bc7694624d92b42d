import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { TASK_TYPES, type TaskType } from '../agents/proposal.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { VERIFY_JOB } from './executor.ts';
import { until } from '../../../test/helpers/wait.ts';

/**
 * Every task type through the manual connector: approved, executed into a deliverable,
 * verified on the live site as not done yet, then, once the site shows the change, verified.
 */
const DESCRIPTION = 'Tables cut from a single oak board in our Devon workshop, oiled by hand and ready in six weeks.';
const TITLE = 'Oak tables made by hand | The Shop';
const WORDS = Array.from({ length: 230 }, (_, i) => `word${i}`).join(' ');

let ctx: TestContext;
let owner: SignedInUser;
let siteId: string;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
const fixed = new Set<string>();

interface Case {
  type: TaskType;
  path: string;
  configuration: (origin: string) => Record<string, unknown>;
  /** The live page (or file) before and after someone applies the deliverable. */
  before: (origin: string) => string;
  after: (origin: string) => string;
  deliverable: (d: Record<string, any>, origin: string) => void;
  contentType?: string;
}

/** Search-data briefs: their effect shows in search metrics, not on one page. */
const SEARCH_TYPES = ['create_content_for_keyword', 'refresh_declining_content', 'consolidate_cannibalized_pages'] as const;
/** Verified by measuring the page in Lighthouse again: carried out by hand, with Chromium, in audits/page-speed.test.ts. */
const LAB_TYPES = ['improve_page_speed'] as const;

const CASES: Case[] = [
  {
    type: 'fix_missing_meta_description', path: '/desc', configuration: () => ({ before: null, after: DESCRIPTION }),
    before: () => page({ description: '' }), after: () => page({ description: DESCRIPTION }),
    deliverable: (d) => assert.equal(d.html, `<meta name="description" content="${DESCRIPTION}">`),
  },
  {
    type: 'fix_duplicate_meta_description', path: '/dup', configuration: () => ({ before: 'shared', after: DESCRIPTION }),
    before: () => page({ description: 'A description shared by several pages of the shop, which search engines then ignore.' }), after: () => page({ description: DESCRIPTION }),
    deliverable: (d) => assert.match(d.instructions, /shared with other pages/),
  },
  {
    type: 'fix_title_tag', path: '/title', configuration: () => ({ before: 'Hi', after: TITLE }),
    before: () => page({ title: 'Hi' }), after: () => page({ title: TITLE }),
    deliverable: (d) => assert.equal(d.html, `<title>${TITLE}</title>`),
  },
  {
    // Search-data titles are concrete changes, carried out and checked like a title fix.
    type: 'optimize_title_tag', path: '/skipped', configuration: () => ({ before: 'Hi', after: TITLE, top_query: 'oak', position: 3, ctr: 0.01, expected_ctr: 0.1 }),
    before: () => page({ title: 'Hi' }), after: () => page({ title: TITLE }),
    deliverable: (d) => assert.equal(d.html, `<title>${TITLE}</title>`),
  },
  {
    type: 'prioritize_quick_wins', path: '/quick', configuration: () => ({ before: 'Hi', after: TITLE, keyword: 'oak', position: 8 }),
    before: () => page({ title: 'Hi' }), after: () => page({ title: TITLE }),
    deliverable: (d) => assert.equal(d.html, `<title>${TITLE}</title>`),
  },
  {
    // A brief a person carries out, checked on the live site: the named page links to the query's page with its words.
    type: 'strengthen_page_for_query', path: '/related',
    configuration: (origin) => ({
      keyword: 'oak tables', url: `${origin}/tables`, position: 6, opening_says_query: true, link_from: [{ url: `${origin}/related`, title: 'Related' }],
      instructions: 'Link to /tables with the words "oak tables".',
    }),
    before: () => page({ body: '<p>Chairs. <a href="/tables">See more</a></p>' }), after: () => page({ body: '<p>Chairs to go with our <a href="/tables">oak tables</a>.</p>' }),
    deliverable: (d, origin) => assert.deepEqual(d.changes, [{ url: `${origin}/related`, title: 'Related' }]),
  },
  {
    type: 'fix_h1', path: '/h1', configuration: () => ({ issue: 'missing', before: null, after: 'Oak tables', instructions: 'add this h1.' }),
    before: () => page({ body: '<p>x</p>' }), after: () => page({ body: '<h1>Oak tables</h1><p>x</p>' }),
    deliverable: (d) => assert.equal(d.html, '<h1>Oak tables</h1>'),
  },
  {
    // One template's h1 on many pages: one task, checked on its example pages.
    type: 'fix_h1', path: '/h1-template',
    configuration: (o) => ({
      issue: 'multiple', before: ['Oak Shop', 'Oak tables'], after: 'Oak tables', template_h1s: ['Oak Shop'],
      instructions: 'In the site\'s template, print "Oak Shop" as a <p> or <div> styled as before, not an <h1>.', site_wide: { pages: 120, examples: [`${o}/h1-template`] },
    }),
    before: () => page({ body: '<h1>Oak Shop</h1><h1>Oak tables</h1><p>x</p>' }), after: () => page({ body: '<p>Oak Shop</p><h1>Oak tables</h1><p>x</p>' }),
    deliverable: (d, o) => assert.equal(d.instructions, `In the site's template, print "Oak Shop" as a <p> or <div> styled as before, not an <h1>. 120 pages are concerned, such as ${o}/h1-template.`),
  },
  {
    type: 'add_image_alt_text', path: '/img', configuration: (o) => ({ images: [{ src: `${o}/media/red-rose.jpg`, alt: 'Red rose' }] }),
    before: () => page({ body: '<h1>x</h1><img src="/media/red-rose.jpg">' }), after: () => page({ body: '<h1>x</h1><img src="/media/red-rose.jpg" alt="Red rose">' }),
    deliverable: (d, o) => assert.deepEqual(d.changes, [{ src: `${o}/media/red-rose.jpg`, attribute: 'alt="Red rose"' }]),
  },
  {
    type: 'fix_broken_links', path: '/links', configuration: (o) => ({ changes: [{ link_to: `${o}/gone`, action: 'remove' }] }),
    before: () => page({ body: '<h1>x</h1><a href="/gone">old</a>' }), after: () => page({ body: '<h1>x</h1>old' }),
    deliverable: (d, o) => assert.equal(d.changes[0].link_to, `${o}/gone`),
  },
  {
    type: 'fix_redirect_chains', path: '/redirects', configuration: (o) => ({ changes: [{ link_to: `${o}/old`, final_url: `${o}/new` }] }),
    before: () => page({ body: '<h1>x</h1><a href="/old">desks</a>' }), after: () => page({ body: '<h1>x</h1><a href="/new">desks</a>' }),
    deliverable: (d, o) => assert.deepEqual(d.changes, [{ link_to: `${o}/old`, final_url: `${o}/new` }]),
  },
  {
    type: 'fix_indexing_block', path: '/noindex', configuration: () => ({ issue: 'home_noindex', instructions: 'remove noindex' }),
    before: () => page({ head: '<meta name="robots" content="noindex">' }), after: () => page(),
    deliverable: (d) => assert.equal(d.instructions, 'remove noindex'),
  },
  {
    type: 'fix_indexing_block', path: '/robots.txt', configuration: () => ({ issue: 'robots_txt_blocks_all', instructions: 'allow crawling' }), contentType: 'text/plain',
    before: () => 'User-agent: *\nDisallow: /\n', after: () => 'User-agent: *\nDisallow: /admin/\n',
    deliverable: (d) => assert.equal(d.instructions, 'allow crawling'),
  },
  {
    type: 'fix_canonical', path: '/canonical', configuration: (o) => ({ after: `${o}/canonical`, html: `<link rel="canonical" href="${o}/canonical">` }),
    before: (o) => page({ head: `<link rel="canonical" href="${o}/gone">` }), after: (o) => page({ head: `<link rel="canonical" href="${o}/canonical">` }),
    deliverable: (d, o) => assert.equal(d.html, `<link rel="canonical" href="${o}/canonical">`),
  },
  {
    type: 'add_hreflang', path: '/fr/page',
    configuration: (o) => {
      const after = [{ hreflang: 'de', href: `${o}/de/page` }, { hreflang: 'fr', href: `${o}/fr/page` }];
      return { url: `${o}/fr/page`, field: 'hreflang', before: null, after, html: after.map((a) => `<link rel="alternate" hreflang="${a.hreflang}" href="${a.href}">`).join('\n'), lang: 'fr' };
    },
    before: () => page({}),
    after: (o) => page({ head: `<link rel="alternate" hreflang="de" href="${o}/de/page"><link rel="alternate" hreflang="fr" href="${o}/fr/page">` }),
    deliverable: (d, o) => {
      assert.match(d.html, new RegExp(`<link rel="alternate" hreflang="de" href="${o}/de/page">`));
      assert.match(d.instructions, /<html lang="fr">/);
    },
  },
  {
    type: 'fix_html_lang', path: '/no-lang',
    configuration: (o) => ({ url: `${o}/no-lang`, field: 'lang', before: null, after: 'fr', found_from: 'text', html: '<html lang="fr">' }),
    before: () => page({ lang: '' }), after: () => page({ lang: 'fr' }),
    deliverable: (d) => assert.deepEqual([d.html, /template or generator/.test(d.instructions)], ['<html lang="fr">', true]),
  },
  {
    type: 'fix_sitemap_errors', path: '/sitemap.xml', configuration: (o) => ({ sitemap: `${o}/sitemap.xml`, changes: [{ url: `${o}/gone`, problem: 'sitemap_broken_url', action: 'remove it' }] }),
    contentType: 'application/xml',
    before: (o) => `<?xml version="1.0"?><urlset><url><loc>${o}/</loc></url><url><loc>${o}/gone</loc></url></urlset>`,
    after: (o) => `<?xml version="1.0"?><urlset><url><loc>${o}/</loc></url></urlset>`,
    deliverable: (d, o) => assert.equal(d.changes[0].url, `${o}/gone`),
  },
  {
    type: 'add_structured_data', path: '/jsonld', configuration: (o) => ({ issue: 'missing', json_ld: { '@type': 'WebSite', name: 'Shop', url: o }, html: '<script type="application/ld+json">{}</script>', instructions: 'add it' }),
    before: () => page(), after: (o) => page({ head: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","name":"Shop","url":"${o}"}</script>` }),
    deliverable: (d) => assert.equal(d.html, '<script type="application/ld+json">{}</script>'),
  },
  {
    type: 'add_internal_links', path: '/orphan', configuration: (o) => ({ anchor_text: 'Orphan', sources: [{ url: `${o}/hub` }], html: `<a href="${o}/orphan">Orphan</a>` }),
    before: () => page(), after: () => page(),
    deliverable: (d, o) => assert.deepEqual(d.changes, [{ url: `${o}/hub` }]),
  },
  {
    type: 'expand_thin_content', path: '/thin', configuration: () => ({ instructions: 'write more', existing_headings: ['Sizes'] }),
    before: () => page({ body: '<h1>Thin</h1><p>little</p>' }), after: () => page({ body: `<h1>Thin</h1><p>${WORDS}</p>` }),
    deliverable: (d) => assert.deepEqual([d.instructions, d.changes], ['write more', ['Sizes']]),
  },
  {
    // A page whose text and links only its script made: done when the server's HTML has them.
    type: 'render_on_server', path: '/spa',
    configuration: (o) => ({ pages: [{ url: `${o}/spa`, elements: ['main text', 'internal links'], links_only_rendered: 1 }], elements: [{ element: 'main text', pages: 1 }], instructions: 'render on the server' }),
    before: () => '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>',
    after: () => page({ body: `<h1>Served</h1><p>${WORDS}</p><a href="/desc">More</a>` }),
    deliverable: (d, o) => assert.deepEqual([d.instructions, d.changes[0].url], ['render on the server', `${o}/spa`]),
  },
];

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  owner = await signUp(ctx);
  const routes: Parameters<typeof startFixtureSite>[0] = {
    // The orphan's hub page links to it once "fixed".
    '/hub': () => ({ body: page({ body: fixed.has('/orphan') ? `<h1>Hub</h1><a href="${site.origin}/orphan">Orphan</a>` : '<h1>Hub</h1>' }) }),
  };
  for (const c of CASES) {
    routes[c.path] = () => ({
      headers: { 'content-type': c.contentType ?? 'text/html; charset=utf-8' },
      body: (fixed.has(c.path) ? c.after : c.before)(site.origin),
    });
  }
  site = await startFixtureSite(routes);
  siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Shop', domain: site.host } })).data.id;
});
after(async () => {
  await ctx.close();
  await site.close();
});


describe('every task type, carried out by hand', () => {
  it('covers every type the agents propose', () => {
    assert.deepEqual([...new Set([...CASES.map((c) => c.type), ...SEARCH_TYPES, ...LAB_TYPES])].sort(), Object.keys(TASK_TYPES).sort());
  });

  for (const type of SEARCH_TYPES) {
    it(`${type}: a deliverable of instructions; nothing on one page can show it is done, so verification is not applicable`, async () => {
      const id = (await createTasksRepo(ctx.database.db).insertProposal({
        siteId, type, category: TASK_TYPES[type], priority: 'medium', title: 't', description: 'd', target: `keyword:${type}`,
        configuration: { url: `${site.origin}/desc`, instructions: `do the ${type} work`, pages: [] }, evidence: [{ source: 'search_console' }],
      }))!;
      assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken })).statusCode, 200);
      const done = await until(() => call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken }).then((r) => r.data), (t) => t.status === 'completed' || t.status === 'failed');
      assert.equal(done.status, 'completed', JSON.stringify(done.error));
      assert.equal(done.deliverables[0].instructions, `do the ${type} work`);
      assert.deepEqual([done.outcome, done.can_roll_back, done.can_retry], ['brief', false, false], 'a brief: handed over, nothing to put back');
      const status = await until(() => call(ctx, { method: 'GET', url: `/api/v1/verification/tasks/${id}/verification-status`, token: owner.accessToken }).then((r) => r.data), (v) => v.checked_at !== null);
      assert.equal(status.status, 'not_applicable');
    });
  }

  it('a quick win stored before titles were drafted (instructions only) is still carried out as the brief it was', async () => {
    const id = (await createTasksRepo(ctx.database.db).insertProposal({
      siteId, type: 'prioritize_quick_wins', category: 'strategy', priority: 'medium', title: 't', description: 'd', target: 'keyword:oak tables',
      configuration: { keyword: 'oak tables', url: null, position: 7, instructions: 'Use "oak tables" in the title.' }, evidence: [{ source: 'search_console' }],
    }))!;
    const before = await call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken });
    assert.equal(before.data.outcome, 'brief');
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken })).statusCode, 200);
    const done = await until(() => call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken }).then((r) => r.data), (t) => t.status === 'completed' || t.status === 'failed');
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.equal(done.deliverables[0].instructions, 'Use "oak tables" in the title.');
  });

  for (const c of CASES) {
    it(`${c.type} (${c.path}): deliverable, not live yet, then verified`, async () => {
      const target = `${site.origin}${c.path}`;
      const id = (await createTasksRepo(ctx.database.db).insertProposal({
        siteId, type: c.type, category: TASK_TYPES[c.type], priority: 'medium', title: 't', description: 'd', target,
        configuration: { url: target, ...c.configuration(site.origin) }, evidence: [{ check_id: 'x' }],
      }))!;
      assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: owner.accessToken })).statusCode, 200);
      const detail = () => call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken }).then((r) => r.data);
      const done = await until(detail, (t) => t.status === 'completed' || t.status === 'failed');
      assert.equal(done.status, 'completed', JSON.stringify(done.error));
      assert.equal(done.deliverables[0].connector, 'manual');
      c.deliverable(done.deliverables[0], site.origin);

      const status = () => call(ctx, { method: 'GET', url: `/api/v1/verification/tasks/${id}/verification-status`, token: owner.accessToken }).then((r) => r.data);
      const first = await until(status, (v) => v.checked_at !== null);
      assert.equal(first.status, 'pending', `not live yet: ${JSON.stringify(first.checks)}`);
      assert.ok(first.checks.length > 0 && first.checks.some((check: { passed: boolean }) => !check.passed));

      fixed.add(c.path);
      await ctx.app.jobs.send(VERIFY_JOB, { taskId: id, attempt: 2 });
      const second = await until(status, (v) => v.status !== 'pending');
      assert.equal(second.status, 'verified', JSON.stringify(second.checks));
    });
  }
});
