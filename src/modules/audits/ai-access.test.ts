import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { validateLlmsTxt } from '../crawler/llms-txt.ts';

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let auditId: string;
let siteId: string;

const ROBOTS = [
  'User-agent: GPTBot', 'Disallow: /', '',
  'User-agent: ClaudeBot', 'User-agent: Claude-SearchBot', 'Disallow: /', '',
  'User-agent: PerplexityBot', 'Disallow: /', '',
  'User-agent: *', 'Disallow: /private/', 'Disallow: /sitemap.xml', '',
].join('\n');

before(async () => {
  ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
  [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
  site = await startFixtureSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: ROBOTS },
    '/llms.txt': { headers: { 'content-type': 'text/markdown' }, body: 'Welcome\n## Docs\n- the guide\n- [Bad](mailto:x@y.test)\n' },
    '/': { body: page({ title: 'Fixture home page of the shop', description: 'Chairs and tables, made to order.', body: '<h1>Home</h1><a href="/about">About us</a><a href="/private/x">Private</a><a href="/hidden">Hidden</a>' }) },
    '/about': { body: page({ title: 'About the shop', description: 'Who makes the chairs.', body: '<h1>About</h1><a href="/">Home</a>' }) },
    '/hidden': { body: page({ title: 'A hidden page of the shop', head: '<meta name="robots" content="noindex">' }) },
    '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>' },
  });
  const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Chair shop', domain: site.host } });
  siteId = res.data.id;
  await call(ctx, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
  for (let i = 0; i < 100; i++) {
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken });
    if (latest.data?.status === 'completed') {
      auditId = latest.data.id;
      break;
    }
    await sleep(200);
  }
  assert.ok(auditId, 'the audit completed');
});
after(async () => {
  await site.close();
  await ctx.close();
});

const get = (user: SignedInUser | undefined, id = auditId) => call(ctx, { method: 'GET', url: `/api/v1/audits/${id}/ai-access`, token: user?.accessToken });

describe('GET /audits/{audit_id}/ai-access', () => {
  it('says per crawler what it may fetch and under which group', async () => {
    const res = await get(alice);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.robots_status, 200);
    const by = new Map(res.data.crawlers.map((c: { token: string }) => [c.token, c]));
    const pick = (token: string) => {
      const c = by.get(token) as Record<string, unknown>;
      return [c.purpose, c.home_allowed, c.sitemaps_allowed, c.pages_allowed_share, c.matched_group];
    };
    assert.deepEqual(pick('GPTBot'), ['training', false, false, 0, 'explicit']);
    assert.deepEqual(pick('Claude-SearchBot'), ['search', false, false, 0, 'explicit']);
    assert.deepEqual(pick('PerplexityBot'), ['search', false, false, 0, 'explicit']);
    // Home, /about and /hidden audited (the private page is refused to us too): all three allowed under "*".
    assert.deepEqual(pick('OAI-SearchBot'), ['search', true, false, 1, 'wildcard']);
    const extended = by.get('Google-Extended') as { control_token: boolean; owner: string; docs: string };
    assert.deepEqual([extended.control_token, extended.owner], [true, 'Google']);
    assert.match(extended.docs, /^https:\/\/developers\.google\.com\//);
    assert.equal('group' in (by.get('GPTBot') as object), false, 'internal fields are not sent');
  });

  it('reports the invalid llms.txt with its problems, and drafts one in the format from the audited pages', async () => {
    const { data } = await get(alice);
    assert.equal(data.llms_txt.status, 'invalid');
    assert.equal(data.llms_txt.url, `${site.origin}/llms.txt`);
    assert.deepEqual(data.llms_txt.problems.map((p: { rule: string; line: number }) => [p.rule, p.line]), [['h1_first', 1], ['list_item_link', 3], ['link_url', 4]]);
    const draft: string = data.llms_txt_draft;
    assert.deepEqual(validateLlmsTxt(draft, `${site.origin}/llms.txt`), []);
    assert.ok(draft.startsWith('# Chair shop\n\n> Chairs and tables, made to order.\n\n## Pages\n'), draft);
    assert.ok(draft.includes(`- [Fixture home page of the shop](${site.origin}/): Chairs and tables, made to order.`));
    assert.ok(draft.includes(`- [About the shop](${site.origin}/about): Who makes the chairs.`));
    assert.ok(!draft.includes('/hidden'), 'a noindex page is not drafted');
  });

  it('raises the checks: blocked search crawlers (unscored), the shared training opt-out, blocked sitemaps, the malformed llms.txt', async () => {
    const report = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken });
    const issues = new Map(report.data.issues.map((i: { check_id: string }) => [i.check_id, i]));
    for (const id of ['search_crawler_blocked_home', 'ai_crawler_block_contradiction', 'sitemap_blocked_for_crawler', 'llms_txt_invalid']) assert.ok(issues.has(id), id);
    assert.equal(issues.has('llms_txt_missing'), false);
    const costs = new Set(report.data.score_breakdown.map((l: { check_id: string }) => l.check_id));
    assert.equal(costs.has('search_crawler_blocked_home'), false);
    assert.equal(costs.has('ai_crawler_block_contradiction'), true);
  });

  it('answers 404 for an audit of a site the caller cannot see or that does not exist, and 401 without a valid token', async () => {
    assert.equal((await get(bob)).statusCode, 404, "another user's audit");
    assert.equal((await get(alice, randomUUID())).statusCode, 404);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/audits/${auditId}/ai-access` }, alice);
  });

  it('answers 409 while the audit has not completed, and 404 for an audit recorded without it', async () => {
    const other = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Other', domain: '127.0.0.1:9' } });
    const queued = await ctx.database.db.insertInto('audits').values({ site_id: other.data.id, max_pages: 10 }).returning('id').executeTakeFirstOrThrow();
    const running = await get(alice, queued.id);
    assert.equal(running.statusCode, 409);
    assert.match(running.data.detail, /queued/);
    await ctx.database.db.updateTable('audits').set({ ai_access: null }).where('id', '=', auditId).execute();
    assert.equal((await get(alice)).statusCode, 404);
  });
});
