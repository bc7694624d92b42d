import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { introductionOf, isHomePage, isReferenceEntry, pageKind, QUALIFIED_REVIEW, specificationKeys, writtenIn } from './planners/content.ts';
import { createPageReader, type AuditPage } from './planning-context.ts';
import { prioritiesByWeight, type PageWeight } from './proposal.ts';
import { findingKey, withdrawalReason, type WithdrawalInput } from './withdrawals.ts';
import { suffixForPage, suffixIsSiteWide } from './writers.ts';

describe('priority of page-level fixes', () => {
  // A documentation site: the home page, 20 pages one click away, 200 pages deeper.
  const pages: PageWeight[] = [
    { url: 'https://d.test/', isHome: true, depth: 0, inlinks: 0, impressions: 0 },
    ...Array.from({ length: 20 }, (_, i) => ({ url: `https://d.test/section-${i}/`, isHome: false, depth: 1, inlinks: 220, impressions: 0 })),
    ...Array.from({ length: 200 }, (_, i) => ({ url: `https://d.test/section-${i % 20}/page-${i}.html`, isHome: false, depth: 2 + (i % 4), inlinks: i % 3, impressions: 0 })),
  ];
  const site = pages.map((p) => p.inlinks);

  it('follows the page\'s weight: home and the most linked-to pages one click deep high, deep pages with one link in low', () => {
    const priorities = prioritiesByWeight(pages, site);
    assert.equal(priorities.get('https://d.test/'), 'high');
    assert.equal(priorities.get('https://d.test/section-3/'), 'high');
    assert.equal(priorities.get('https://d.test/section-7/page-7.html'), 'low', 'depth 5, one link in');
    assert.equal(priorities.get('https://d.test/section-0/page-0.html'), 'medium', 'depth 2');
  });

  it('gives search traffic its weight', () => {
    const deep = { url: 'https://d.test/deep.html', isHome: false, depth: 6, inlinks: 0, impressions: 4000 };
    assert.equal(prioritiesByWeight([...pages, deep], site).get(deep.url), 'high');
  });

  it('keeps at most 30% of them high, the heaviest first', () => {
    const few = pages.slice(0, 16); // the home page and 15 pages one click deep, all heavy
    const priorities = prioritiesByWeight(few, site);
    const high = [...priorities.values()].filter((p) => p === 'high').length;
    assert.equal(high, 4, `${high} of 16 high`);
    assert.equal(priorities.get('https://d.test/'), 'high');
  });
});

describe('briefs by kind of page', () => {
  it('tells documentation, articles and products apart from structured data, then the URL', () => {
    assert.equal(pageKind('https://d.test/docs/install.html', []), 'documentation');
    assert.equal(pageKind('https://d.test/anything', ['TechArticle']), 'documentation');
    assert.equal(pageKind('https://d.test/blog/2024/roses', []), 'article');
    assert.equal(pageKind('https://d.test/p/oak-table', ['Product']), 'product');
    assert.equal(pageKind('https://d.test/about-us', []), 'page');
    assert.equal(pageKind('https://d.test/collections/blends', []), 'category');
    assert.equal(pageKind('https://d.test/categorie-produit/velos-de-ville/', []), 'category');
    assert.equal(pageKind('https://d.test/collections/blends/products/lighthouse', []), 'product', 'a product inside a collection');
  });

  it('asks nothing of a home page, nor of a category page that introduces what it lists already (read by a shop\'s owner)', () => {
    const home = 'https://d.test/';
    for (const url of ['https://d.test/', 'https://d.test/index.html']) assert.equal(isHomePage(url, home), true, url);
    for (const url of ['https://d.test/about', 'https://d.test/index/roses', 'https://d.test/hr/', 'https://d.test/frindex.html']) {
      assert.equal(isHomePage(url, home), false, `${url}: not the site's own address (a language's root is not told from a two-letter page)`);
    }
    const intro = 'Single-origin coffees from farms we buy from directly, each roasted to bring out what makes its region taste the way it does.';
    assert.equal(introductionOf({ blocks: ['Sort by', intro, 'Guatemala Huehuetenango'], order: '1ppl' }), intro);
    const card = 'Guatemala Huehuetenango from Finca La Esperanza, a washed Bourbon and Caturra grown at 1,750 m, medium roast, with notes of milk chocolate, orange and toffee.';
    assert.equal(introductionOf({ blocks: ['Sort by', 'Kenya Nyeri AA', card], order: '1plp' }), undefined, 'past the first listed item: a card, not the introduction');
    assert.equal(introductionOf({ blocks: ['Sort by', card.replace(/\.$/u, ' – 250 g')], order: '1pp' }), undefined, 'a card ends no sentence');
  });

  it('names a product\'s specification lines for its brief, not opening hours, and only when there are three', () => {
    const coffee = ['Meet your new morning ritual.', 'Origin: Huehuetenango, Guatemala', 'Process: Washed', 'Variety: Bourbon, Caturra', 'Roast: Medium'];
    assert.deepEqual(specificationKeys(coffee), ['Origin', 'Process', 'Variety', 'Roast']);
    assert.deepEqual(specificationKeys(['Mon: 9am–5pm', 'Tue: 9am–5pm', 'Sat: closed', 'Origin: Kenya']), []);
    assert.deepEqual(specificationKeys(coffee.slice(0, 3)), []);
    assert.deepEqual(specificationKeys(['Note: wash before use.', 'Made in Devon.', 'Tip: oil it yearly.', 'Sizes vary.', 'Price: $12']), [], 'scattered lines, no run of them');
  });

  it(`${QUALIFIED_REVIEW.id}: asks for a qualified person's check on a page of health, law or money, not on a coffee's`, () => {
    assert.equal(QUALIFIED_REVIEW.pattern.test(QUALIFIED_REVIEW.example), true);
    assert.equal(QUALIFIED_REVIEW.pattern.test(QUALIFIED_REVIEW.counterExample), false);
    for (const text of ['Cabinet dentaire à Lyon', 'Ihre Zahnarztpraxis in Köln', 'Fixed-rate mortgages explained', 'Nuestros abogados', 'Nos médecins']) assert.ok(QUALIFIED_REVIEW.pattern.test(text), text);
    for (const text of ['An investment piece for your wardrobe', 'Avocat et crevettes', 'A medicine ball for the gym']) assert.equal(QUALIFIED_REVIEW.pattern.test(text), false, text);
  });

  it('says in which language to write a page that is not in English (a French shop\'s brief did not)', () => {
    assert.equal(writtenIn('fr-FR'), 'Write in French, the page\'s language.');
    assert.equal(writtenIn('en-GB'), '');
    assert.equal(writtenIn(null), '');
  });

  it('leaves reference entries (manual pages, API entries) out of thin-content briefs, not articles or shop pages', () => {
    assert.equal(isReferenceEntry('git-citool(1) Manual Page', ['NAME', 'SYNOPSIS', 'DESCRIPTION']), true, 'a manual section in the title');
    assert.equal(isReferenceEntry('printf', ['Synopsis', 'Return value', 'See also']), true, 'reference sections');
    assert.equal(isReferenceEntry('Contact us', ['Opening hours', 'Find us']), false);
    assert.equal(isReferenceEntry('Oak tables (2 sizes)', ['Description', 'Delivery']), false, 'brackets are not a manual section');
    assert.equal(isReferenceEntry('Growing roses', ['Usage']), false, 'one reference-like heading is not enough');
  });
});

describe('a translated page\'s title', () => {
  it('keeps the suffix its own language uses', () => {
    const suffixes = [' - Apache HTTP Server Version 2.4', ' - Serveur HTTP Apache Version 2.4'];
    assert.equal(suffixForPage('Cache - Serveur HTTP Apache Version 2.4', suffixes), ' - Serveur HTTP Apache Version 2.4');
    assert.equal(suffixForPage(null, suffixes), ' - Apache HTTP Server Version 2.4');
    assert.equal(suffixForPage('htdbm - Manipulate DBM password databases', suffixes), '', 'a title with a separator of its own keeps no foreign suffix');
    assert.equal(suffixForPage('Hi', suffixes), ' - Apache HTTP Server Version 2.4', 'the site\'s convention for a title without one');
    assert.equal(suffixForPage('Russia and Syria: Forces Blocking Refugee Return', [' - WSJ'], false), '', 'one publisher\'s suffix on a site of many is not another\'s');
    assert.equal(suffixIsSiteWide(['A - WSJ', 'B - WSJ', 'C', 'D | Vox'], [' - WSJ']), true);
    assert.equal(suffixIsSiteWide(['A - WSJ', 'B - WSJ', 'C', 'D | Vox', 'E'], [' - WSJ']), false);
  });
});

describe('withdrawing a proposal', () => {
  const page = (url: string, status: number | null): AuditPage => ({ url, status, title: null, meta_description: null, depth: 1, inlinks: 1, content_hash: null, redirect_to: null });
  const input = (pages: AuditPage[], found: Array<[string, string]>, notIndexable: string[] = []): WithdrawalInput => ({
    pageByUrl: new Map(pages.map((p) => [p.url, p])), auditId: 'a2', checked: new Set(['meta_description_missing', 'links_to_redirect']),
    found: new Set(found.map(([check, url]) => findingKey(check, url))), indexable: (url) => !notIndexable.includes(url),
  });
  const task = { type: 'fix_missing_meta_description', target: 'https://d.test/a', configuration: { url: 'https://d.test/a' }, evidence: [{ check_id: 'meta_description_missing', url: 'https://d.test/a' }] };

  it('stands while the latest audit still finds its problem', () => {
    assert.equal(withdrawalReason(task, input([page('https://d.test/a', 200)], [['meta_description_missing', 'https://d.test/a']])), undefined);
  });

  it('goes when the problem is fixed, the page is blocked, gone or no longer indexable', () => {
    assert.match(withdrawalReason(task, input([page('https://d.test/a', 200)], []))!, /the problem is no longer found/);
    assert.match(withdrawalReason(task, input([page('https://d.test/a', null)], []))!, /blocked by robots\.txt/);
    assert.match(withdrawalReason(task, input([page('https://d.test/a', 410)], []))!, /gone \(it answers 410\)/);
    assert.match(withdrawalReason(task, input([page('https://d.test/a', 200)], [['meta_description_missing', 'https://d.test/a']], ['https://d.test/a']))!, /no longer asks to be indexed/);
  });

  it('stays when the crawl did not reach its page, or its evidence is of a check not planned from', () => {
    assert.equal(withdrawalReason(task, input([], [])), undefined);
    const other = { ...task, evidence: [{ check_id: 'keyword_gap', url: 'https://d.test/a' }] };
    assert.equal(withdrawalReason(other, input([page('https://d.test/a', 200)], [])), undefined);
  });
});

describe('withdrawing a task that covers several pages', () => {
  const page = (url: string, status: number | null): AuditPage => ({ url, status, title: null, meta_description: null, depth: 1, inlinks: 1, content_hash: null, redirect_to: null });
  const urls = ['https://d.test/a', 'https://d.test/b', 'https://d.test/c'];
  const input = (found: string[], pages = urls.map((u) => page(u, 200))): WithdrawalInput => ({
    pageByUrl: new Map(pages.map((p) => [p.url, p])), auditId: 'a2', checked: new Set(['meta_description_missing']),
    found: new Set(found.map((url) => findingKey('meta_description_missing', url))), indexable: () => true,
  });
  const group = {
    type: 'fix_missing_meta_description', target: urls[0]!,
    configuration: { pages: urls.map((url) => ({ url, before: null, after: 'x' })) },
    evidence: urls.map((url) => ({ check_id: 'meta_description_missing', url })),
  };

  it('stands while every page still has the problem', () => {
    assert.equal(withdrawalReason(group, input(urls)), undefined);
  });

  it('goes when any page no longer has it (approving would overwrite that page), naming the pages, not only its first', () => {
    const reason = withdrawalReason(group, input([urls[0]!, urls[2]!]))!;
    assert.match(reason, /1 of the task's 3 pages no longer need it \(the problem is no longer found \(meta_description_missing on https:\/\/d\.test\/b\)\); the 2 other pages are proposed again/);
    assert.match(withdrawalReason(group, input(urls, [page(urls[0]!, 200), page(urls[1]!, 200), page(urls[2]!, 404)]))!, /c is gone/);
  });

  it('is not withdrawn for its first page alone when only that page was not reached', () => {
    assert.equal(withdrawalReason(group, input(urls.slice(1), urls.slice(1).map((u) => page(u, 200)))), undefined);
  });
});

describe('where a redirect ends, from the crawl', () => {
  const at = (url: string, status: number | null, redirect_to: string | null = null): AuditPage =>
    ({ url, status, title: null, meta_description: null, depth: 1, inlinks: 1, content_hash: null, redirect_to });
  const reader = (pages: AuditPage[]) => createPageReader({
    agent: undefined as never, allowPrivate: true, pageByUrl: new Map(pages.map((p) => [p.url, p])), storedContents: async () => [],
  });

  it('follows the chain the crawl recorded, without a request, and says why it cannot when it cannot', async () => {
    const r = reader([
      at('https://d.test/a', 301, 'https://d.test/b'), at('https://d.test/b', 302, 'https://d.test/c'), at('https://d.test/c', 200),
      at('https://d.test/gone', 301, 'https://d.test/404'), at('https://d.test/404', 404),
      at('https://d.test/x', 301, 'https://d.test/y'), at('https://d.test/y', 301, 'https://d.test/x'),
    ]);
    assert.deepEqual(await r.finalUrlOf('https://d.test/a'), { url: 'https://d.test/c' });
    assert.deepEqual(await r.finalUrlOf('https://d.test/gone'), { reason: 'the redirects end at https://d.test/404, which answers 404' });
    assert.match((await r.finalUrlOf('https://d.test/x') as { reason: string }).reason, /loop/);
  });
});
