import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { configurationFailure, connectorChange, manualDraft, TASK_CATEGORIES, TASK_TYPE_LIST } from './index.ts';
import { fixHtmlLang } from './types/html-lang.ts';

let ctx: TestContext;
let owner: SignedInUser;
before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  owner = await signUp(ctx);
});
after(() => ctx.close());

describe('the task-type registry', () => {
  it('has one definition per type name, with its category', () => {
    const names = TASK_TYPE_LIST.map((t) => t.type);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names.length, 23);
    assert.equal(TASK_CATEGORIES.fix_sitemap_errors, 'technical');
    assert.equal(manualDraft({ type: 'not_a_type', target: 'x', configuration: {} }), undefined);
  });

  it('describes task details in OpenAPI as one shape per type, discriminated by type', async () => {
    const doc = (await ctx.app.inject({ url: '/api/v1/openapi.json' })).json();
    const branches: Array<{ properties: Record<string, any> }> = doc.paths['/api/v1/tasks/{task_id}'].get.responses['200'].content['application/json'].schema.anyOf;
    for (const type of TASK_TYPE_LIST) {
      const branch = branches.find((b) => b.properties.type.enum?.[0] === type.type);
      assert.ok(branch, type.type);
      assert.deepEqual(branch.properties.category.enum, [type.category]);
      const configuration = branch.properties.configuration;
      if ('perPage' in type && type.perPage) {
        // One page's values, or several pages' (one problem on many pages, one task).
        const [single, grouped] = configuration.anyOf;
        assert.deepEqual(Object.keys(single.properties), Object.keys(type.configuration.properties), type.type);
        assert.deepEqual(Object.keys(grouped.properties.pages.items.properties), Object.keys(type.configuration.properties), type.type);
      } else {
        assert.deepEqual(Object.keys(configuration.properties), Object.keys(type.configuration.properties), type.type);
      }
    }
  });

  it('answers a task with every configuration field it stores, listed in its schema or not', async () => {
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'S', domain: 'types.example.com' } })).data.id;
    const configuration = {
      url: 'https://types.example.com/', field: 'meta_description', before: null, after: 'x'.repeat(100),
      pages: [{ url: 'https://types.example.com/a', before: null, after: 'y'.repeat(90) }],
    };
    const id = await createTasksRepo(ctx.database.db).insertProposal({
      siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'low', title: 't', description: 'd',
      target: 'https://types.example.com/', configuration, evidence: [{ check_id: 'meta_description_missing' }],
    });
    const detail = await call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: owner.accessToken });
    assert.equal(detail.statusCode, 200);
    assert.deepEqual(detail.data.configuration, configuration);
    assert.equal(detail.data.type, 'fix_missing_meta_description');
  });
});

describe('the fix_html_lang gate', () => {
  const configuration = (after: string) => ({ url: 'https://example.org/a', field: 'lang', before: null, after, found_from: 'text', html: `<html lang="${after}">` });
  it('passes a language tag and refuses anything else, naming it', () => {
    for (const tag of ['en', 'pt-BR', 'zh-Hant', 'ast']) assert.equal(configurationFailure('fix_html_lang', configuration(tag)), undefined, tag);
    assert.match(configurationFailure('fix_html_lang', configuration('english'))!, /"english" is not a language tag/);
    assert.match(configurationFailure('fix_html_lang', configuration('en_GB'))!, /not a language tag/);
  });
});

describe('a site-wide fix_html_lang', () => {
  it('is verified on each of its example pages, and says where the setting goes', async () => {
    const lang: Record<string, string | null> = { 'https://example.org/a': 'en', 'https://example.org/b': null };
    const probe = { fetch: async () => ({ status: 200, body: '', headers: {} }), facts: async (url: string) => ({ lang: lang[url] ?? null }) } as never;
    const config = { url: 'https://example.org/a', field: 'lang', before: null, after: 'en', found_from: 'text', html: '<html lang="en">', site_wide: { pages: 80, examples: Object.keys(lang) } } as const;
    const checks = await fixHtmlLang.liveChecks!(config as never, config.url, probe);
    assert.deepEqual(checks.map((c) => [c.check, c.passed]), [['html_lang https://example.org/a', true], ['html_lang https://example.org/b', false]]);
    assert.match(fixHtmlLang.manual!(config as never, config.url).instructions, /site's template .* 80 pages in it declare none/);
  });
});

describe('the add_hreflang gate', () => {
  const alternate = (hreflang: string, href = `https://example.org/${hreflang}/page`) => ({ hreflang, href });
  const configuration = (...after: Array<{ hreflang: string; href: string }>) => ({ url: 'https://example.org/fr/page', field: 'hreflang', before: null, after, html: '<link>' });
  it('passes the codes the hreflang check accepts, in any letter case', () => {
    assert.equal(configurationFailure('add_hreflang', configuration(alternate('fr'), alternate('EN-gb'), alternate('x-default'))), undefined);
  });
  it('says which code or address it refuses', () => {
    assert.match(configurationFailure('add_hreflang', configuration(alternate('fr')))!, /no other language version/);
    assert.match(configurationFailure('add_hreflang', configuration(alternate('fr'), alternate('english')))!, /"english" is not a valid hreflang code/);
    assert.match(configurationFailure('add_hreflang', configuration(alternate('fr'), alternate('de', '/de/page')))!, /the de version's address is not absolute/);
  });
});

describe('fix_broken_links through a connector', () => {
  const task = (changes: Array<Record<string, unknown>>) =>
    ({ type: 'fix_broken_links', configuration: { url: 'https://shop.test/a/', changes } }) as unknown as Parameters<typeof connectorChange>[0];
  it('takes links out of a post only when all of them go to pages gone for good; one whose page the site must have makes it a person\'s', () => {
    const gone = { link_to: 'https://shop.test/old-guide/', action: 'repoint' };
    const legal = { link_to: 'https://shop.test/mentions-legales/', action: 'publish it', page_expected: 'legal_page' };
    assert.deepEqual(connectorChange(task([gone])), {
      field: 'content', edit: { kind: 'unwrap_links', targets: ['https://shop.test/old-guide/'] }, none: "the broken links are not in the post's content (a menu, widget or the theme links to them)",
    });
    assert.match((connectorChange(task([gone, legal])) as { unsupported: string }).unsupported, /^1 of the page's broken links goes to a page the site is expected to have/);
  });
});
