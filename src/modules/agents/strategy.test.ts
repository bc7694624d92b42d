import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { createSearchDataRepo } from '../search-data/search-data.repo.ts';
import { pagesOf } from '../task-types/index.ts';
import { sql } from 'kysely';

let ctx: TestContext;
let owner: SignedInUser;
let admin: SignedInUser;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
/** Changed by the withdrawal test between audits. */
let robotsRules = 'Allow: /';

const SUFFIX = ' | Fixture Shop';
/** About 220 words on a topic, different for every topic, so no page is thin or a duplicate. */
const prose = (topic: string) =>
  Array.from({ length: 11 }, (_, i) => `Our ${topic} are made by hand in our Devon workshop, batch ${i + 1} of the season, and each one is checked twice before it ships.`).join(' ');
const doc = (title: string, description: string | null, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>${title}</title>${description ? `<meta name="description" content="${description}">` : ''}<link rel="canonical" href="CANONICAL">${head}</head><body>${body}</body></html>`;
const desc = (what: string) => `The fixture shop's page about ${what}, made by hand in Devon and delivered free across the whole country.`;

const PAGES: Record<string, { title: string; description: string | null; body: string; head?: string; canonical?: string }> = {
  '/': {
    title: `Welcome to the workshop${SUFFIX}`, description: desc('everything'),
    body: '<h1>Welcome</h1>' + ['/no-desc', '/thin', '/contact', '/bad-title', '/gone', '/dup', '/dup/copy', '/two-h1', '/no-h1', '/images', '/old', '/canon', '/shelves-guide', '/gates']
      .map((p) => `<a href="${p}">Page ${p}</a>`).join(' ') + `<p>${prose('home goods')}</p>`,
  },
  '/no-desc': { title: `Oak tables made by hand${SUFFIX}`, description: null, body: `<h1>Oak tables</h1><p>${prose('oak tables')}</p>` },
  '/thin': { title: `A thin page of the shop${SUFFIX}`, description: desc('a thin page'), body: '<h1>Thin</h1><h2>Sizes</h2><p>Hardly anything here.</p>' },
  '/contact': { title: `Contact the workshop${SUFFIX}`, description: desc('contact details'), body: '<h1>Contact</h1><p>Call us.</p>' },
  '/bad-title': { title: 'Hi', description: desc('chairs'), body: `<h1>Handmade oak chairs</h1><p>${prose('oak chairs')}</p>` },
  '/dup': { title: `Benches made for the garden${SUFFIX}`, description: desc('benches'), body: `<h1>Benches</h1><p>${prose('garden benches')}</p>` },
  // Its editors' standfirst under the headline: the description it is given.
  '/dup/copy': {
    title: `Benches for the kitchen${SUFFIX}`, description: desc('benches'),
    body: `<h1>Kitchen benches</h1><p class="article-dek">Kitchen benches in oak and ash, built to fit the room they stand in and made to seat a family for decades</p><p>${prose('kitchen benches')}</p>`,
  },
  // Its one paragraph opens with a pronoun: no description is drafted, and the refusal names the rule.
  '/gates': { title: `Garden gates hung to last${SUFFIX}`, description: null, body: `<h1>Gates</h1><p>They hang true for decades in any weather. ${prose('garden gates')}</p>` },
  '/two-h1': { title: `Stools and their story${SUFFIX}`, description: desc('stools'), body: `<h1>Stools</h1><h1>Our story</h1><p>${prose('stools')}</p>` },
  '/no-h1': { title: `Cabinets built to last${SUFFIX}`, description: desc('cabinets'), body: `<h2>Cabinets</h2><p>${prose('cabinets')}</p>` },
  '/images': {
    title: `Roses in our garden${SUFFIX}`, description: desc('roses'),
    body: `<header><a href="/"><img src="/media/oak-and-co.png"></a></header><h1>Roses</h1><img src="/media/red-rose-bush-1024x768.jpg"><img src="/media/IMG_2041.JPG"><img src="/media/roses-banner.jpg"><a href="https://ads.example.net/click?id=7"><img src="/media/garden-hose-reel.jpg"></a><p>${prose('rose beds')}</p>`,
    head: '<script type="application/ld+json">{"@type": "Product",}</script>',
  },
  '/new': { title: `Our new catalogue of desks${SUFFIX}`, description: desc('desks'), body: `<h1>Desks</h1><p>${prose('desks')}</p>` },
  '/canon': { title: `Wardrobes from oak and ash${SUFFIX}`, description: desc('wardrobes'), body: `<h1>Wardrobes</h1><p>${prose('wardrobes')}</p>`, canonical: '/gone' },
  '/shelves-guide': { title: `A guide to oak shelves${SUFFIX}`, description: desc('the shelf guide'), body: `<h1>Shelf guide</h1><p>${prose('shelf guides')}</p>` },
  '/orphan': { title: `Oak shelves made to measure${SUFFIX}`, description: desc('made-to-measure shelves'), body: `<h1>Shelves</h1><p>${prose('shelves')}</p>` },
};

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [owner, admin] = await Promise.all([signUp(ctx), signUp(ctx, { role: 'admin' })]);
  const routes: Parameters<typeof startFixtureSite>[0] = {
    '/old': { status: 301, headers: { location: '/new' } },
    '/robots.txt': () => ({ headers: { 'content-type': 'text/plain' }, body: `User-agent: *\n${robotsRules}\nSitemap: ${site.origin}/sitemap.xml\n` }),
    '/sitemap.xml': () => ({
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/orphan', '/gone'].map((p) => `<url><loc>${site.origin}${p}</loc></url>`).join('')}</urlset>`,
    }),
  };
  for (const [path, p] of Object.entries(PAGES)) {
    routes[path] = () => ({ body: doc(p.title, p.description, p.body, p.head).replace('CANONICAL', `${site.origin}${p.canonical ?? path}`) });
  }
  site = await startFixtureSite(routes);
});
after(async () => {
  await site.close();
  await ctx.close();
});

async function auditAndWait(siteId: string) {
  const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId } });
  for (let i = 0; i < 100; i++) {
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken });
    // Done when the strategy agent has run on the stored audit too.
    if (latest.data.id === started.data.id && latest.data.agent_summary !== null) return latest.data;
    await sleep(200);
  }
  throw new Error('audit did not complete: ' + JSON.stringify((await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data).slice(0, 500));
}

describe('the strategy agent', () => {
  let siteId: string;
  let audit: { id: string; agent_summary: { proposed: number } };
  const tasks = new Map<string, Record<string, any>>();
  const task = (type: string, path: string) => {
    const found = tasks.get(`${type} ${site.origin}${path}`);
    assert.ok(found, `${type} for ${path} among: ${[...tasks.keys()].join(', ')}`);
    return found;
  };

  before(async () => {
    siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Fixture', domain: site.host } })).data.id;
    // Search Console knows /no-desc well: 2,800 impressions in 28 days.
    const rows = Array.from({ length: 28 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 10, 18) - i * 86_400_000).toISOString().slice(0, 10), query: 'oak tables', page: `${site.origin}/no-desc`, clicks: 3, impressions: 100, position: 7,
    }));
    await createSearchDataRepo(ctx.database.db).replaceQueryDays(siteId, [], rows);
    audit = await auditAndWait(siteId);
    const list: Array<Record<string, any>> = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}&page_size=100`, token: owner.accessToken })).data.items;
    assert.equal(list.length, audit.agent_summary.proposed);
    for (const item of list) {
      const full = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${item.id}`, token: owner.accessToken })).data;
      tasks.set(`${full.type} ${full.target}`, full);
    }
  });

  it('proposes every task type its findings call for, each awaiting approval with evidence from the audit', () => {
    assert.deepEqual([...new Set([...tasks.values()].map((t) => t.type))].sort(), [
      'add_image_alt_text', 'add_internal_links', 'add_structured_data', 'expand_thin_content', 'fix_broken_links', 'fix_canonical',
      'fix_duplicate_meta_description', 'fix_h1', 'fix_missing_meta_description', 'fix_redirect_chains', 'fix_sitemap_errors', 'fix_title_tag',
    ]);
    for (const t of tasks.values()) {
      assert.equal(t.status, 'awaiting_approval');
      assert.ok(t.evidence.length > 0 && t.evidence.every((e: { audit_id: string }) => e.audit_id === audit.id), `${t.type}: evidence from the audit`);
    }
  });

  it('drafts descriptions and titles from the page itself, unique and within bounds', () => {
    const description = task('fix_missing_meta_description', '/no-desc');
    assert.equal(description.configuration.before, null);
    assert.ok(prose('oak tables').startsWith(description.configuration.after.replace(/…$/, '')));
    assert.ok(description.configuration.after.length >= 80 && description.configuration.after.length <= 160);
    assert.deepEqual([description.category, description.evidence[0].check_id], ['seo', 'meta_description_missing']);
    assert.equal(description.priority, 'high', 'a warning (medium), raised for a page with 2,800 impressions in 28 days');
    assert.deepEqual(description.evidence[0].search, { clicks_28d: 84, impressions_28d: 2800 }, 'the page\'s search metrics are evidence');
    assert.equal(task('fix_duplicate_meta_description', '/dup/copy').priority, 'medium', 'no search data: severity alone');

    const duplicate = task('fix_duplicate_meta_description', '/dup/copy');
    assert.equal(duplicate.configuration.before, desc('benches'));
    assert.deepEqual(duplicate.configuration.shared_with, [`${site.origin}/dup`], 'the shorter URL keeps the shared description');
    assert.equal(duplicate.configuration.after, 'Kitchen benches in oak and ash, built to fit the room they stand in and made to seat a family for decades.', 'its standfirst, with its full stop');
    assert.deepEqual([duplicate.configuration.drafted_from, description.configuration.drafted_from], ['standfirst', 'lead']);
    assert.notEqual(duplicate.configuration.after, description.configuration.after);
    assert.ok(!tasks.has(`fix_duplicate_meta_description ${site.origin}/dup`));

    const title = task('fix_title_tag', '/bad-title');
    assert.deepEqual([title.configuration.before, title.configuration.after], ['Hi', `Handmade oak chairs${SUFFIX}`]);
  });

  it('proposes heading, image, link, canonical, sitemap and content fixes with concrete values', () => {
    assert.deepEqual(task('fix_h1', '/two-h1').configuration.before, ['Stools', 'Our story']);
    assert.deepEqual([task('fix_h1', '/no-h1').configuration.issue, task('fix_h1', '/no-h1').configuration.after], ['missing', 'Cabinets built to last']);
    assert.deepEqual(task('add_image_alt_text', '/images').configuration.images, [{ src: `${site.origin}/media/red-rose-bush-1024x768.jpg`, alt: 'Red rose bush' }]);
    assert.equal(task('fix_broken_links', '/').configuration.changes[0].link_to, `${site.origin}/gone`);
    assert.deepEqual(task('fix_redirect_chains', '/').configuration.changes, [{ link_to: `${site.origin}/old`, final_url: `${site.origin}/new` }]);
    assert.equal(task('fix_canonical', '/canon').configuration.after, `${site.origin}/canon`, 'a canonical to an error page becomes self-referencing');
    const links = task('add_internal_links', '/orphan').configuration;
    assert.equal(links.anchor_text, 'Oak shelves made to measure');
    assert.equal(links.sources[0].url, `${site.origin}/shelves-guide`, 'the page whose title shares the most words');
    const sitemap = task('fix_sitemap_errors', '/sitemap.xml').configuration;
    assert.deepEqual(sitemap.changes.map((c: { url: string; problem: string }) => [c.url, c.problem]), [[`${site.origin}/gone`, 'sitemap_broken_url']]);
    assert.equal(task('add_structured_data', '/images').configuration.issue, 'invalid');
    const jsonLd = task('add_structured_data', '/').configuration.json_ld;
    assert.deepEqual(jsonLd, { '@context': 'https://schema.org', '@type': 'WebSite', name: 'Fixture Shop', url: `${site.origin}/` });
    const thin = task('expand_thin_content', '/thin');
    assert.deepEqual([thin.category, thin.configuration.topic, thin.configuration.existing_headings], ['content', 'Thin', ['Sizes']]);
  });

  it('records what its gates refused, with the reason, for admins', async () => {
    const rejections = await call(ctx, { method: 'GET', url: `/api/v1/admin/task-rejections?site_id=${siteId}&page_size=100`, token: admin.accessToken });
    assert.equal(rejections.statusCode, 200);
    const reason = (type: string, path: string) =>
      rejections.data.items.find((r: { type: string; target: string }) => r.type === type && r.target === `${site.origin}${path}`)?.reason;
    assert.match(reason('expand_thin_content', '/contact'), /utility page/);
    const rule = (type: string, path: string) =>
      rejections.data.items.find((r: { type: string; target: string }) => r.type === type && r.target === `${site.origin}${path}`)?.rule;
    assert.equal(rule('fix_missing_meta_description', '/gates'), 'pronoun', 'a drafting refusal records its rule\'s id');
    assert.match(reason('fix_missing_meta_description', '/gates'), /it opens "They hang true for decades in any weather\.", which opens with a pronoun/);
    assert.equal(rule('expand_thin_content', '/contact'), null, 'no drafting rule decided that one');
    const altRefusals = rejections.data.items.filter((r: { type: string; target: string }) => r.type === 'add_image_alt_text' && r.target === `${site.origin}/images`)
      .map((r: { reason: string }) => r.reason).join('\n');
    assert.match(altRefusals, /nor a caption is words a reader would use: \/media\/IMG_2041\.JPG/);
    assert.match(altRefusals, /logos, icons, banners, spacers, ads .*: \/media\/oak-and-co\.png, \/media\/roses-banner\.jpg, \/media\/garden-hose-reel\.jpg/, 'the header\'s logo, a banner and an ad (a link to another site) are not described');
    assert.ok(!tasks.has(`expand_thin_content ${site.origin}/contact`));
  });

  it('does not propose an open task twice when the next audit finds the same problems', async () => {
    const second = await auditAndWait(siteId);
    assert.equal(second.agent_summary.proposed, 0);
    const again = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}&page_size=100`, token: owner.accessToken })).data;
    assert.equal(again.total, tasks.size);
    const later = await call(ctx, { method: 'GET', url: `/api/v1/admin/task-rejections?site_id=${siteId}&page_size=100`, token: admin.accessToken });
    assert.ok(later.data.items.some((r: { reason: string }) => /already covers/.test(r.reason)));
  });

  it('drafts from what the crawl kept: a drafted page is downloaded once, by the crawl', () => {
    // Two audits ran; the agent drafted /no-desc and /bad-title after each without fetching them again.
    assert.equal(site.hitsFor('/no-desc').length, 2);
    assert.equal(site.hitsFor('/bad-title').length, 2);
  });

  it('withdraws proposals whose problem a later audit no longer finds, or whose page is now blocked, with the reason', async () => {
    PAGES['/no-desc']!.description = desc('oak tables, now described');
    robotsRules = 'Disallow: /two-h1';
    try {
      const third = await auditAndWait(siteId);
      const detail = async (type: string, path: string) => (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${task(type, path).id}`, token: owner.accessToken })).data;
      const fixed = await detail('fix_missing_meta_description', '/no-desc');
      assert.equal(fixed.status, 'cancelled');
      const last = fixed.execution_history.at(-1);
      assert.deepEqual([last.from, last.to, last.actor], ['awaiting_approval', 'cancelled', 'agent:strategy']);
      assert.match(last.detail.reason, new RegExp(`audit ${third.id}: the problem is no longer found`));
      const blocked = await detail('fix_h1', '/two-h1');
      assert.equal(blocked.status, 'cancelled');
      assert.match(blocked.execution_history.at(-1).detail.reason, /blocked by robots\.txt/);
      assert.equal((await detail('fix_title_tag', '/bad-title')).status, 'awaiting_approval', 'its problem is still there');
    } finally {
      PAGES['/no-desc']!.description = null;
      robotsRules = 'Allow: /';
    }
  });

  it('shows rejections to admins only', async () => {
    const res = await call(ctx, { method: 'GET', url: '/api/v1/admin/task-rejections', token: owner.accessToken });
    assert.equal(res.statusCode, 403);
  });
});

describe('the strategy agent on a site hidden from search engines', () => {
  it('proposes a critical fix_indexing_block for a robots.txt that blocks everything', async (t) => {
    const hidden = await startFixtureSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
      '/': { body: doc(`Welcome to the hidden shop${SUFFIX}`, desc('the hidden shop'), `<h1>Hidden</h1><p>${prose('hidden things')}</p>`).replace('CANONICAL', 'http://x/') },
    });
    t.after(() => hidden.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Hidden', domain: hidden.host } })).data.id;
    await auditAndWait(siteId);
    const items: Array<Record<string, any>> = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}`, token: owner.accessToken })).data.items
      .filter((x: { type: string }) => x.type === 'fix_indexing_block');
    const robots = items.find((x) => x.title.includes('crawl'));
    assert.ok(robots, JSON.stringify(items));
    assert.equal(robots.priority, 'critical');
    const full = (await call(ctx, { method: 'GET', url: `/api/v1/tasks/${robots.id}`, token: owner.accessToken })).data;
    assert.equal(full.category, 'technical');
    assert.equal(full.target, `${hidden.origin}/robots.txt`);
    assert.match(full.configuration.instructions, /Disallow: \//);
  });
});

describe('the strategy agent on a documentation site with a heavy template', () => {
  const VERSION = ' - Example Server Documentation Version 2.4';
  const TOPICS: Record<string, { topic: string; text: string }> = {
    '/guide/': { topic: 'Getting started with the example server', text: 'The example server answers web requests from a single configuration file. This guide walks through installing it, starting it and serving a first page.' },
    '/vhosts.html': { topic: 'Configuring virtual hosts on one machine', text: 'Virtual hosts let one machine serve many web sites, each under its own name. The server picks the host from the name the browser asks for.' },
    '/caching.html': { topic: 'Caching answers to save work on the server', text: 'Caching keeps recent answers close to the reader so that the server does less work. Cached answers expire after the time their headers allow.' },
    '/logging.html': { topic: 'Logging requests and errors for later review', text: 'Every request can be written to an access log for later review. Errors go to their own log, with the time and the client that caused them.' },
    '/rewrite.html': { topic: 'Rewriting request addresses with simple rules', text: 'Rewrite rules change the address of a request before the server maps it to a file. Each rule matches a pattern and names the new address.' },
    '/auth.html': { topic: 'Protecting directories with user passwords', text: 'Password protection asks a visitor for a user name and password before serving a directory. Passwords are stored hashed in a file of their own.' },
    '/ssl.html': { topic: 'Serving pages over encrypted connections', text: 'Encrypted connections protect what visitors send and receive from anyone listening on the network. The server needs a certificate and its private key.' },
    '/mpm.html': { topic: 'Choosing how the server handles many requests', text: 'Processing modules decide how the server runs requests in parallel: processes, threads, or events. The right one depends on the platform and the load.' },
    '/filters.html': { topic: 'Filtering content on its way to the browser', text: 'Filters change content on its way from the server to the browser, for example to compress it. Several filters can run one after another on one answer.' },
    '/thin.html': { topic: 'Upgrading from an older release', text: 'Read the release notes first.' },
  };
  const template = (topic: string, body: string, langs = 'de | en | fr') => `<!doctype html><html lang="en"><head><title>${topic}${VERSION}</title></head><body>
<div id="page-header"><p class="menu"><a href="/mod/">Modules</a> | <a href="/dirs/">Directives</a> | <a href="/faq/">FAQ</a> | <a href="/glossary/">Glossary</a></p>
<p class="banner">Example Server Documentation Version 2.4</p></div>
<div id="page-content"><h1>${topic}</h1>
<div class="toplang"><p><span>Available Languages: </span>${langs.split(' | ').map((l) => `<a href="/${l}/" hreflang="${l}">${l}</a>`).join(' | ')}</p></div>
<div class="note"><p>This is the documentation of a release that is no longer maintained. Read the documentation of the current release.</p></div>
${body}</div><div id="footer"><p>Copyright 2026 The Example Foundation. Licensed under the Example License, Version 2.0.</p></div></body></html>`;

  it('drafts from the page\'s own text only, keeps topics whole, prioritises by weight, and canonicalises one page under two URLs', async (t) => {
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: template('Example Server Documentation', `<p>This is the documentation of the example server, a small web server for teaching.</p>${Object.keys(TOPICS).map((p) => `<p><a href="${p}">${TOPICS[p]!.topic}</a></p>`).join('')}<p><a href="/guide/index.html">Guide (index)</a></p>`) },
    };
    for (const [path, { topic, text }] of Object.entries(TOPICS)) {
      const comments = path === '/thin.html' ? '<div id="comments"><h3>Leave a Reply</h3><p>Your email address will not be published.</p></div>' : '';
      const body = path === '/thin.html' ? `<h2>Before you start</h2><p>${text}</p>${comments}` : `<p>${text}</p><h2>Details</h2><p>${text.split('. ')[0]} in more depth, with examples for common setups.</p>${'<p>More words about the topic follow here to make the page long enough for the checks.</p>'.repeat(25)}`;
      routes[path] = { body: template(topic, body) };
    }
    routes['/guide/index.html'] = routes['/guide/']!;
    const docs = await startFixtureSite(routes);
    t.after(() => docs.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Docs', domain: docs.host } })).data.id;
    const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId } });
    for (let i = 0; i < 100; i++) {
      const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken });
      if (latest.data.id === started.data.id && latest.data.agent_summary !== null) break;
      await sleep(200);
    }
    const rows = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).execute();
    const of = (type: string) => rows.filter((r) => r.type === type);
    const after = (r: { configuration: unknown }) => String((r.configuration as { after: unknown }).after);

    // One problem on many pages is one task, each page with its own values.
    assert.equal(of('fix_missing_meta_description').length, 1, 'the missing descriptions are one task');
    const descriptions = of('fix_missing_meta_description').flatMap((r) => pagesOf(r));
    assert.ok(descriptions.length >= 9, `${descriptions.length} descriptions`);
    for (const d of descriptions) {
      assert.doesNotMatch(after(d), /Available Languages|Modules \||Version 2\.4|no longer maintained|Copyright|Leave a Reply|…|\.\.\.$|\uFFFD/, after(d));
      const path = new URL(d.target).pathname;
      if (TOPICS[path]) assert.ok(TOPICS[path]!.text.startsWith(after(d)) || after(d).startsWith(TOPICS[path]!.text.split('. ')[0]!), `${path}: ${after(d)}`);
    }
    const titles = of('fix_title_tag').flatMap((r) => pagesOf(r));
    assert.ok(titles.length >= 8, `${titles.length} titles`);
    for (const title of titles) {
      const topic = TOPICS[new URL(title.target).pathname]?.topic;
      if (topic) assert.ok(after(title).startsWith(topic), `the topic stays whole: ${after(title)}`);
      assert.doesNotMatch(after(title), /( to| of| the| -|,|Version)$/);
    }
    const metaTitle = [...of('fix_missing_meta_description'), ...of('fix_title_tag')];
    const high = metaTitle.filter((r) => r.priority === 'high').length;
    assert.ok(high <= metaTitle.length / 3, `${high} of ${metaTitle.length} high`);

    const canonical = of('fix_canonical').find((r) => r.target === `${docs.origin}/guide/index.html`);
    assert.ok(canonical, 'the copy gets a canonical');
    assert.equal(after(canonical), `${docs.origin}/guide/`, 'to the directory URL');
    assert.ok(!titles.some((r) => r.target === `${docs.origin}/guide/index.html`), 'no title rewrite for the copy');
    const kept = titles.find((r) => r.target === `${docs.origin}/guide/`);
    assert.ok(!kept || !(kept.evidence as Array<{ check_id: string }>).some((e) => e.check_id === 'title_duplicate'), 'nor for a duplicate only the copy causes');

    const thin = of('expand_thin_content').find((r) => r.target === `${docs.origin}/thin.html`);
    assert.ok(thin);
    const config = thin.configuration as { instructions: string; existing_headings: string[]; page_kind: string };
    assert.doesNotMatch(config.instructions, /buyers/);
    assert.deepEqual(config.existing_headings, ['Before you start'], 'the comments heading is not the page\'s');
    assert.match(config.instructions, /Keep the existing headings and add sections under them\.$/);
    assert.equal(docs.hitsFor('/vhosts.html').length, 1, 'drafted from what the crawl kept, not downloaded again');
  });
});

describe('the strategy agent on a server that serves every directory page twice', () => {
  it('proposes the copies as one canonical task with each page\'s own canonical, and leaves what an open task covers out of the next', async (t) => {
    const topics = ['tables', 'chairs', 'benches', 'shelves', 'stools'];
    // Pages with no canonical of their own, as such servers serve them.
    const bare = (title: string, body: string) => doc(title, desc(title), body).replace('<link rel="canonical" href="CANONICAL">', '');
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: bare(`Home${SUFFIX}`, `<h1>Home</h1>${topics.map((p) => `<a href="/${p}/">${p}</a> <a href="/${p}/index.html">${p} (index)</a>`).join(' ')}<p>${prose('home goods')}</p>`) },
    };
    for (const topic of topics) {
      routes[`/${topic}/`] = { body: bare(`Oak ${topic} made by hand${SUFFIX}`, `<h1>Oak ${topic}</h1><p>${prose(topic)}</p>`) };
      routes[`/${topic}/index.html`] = routes[`/${topic}/`]!;
    }
    const copies = await startFixtureSite(routes);
    t.after(() => copies.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Copies', domain: copies.host } })).data.id;
    const audit = async () => {
      const started = await call(ctx, { method: 'POST', url: '/api/v1/audits', token: owner.accessToken, payload: { site_id: siteId } });
      for (let i = 0; i < 150; i++) {
        const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken });
        if (latest.data.id === started.data.id && latest.data.agent_summary !== null) return;
        await sleep(200);
      }
      throw new Error('the audit did not finish');
    };
    await audit();
    const canonicals = async () => (await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'fix_canonical').execute());
    const [task, ...more] = await canonicals();
    assert.ok(task && more.length === 0, 'one task for the five copies');
    const pages = pagesOf(task).map((p) => [new URL(p.target).pathname, new URL(String((p.configuration as { after: string }).after)).pathname]);
    assert.deepEqual(pages.sort(), topics.map((p) => [`/${p}/index.html`, `/${p}/`]).sort(), 'each copy points at its own directory URL');
    assert.match(task.title, /^Point 5 duplicate URLs/);

    await audit();
    assert.equal((await canonicals()).length, 1, 'the next audit finds the same copies: the open task covers them');

    // Approved and waiting for a worker, it still covers its pages: the next audit proposes none of
    // them again. (Its target moved aside, so the open-task index alone would not stop a new one.)
    await sql`update tasks set status = 'queued', target = ${`${copies.origin}/moved-aside`} where id = ${task.id}`.execute(ctx.database.db);
    await audit();
    assert.deepEqual((await canonicals()).map((c) => c.id), [task.id], 'a queued task covers its pages too');
  });
});


describe('the strategy agent on a site whose template prints its name as an h1 and one description on every page', () => {
  it('keeps each page\'s own h1 (not the header\'s), and gives the pages their own descriptions in one task', async (t) => {
    const NAME = 'The Rose Growers Handbook';
    const shared = 'The Rose Growers Handbook: everything we know about growing roses, from planting to pruning.';
    const topics = ['climbing roses', 'rambling roses', 'shrub roses', 'pruning tools', 'rose feeding', 'black spot', 'aphids', 'rose hips', 'cuttings', 'grafting', 'winter care', 'soil'];
    const page = (title: string, h1: string | null) => doc(`${title} | Rose Growers`, shared,
      `<header><h1 class="menu-title">${NAME}</h1></header><main>${h1 ? `<h1>${h1}</h1>` : ''}<p>${prose(title.toLowerCase())}</p></main>`).replace('<link rel="canonical" href="CANONICAL">', '');
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: page('Home', null).replace('<main>', `<main>${topics.map((p) => `<a href="/${p.replace(' ', '-')}.html">${p}</a>`).join(' ')}`) },
    };
    for (const topic of topics) routes[`/${topic.replace(' ', '-')}.html`] = { body: page(`Growing ${topic}`, `Growing ${topic}`) };
    const roses = await startFixtureSite(routes);
    t.after(() => roses.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Roses', domain: roses.host } })).data.id;
    await auditAndWait(siteId);
    const rows = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).execute();
    const of = (type: string) => rows.filter((r) => r.type === type);

    const [descriptions, ...more] = of('fix_duplicate_meta_description');
    assert.ok(descriptions && more.length === 0, `one task for the pages that share the template's description (${of('fix_duplicate_meta_description').length})`);
    const pages = pagesOf(descriptions);
    assert.equal(pages.length, topics.length, 'every page but the one that keeps it');
    for (const p of pages) {
      const config = p.configuration as { before: string; after: string; kept_by: string; shared_with?: string[] };
      assert.deepEqual([config.before, config.kept_by], [shared, `${roses.origin}/`]);
      assert.ok(prose(`growing ${new URL(p.target).pathname.slice(1, -5).replace('-', ' ')}`).startsWith(config.after), config.after);
      assert.equal(config.shared_with, undefined, '13 pages share it: not listed on each');
    }

    const h1s = of('fix_h1').flatMap((r) => pagesOf(r));
    assert.equal(h1s.length, topics.length);
    for (const h of h1s) {
      const config = h.configuration as { after: string; template_h1s: string[]; instructions: string };
      assert.equal(config.after, `Growing ${new URL(h.target).pathname.slice(1, -5).replace('-', ' ')}`, 'the page\'s own heading stays, though the header\'s comes first');
      assert.deepEqual(config.template_h1s, [NAME]);
      assert.match(config.instructions, /printed as an <h1> by the site's template on 12\+ pages: make it a <p> or <div>/);
    }
  });
});

describe('the strategy agent on a site whose pages do not declare their language', () => {
  it('declares each page\'s language as its text reads, in one task, and refuses a page too short to tell', async (t) => {
    const french = 'Nos tables sont fabriquées à la main dans notre atelier du Devon, une par une, et chacune est vérifiée deux fois avant de partir. Le chêne vient de forêts gérées durablement et sèche pendant deux ans avant la coupe. ';
    const bare = (title: string, body: string) => doc(title, desc(title), body).replace('<html lang="en">', '<html>').replace('<link rel="canonical" href="CANONICAL">', '');
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: bare(`Home${SUFFIX}`, `<h1>Home</h1><a href="/chairs">Chairs</a> <a href="/tables">Tables</a> <a href="/tables-fr">Tables (fr)</a> <a href="/hello">Hello</a><p>${prose('home goods')}</p>`) },
      '/chairs': { body: bare(`Oak chairs${SUFFIX}`, `<h1>Oak chairs</h1><p>${prose('oak chairs')}</p>`) },
      '/tables': { body: bare(`Oak tables${SUFFIX}`, `<h1>Oak tables</h1><p>${prose('oak tables')}</p>`) },
      '/tables-fr': { body: bare(`Tables en chêne${SUFFIX}`, `<h1>Tables en chêne</h1><p>${french.repeat(3)}</p>`) },
      '/hello': { body: bare(`Hello there${SUFFIX}`, '<h1>Hello</h1><p>Welcome to the shop.</p>') },
    };
    const shop = await startFixtureSite(routes);
    t.after(() => shop.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'No lang', domain: shop.host } })).data.id;
    await auditAndWait(siteId);
    const [task, ...more] = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'fix_html_lang').execute();
    assert.ok(task && more.length === 0, 'one task for the pages');
    const declared = Object.fromEntries(pagesOf(task).map((p) => [new URL(p.target).pathname, (p.configuration as { after: string; found_from: string }).after]));
    assert.deepEqual(declared, { '/': 'en', '/chairs': 'en', '/tables': 'en', '/tables-fr': 'fr' });
    assert.ok(pagesOf(task).every((p) => (p.configuration as { found_from: string }).found_from === 'text'));
    assert.equal(shop.hitsFor('/chairs').length, 1, 'its language read from what the crawl kept, not downloaded again');
    const [refusal] = await ctx.database.db.selectFrom('task_rejections').select(['target', 'reason']).where('site_id', '=', siteId).where('type', '=', 'fix_html_lang').execute();
    assert.equal(refusal?.target, `${shop.origin}/hello`);
    assert.match(refusal.reason, /too little text of its own \(\d+ characters\) to tell its language/);
  });
});

describe('the strategy agent on a site whose template leaves out the language of more pages than a task holds', () => {
  it('proposes one template setting, checked on ten of the pages, not a task per 50 pages', async (t) => {
    const bare = (title: string, body: string) => doc(title, desc(title), body).replace('<html lang="en">', '<html>').replace('<link rel="canonical" href="CANONICAL">', '');
    const names = Array.from({ length: 55 }, (_, i) => `oak-item-${i}`);
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: bare(`Home${SUFFIX}`, `<h1>Home</h1>${names.map((n) => `<a href="/${n}">${n}</a>`).join(' ')}<p>${prose('home goods')}</p>`) },
    };
    for (const n of names) routes[`/${n}`] = { body: bare(`${n}${SUFFIX}`, `<h1>${n}</h1><p>${prose(n.replaceAll('-', ' '))}</p>`) };
    const shop = await startFixtureSite(routes);
    t.after(() => shop.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Template lang', domain: shop.host } })).data.id;
    await auditAndWait(siteId);
    const tasks = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'fix_html_lang').execute();
    assert.equal(tasks.length, 1, `one task (${tasks.length})`);
    const config = tasks[0]!.configuration as { after: string; site_wide: { pages: number; examples: string[] }; pages?: unknown };
    assert.equal(config.after, 'en');
    assert.equal(config.site_wide.pages, 56);
    assert.equal(config.site_wide.examples.length, 10);
    assert.equal(tasks[0]!.target, `${shop.origin}/`, 'named by the shortest URL');
  });
});

describe('the strategy agent on thin pages that are short by nature', () => {
  it('briefs a numbered chapter by its topic, leaves release notes and source listings alone with the reason, and says what to do with an h1 printed twice', async (t) => {
    const bare = (title: string, body: string) => doc(title, desc(title), body).replace('<link rel="canonical" href="CANONICAL">', '');
    const code = Array.from({ length: 12 }, (_, i) => `def handler_${i}(request):\n    return respond(request, status=${200 + i})\n`).join('');
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: bare(`Home${SUFFIX}`, `<h1>Home</h1><a href="/bios.html">BIOS</a> <a href="/releases/2.1.3.html">2.1.3</a> <a href="/_modules/app/views.html">views</a> <a href="/manual.html">manual</a> <a href="/manual-copy.html">manual</a> <a href="/collections/blends">Blends</a> <a href="/collections/gifts">Gifts</a> <a href="/near.html">Delivery</a> <a href="/collections/mugs">Mugs</a> <a href="/products/kenya">Kenya</a> <a href="/treatments.html">Treatments</a> <a href="/index.html">Welcome</a><p>${prose('home goods')}</p>`) },
      '/collections/blends': { body: bare(`Blends${SUFFIX}`, '<h1>Blends</h1><p>Our blends are built for espresso and milk drinks, roasted a little darker so that they stay sweet and round in a flat white.</p><ul><li>Lighthouse</li><li>Harbour</li></ul>') },
      // (Its product cards are lists of links: a hub's shape, which on a category is what it lists.)
      '/collections/gifts': { body: bare(`Gifts${SUFFIX}`, `<h1>Gifts</h1>${['Gift card', 'Tasting box', 'Mug'].map((p) => `<ul><li><a href="/products/${p.length}">${p}</a></li></ul>`).join('')}`) },
      // A category of nine cards, 180 words or so, and no introduction: what it lacks is one, whatever its cards add up to.
      '/collections/mugs': { body: bare(`Mugs${SUFFIX}`, `<h1>Mugs</h1><ul>${Array.from({ length: 9 }, (_, i) => `<li>Mug ${i} in stoneware glazed by hand in our Devon workshop with a wide handle and a speckled oatmeal finish inside</li>`).join('')}</ul>`) },
      '/treatments.html': { body: bare(`Dental treatments${SUFFIX}`, '<h1>Dental treatments</h1><p>We see toothaches and broken teeth the same day.</p>') },
      // (The home page under its other address, thin: asked for no word count.)
      '/index.html': { body: bare(`Welcome${SUFFIX}`, '<h1>Welcome</h1><p>Handmade oak furniture from Devon.</p>') },
      '/products/kenya': { body: bare(`Kenya Nyeri AA${SUFFIX}`, '<h1>Kenya Nyeri AA</h1><p>Trust us, you will love it!</p><ul><li>Origin: Nyeri, Kenya</li><li>Process: Washed</li><li>Roast: Light</li></ul>') },
      // 190 words or so: a few short of the thin-content line.
      '/near.html': { body: bare(`Delivery${SUFFIX}`, `<h1>Delivery</h1><p>${'We deliver every order by van within the week. '.repeat(20).trim()}</p>`) },
      '/manual.html': { body: bare(`The Shop Manual${SUFFIX}`, `<h1>The Shop Manual</h1><h1>The Shop Manual</h1><p>${prose('the manual')}</p>`) },
      '/manual-copy.html': { body: bare(`The Shop Manual${SUFFIX}`, `<h1>The Shop Manual</h1><h1>The Shop Manual</h1><p>${prose('the manual')}</p>`) },
      '/bios.html': { body: bare(`4.3. Change the BIOS (again)${SUFFIX}`, '<h1>4.3. Change the BIOS (again)</h1><p>Set a password on the BIOS so that nobody can boot another disk.</p>') },
      '/releases/2.1.3.html': { body: bare(`Shop 2.1.3 release notes${SUFFIX}`, '<h1>Shop 2.1.3 release notes</h1><p>Shop 2.1.3 fixes a regression in 2.1.2.</p><h2>Bugfixes</h2><ul><li>Fixed a crash in the basket.</li></ul>') },
      '/_modules/app/views.html': { body: bare(`app.views${SUFFIX}`, `<h1>Source code for app.views</h1><div class="highlight"><pre>${code}</pre></div>`) },
    };
    const shop = await startFixtureSite(routes);
    t.after(() => shop.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Short by nature', domain: shop.host } })).data.id;
    await auditAndWait(siteId);
    const tasks = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'expand_thin_content').execute();
    const briefs = tasks.flatMap((task) => pagesOf(task));
    assert.deepEqual(briefs.map((b) => new URL(b.target).pathname).sort(), ['/bios.html', '/collections/gifts', '/collections/mugs', '/products/kenya', '/treatments.html']);
    const instructionsOf = (path: string) => (briefs.find((b) => b.target.endsWith(path))!.configuration as { instructions: string }).instructions;
    assert.match(instructionsOf('/treatments.html'), /Anything medical, legal or financial is checked by a qualified person/);
    assert.doesNotMatch(instructionsOf('/products/kenya'), /qualified person/);
    assert.match((briefs.find((b) => b.target.endsWith('/kenya'))!.configuration as { instructions: string }).instructions,
      /"Kenya Nyeri AA": what its specification lines \(Origin, Process, Roast\) mean for a buyer, said in sentences/);
    assert.ok((briefs.find((b) => b.target.endsWith('/mugs'))!.configuration as { current_words: number }).current_words >= 180, 'near the line, and briefed all the same');
    const gifts = briefs.find((b) => b.target.endsWith('/gifts'))!.configuration as { page_kind: string; target_words: number; instructions: string };
    assert.deepEqual([gifts.page_kind, gifts.target_words], ['category', 200], 'a category with no introduction is asked for one, not 300 words');
    assert.match(gifts.instructions, /a short introduction above what it lists/);
    assert.match(gifts.instructions, /Only facts the site can stand behind/);
    assert.match(gifts.instructions, /no invented claims, figures or testimonials\.$/, 'no headings of its own to keep: none asked for');
    assert.equal((briefs[0]!.configuration as { topic: string }).topic, 'Change the BIOS (again)', 'the book\'s numbering is not the topic');
    const refusals = await ctx.database.db.selectFrom('task_rejections').select(['target', 'reason']).where('site_id', '=', siteId).where('type', '=', 'expand_thin_content').execute();
    const reason = (path: string) => refusals.find((r) => r.target === `${shop.origin}${path}`)?.reason;
    assert.match(reason('/releases/2.1.3.html') ?? '', /release notes or a changelog/);
    assert.match(reason('/index.html') ?? '', /^the home page: it leads visitors to the site's sections/);
    assert.match(reason('/near.html') ?? '', /^1[89]\d words, \d+ short of the 200 the thin-content check asks/);
    assert.match(reason('/collections/blends') ?? '', /^a category page with its introduction \("Our blends are built for espresso/);
    assert.match(reason('/_modules/app/views.html') ?? '', /mostly code \(\d+ characters of code against \d+ of prose\)/);

    const [h1] = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'fix_h1').execute();
    assert.deepEqual(pagesOf(h1!).map((p) => new URL(p.target).pathname), ['/manual.html'], 'the copy of the page is fixed by its canonical, not twice');
    const [copy] = await ctx.database.db.selectFrom('task_rejections').select('reason').where('site_id', '=', siteId).where('type', '=', 'fix_h1').execute();
    assert.equal(copy?.reason, `serves the same page as ${shop.origin}/manual.html: its fix is a canonical to it, and this change is made there`);
    const twice = pagesOf(h1!).find((p) => p.target === `${shop.origin}/manual.html`)!.configuration as { instructions: string };
    assert.equal(twice.instructions, 'Keep "The Shop Manual" as the only <h1>; remove the second <h1>, which repeats it (or make it <h2> if a section starts there).');
  });
});

describe('the strategy agent on a site whose template causes an h1 problem on more pages than a task lists', () => {
  it('proposes one template change for each cause, checked on ten of the pages, not a task per 50 pages', async (t) => {
    const bare = (title: string, body: string) => doc(title, desc(title), body).replace('<link rel="canonical" href="CANONICAL">', '');
    const named = Array.from({ length: 55 }, (_, i) => `oak-table-${i}`);
    const docs = Array.from({ length: 55 }, (_, i) => `chapter-${i}`);
    const routes: Parameters<typeof startFixtureSite>[0] = {
      '/': { body: bare(`Home${SUFFIX}`, `<h1>Home</h1>${[...named, ...docs].map((n) => `<a href="/${n}">${n}</a>`).join(' ')}<p>${prose('home goods')}</p>`) },
    };
    for (const n of named) routes[`/${n}`] = { body: bare(`${n}${SUFFIX}`, `<header><h1>Oak Shop</h1></header><main><h1>${n}</h1><p>${prose(n.replaceAll('-', ' '))}</p></main>`) };
    for (const n of docs) routes[`/${n}`] = { body: bare(`Oak guide ${n}${SUFFIX}`, `<h2 class="title">Oak guide ${n}</h2><p>${prose(n.replaceAll('-', ' '))}</p>`) };
    const shop = await startFixtureSite(routes);
    t.after(() => shop.close());
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Template h1', domain: shop.host } })).data.id;
    await auditAndWait(siteId);
    const tasks = await ctx.database.db.selectFrom('tasks').selectAll().where('site_id', '=', siteId).where('type', '=', 'fix_h1').execute();
    assert.equal(tasks.length, 2, `one task per cause (${tasks.map((task) => task.title).join('; ')})`);
    const byIssue = Object.fromEntries(tasks.map((task) => [(task.configuration as { issue: string }).issue, task.configuration as Record<string, any>]));
    assert.deepEqual([byIssue.multiple!.site_wide.pages, byIssue.multiple!.site_wide.examples.length, byIssue.multiple!.template_h1s], [55, 10, ['Oak Shop']]);
    assert.match(byIssue.multiple!.instructions, /^In the site's template, print "Oak Shop" as a <p> or <div> styled as before, not an <h1>/);
    assert.deepEqual([byIssue.missing!.site_wide.pages, byIssue.missing!.promote.level], [55, 2]);
    assert.match(byIssue.missing!.instructions, /render the page's main heading \(now an <h2>, such as "Oak guide chapter-\d+"\) as an <h1>/);

    await auditAndWait(siteId);
    const again = await ctx.database.db.selectFrom('tasks').select('id').where('site_id', '=', siteId).where('type', '=', 'fix_h1').execute();
    assert.deepEqual(again.map((task) => task.id).sort(), tasks.map((task) => task.id).sort(), 'the next audit proposes neither cause again while its task is open');
  });
});
