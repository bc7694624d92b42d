// Tests that fail when a guard is removed: each was checked by breaking the guard on purpose
// (an owner condition dropped, a state rule widened, a weight changed, an address class let
// through, a bound widened) and watching the test fail.
import assert from 'node:assert/strict';
import { sitesServiceOn } from './helpers/services.ts';
import dns from 'node:dns';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { request } from 'undici';
import { Findings } from '../src/modules/checks/findings.ts';
import { healthScore } from '../src/modules/checks/score.ts';
import { assertPublicUrl, BlockedAddressError, createOutboundAgent, isPublicAddress } from '../src/lib/safe-http.ts';
import { createAgentsRepo } from '../src/modules/agents/agents.repo.ts';
import { createSearchPlanner } from '../src/modules/agents/search-planner.ts';
import { createTasksRepo } from '../src/modules/tasks/tasks.repo.ts';
import { createAuditsRepo } from '../src/modules/audits/audits.repo.ts';
import type { TaskStatus } from '../src/db/types.ts';
import { createKeywordsRepo } from '../src/modules/keywords/keywords.repo.ts';
import { createKeywordsService } from '../src/modules/keywords/keywords.service.ts';
import { createSearchDataRepo } from '../src/modules/search-data/search-data.repo.ts';
import { createSearchDataService } from '../src/modules/search-data/search-data.service.ts';
import { createTasksService } from '../src/modules/tasks/tasks.service.ts';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from './helpers/app.ts';
import { until } from './helpers/wait.ts';
import { transactor } from '../src/db/transact.ts';

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let n = 0;

before(async () => {
  ctx = await startTestApp({}, { workJobs: false });
  [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
});
after(() => ctx.close());

async function siteOf(user: SignedInUser) {
  const res = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'G', domain: `guards-${++n}-${Date.now()}.com` } });
  assert.equal(res.statusCode, 201, res.body);
  return res.data.id as string;
}

describe('task state rules', () => {
  async function taskIn(status: TaskStatus) {
    const siteId = await siteOf(alice);
    const id = await createTasksRepo(ctx.database.db).insertProposal({
      siteId, type: 'fix_missing_meta_description', category: 'seo', priority: 'high', title: 'T', description: 'D',
      target: `https://guards.example/${++n}`, configuration: { before: null, after: 'x' }, evidence: [{ check_id: 'meta_description_missing', url: 'https://guards.example/' }],
    });
    await ctx.database.db.updateTable('tasks').set({ status }).where('id', '=', id!).execute();
    return id!;
  }

  it('cancel is 409 once a task runs or has finished', async () => {
    for (const status of ['in_progress', 'completed', 'failed'] as const) {
      const id = await taskIn(status);
      const res = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/cancel`, token: alice.accessToken });
      assert.equal(res.statusCode, 409, `cancel from ${status}: ${res.body}`);
      const after = await ctx.database.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(after.status, status, 'the task is unchanged');
    }
  });

  it('approve is 409 for a task that is not awaiting approval, a cancelled one included: unchanged, and no execution queued', async () => {
    for (const status of ['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'rolled_back'] as const) {
      const id = await taskIn(status);
      const res = await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: alice.accessToken });
      assert.equal(res.statusCode, 409, `approve from ${status}`);
      const after = await ctx.database.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(after.status, status, 'the task is unchanged');
      const jobs = await ctx.app.jobs.findJobs('task.execute');
      assert.ok(!jobs.some((job) => (job.data as { taskId?: string }).taskId === id), `no execution job for a task ${status}`);
    }
  });

  it('the state machine itself refuses a rollback from anything but completed (failed included), whatever the caller checked', async () => {
    const repo = createTasksRepo(ctx.database.db);
    for (const status of ['awaiting_approval', 'queued', 'in_progress', 'failed', 'cancelled', 'rolled_back'] as const) {
      const id = await taskIn(status);
      assert.equal(await repo.transition(null, id, 'rollback', 'test'), undefined, `rollback from ${status}`);
      const after = await ctx.database.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(after.status, status);
    }
    assert.equal(await repo.transition(null, await taskIn('completed'), 'rollback', 'test'), 'rolled_back', 'the control: from completed');
  });

  it("another user's existing task is 404 for every action", async () => {
    const id = await taskIn('completed');
    for (const action of ['cancel', 'approve', 'rollback']) {
      assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/${action}`, token: bob.accessToken })).statusCode, 404, action);
    }
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: bob.accessToken })).statusCode, 404);
  });
});

describe('audit state rules', () => {
  it('an audit that has completed or failed is never started again (a late or repeated job does nothing)', async () => {
    const repo = createAuditsRepo(ctx.database.db);
    for (const status of ['completed', 'failed'] as const) {
      const audit = await repo.insertQueued(await siteOf(alice), 10);
      await ctx.database.db.updateTable('audits').set({ status, attempt: 1 }).where('id', '=', audit!.id).execute();
      assert.equal(await repo.startAttempt(audit!.id), undefined, `start from ${status}`);
      const after = await ctx.database.db.selectFrom('audits').select(['status', 'attempt']).where('id', '=', audit!.id).executeTakeFirstOrThrow();
      assert.deepEqual(after, { status, attempt: 1 });
    }
    const queued = await repo.insertQueued(await siteOf(alice), 10);
    assert.equal(await repo.startAttempt(queued!.id), 1, 'the control: a queued audit starts');
  });
});

describe("another user's existing audit", () => {
  it('is 404 by id, its affected URLs never shown', async () => {
    const siteId = await siteOf(alice);
    const db = ctx.database.db;
    const audit = await db.insertInto('audits').values({ site_id: siteId, status: 'completed', max_pages: 10, pages_by_status: '{"200":1}', score: 90, finished_at: new Date() })
      .returning('id').executeTakeFirstOrThrow();
    await db.insertInto('audit_issues').values({ audit_id: audit.id, check_id: 'page_4xx', url: 'https://secret.example/private-page', value: '404' }).execute();
    const own = await call(ctx, { method: 'GET', url: `/api/v1/audits/${audit.id}/issues/page_4xx`, token: alice.accessToken });
    assert.equal(own.statusCode, 200, 'the control: the owner sees it');
    assert.equal(own.data.items[0].url, 'https://secret.example/private-page');
    const foreign = await call(ctx, { method: 'GET', url: `/api/v1/audits/${audit.id}/issues/page_4xx`, token: bob.accessToken });
    assert.equal(foreign.statusCode, 404);
    assert.ok(!foreign.body.includes('secret.example'));
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: bob.accessToken })).statusCode, 404);
  });
});

describe('the health score formula (README): exact values for known findings', () => {
  const findingsWith = (counts: Record<string, number>) => {
    const findings = new Findings();
    for (const [id, count] of Object.entries(counts)) for (let i = 0; i < count; i++) findings.add(id, `https://x.test/${id}/${i}`);
    return findings;
  };

  it('is round(100 × Π(1 − w × √share)) with w = 0.5 critical, 0.2 error, 0.08 warning, 0.02 notice', () => {
    // 0.9 (error, share 0.25) × 0.9 (critical, share 0.04) × 0.98 (notice, share 1) = 0.7938
    const mixed = healthScore(findingsWith({ title_missing: 25, page_5xx: 4, canonical_missing: 100 }), 100);
    assert.equal(mixed.score, 79);
    assert.deepEqual(mixed.breakdown.map((l) => [l.check_id, l.share, l.cost]), [['page_5xx', 0.04, 10], ['title_missing', 0.25, 10], ['canonical_missing', 1, 2]]);
    // 0.968 (warning, share 0.16) × 0.936 (warning, share 0.64) = 0.906048
    assert.equal(healthScore(findingsWith({ meta_description_missing: 16, thin_content: 64 }), 100).score, 91);
    // one critical on every page: 1 − 0.5 = 0.5
    assert.equal(healthScore(findingsWith({ page_5xx: 9 }), 9).score, 50);
  });

  it('caps a site-wide block at 30 (50 without the cap)', () => {
    const blocked = healthScore(findingsWith({ home_noindex: 1 }), 10);
    assert.deepEqual([blocked.score, blocked.capped], [30, true]);
  });
});

describe('the SSRF guard', () => {
  const refused = {
    loopback: ['127.0.0.1', '::1'], private: ['10.0.0.5', '172.16.0.1', '192.168.1.1', 'fd00::1'],
    'link-local (cloud metadata)': ['169.254.169.254', 'fe80::1'], 'CGNAT': ['100.64.0.1', '100.127.255.254'],
    unspecified: ['0.0.0.0', '::'], multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'], broadcast: ['255.255.255.255'],
    'IPv4-mapped IPv6': ['::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:10.0.0.1'], reserved: ['240.0.0.1', '192.0.2.1', '198.18.0.1'],
    'IPv4-compatible IPv6 (deprecated)': ['::7f00:1', '::a00:1', '::a9fe:a9fe'], 'NAT64, 6to4 and Teredo': ['64:ff9b::7f00:1', '2002:7f00:1::', '2001::1'],
    'outside global unicast': ['100::1', '4000::1'],
  };

  it('refuses every non-public address class and accepts public unicast (the control)', () => {
    for (const [kind, addresses] of Object.entries(refused)) {
      for (const address of addresses) {
        assert.equal(isPublicAddress(address), false, `${kind}: ${address}`);
        assert.throws(() => assertPublicUrl(new URL(`http://${address.includes(':') ? `[${address}]` : address}/`), false), BlockedAddressError, address);
      }
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(address), true, address);
    assert.doesNotThrow(() => assertPublicUrl(new URL('http://169.254.169.254/'), true), 'ALLOW_PRIVATE_TARGETS lets it through');
  });

  it('lets through only the exact private hosts it lists (the demo reaches its own site and nothing else private)', async () => {
    const demo = { hosts: ['127.0.0.1:8123'] };
    assert.doesNotThrow(() => assertPublicUrl(new URL('http://127.0.0.1:8123/shop/'), demo));
    for (const url of ['http://127.0.0.1:8124/', 'http://127.0.0.1/', 'http://[::1]:8123/', 'http://169.254.169.254/', 'http://10.0.0.1:8123/']) {
      assert.throws(() => assertPublicUrl(new URL(url), demo), BlockedAddressError, url);
    }
    // A listed host keeps the name guard: a name resolving to loopback is refused at connect time.
    const agent = createOutboundAgent({ allowPrivate: { hosts: ['localhost:65000'] }, connectionsPerOrigin: 1, timeoutMs: 5000 });
    try {
      await assert.rejects(request('http://localhost:65000/', { dispatcher: agent }), (error: Error & { code?: string }) => error.code === 'E_BLOCKED_ADDRESS');
    } finally {
      await agent.close();
    }
  });

  it('refuses a site whose name resolves to 0.0.0.0: the audit fails naming the host (not the address), no page crawled', async (t) => {
    // On Linux a connection to 0.0.0.0 reaches this machine.
    const lookup = dns.lookup;
    t.mock.method(dns, 'lookup', (host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) =>
      host.endsWith('zero-address.com')
        ? callback(null, options.all ? [{ address: '0.0.0.0', family: 4 }] : '0.0.0.0', 4)
        : (lookup as (...args: unknown[]) => void)(host, options, callback));
    const app = await startTestApp({}, { database: ctx.database });
    t.after(() => app.close());
    const siteId = (await call(app, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Zero', domain: 'zero-address.com' } })).data.id;
    await call(app, { method: 'POST', url: '/api/v1/audits', token: alice.accessToken, payload: { site_id: siteId } });
    const audit = await until(
      async () => (await call(app, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken })).data,
      (a) => a.status === 'completed' || a.status === 'failed', 'the audit', 30_000,
    );
    assert.equal(audit.status, 'failed');
    assert.match(audit.error, /blocked: zero-address\.com resolves to a private or reserved address/);
    assert.doesNotMatch(audit.error, /0\.0\.0\.0/, 'the address itself is not told');
    assert.equal(audit.pages_crawled, 0);
    assert.deepEqual(audit.pages_by_status, {});
  });

  it('names the host it refuses, never the address a name resolved to (the message reaches users)', () => {
    const error = new BlockedAddressError('intranet.example.com', '10.1.2.3');
    assert.equal(error.message, 'intranet.example.com resolves to a private or reserved address');
    assert.equal(error.address, '10.1.2.3', 'kept for logs');
  });

  it('refuses at connect time a host name that resolves to a loopback address', async () => {
    const agent = createOutboundAgent({ allowPrivate: false, connectionsPerOrigin: 1, timeoutMs: 5000 });
    try {
      await assert.rejects(request('http://localhost:65000/', { dispatcher: agent }), (error: Error & { code?: string }) => error.code === 'E_BLOCKED_ADDRESS');
    } finally {
      await agent.close();
    }
  });
});

describe('the quick-win planner', () => {
  it('proposes keywords at positions 4 to 20 only', async () => {
    const siteId = await siteOf(alice);
    const db = ctx.database.db;
    await db.updateTable('sites').set({ search_synced_at: new Date() }).where('id', '=', siteId).execute();
    await db.insertInto('keywords').values([3, 4, 20, 21].map((position) => ({
      site_id: siteId, keyword: `kw at ${position}`, source: 'search_console' as const, intent: 'informational' as const,
      current_position: position, previous_position: position, url: 'https://guards.example/page', impressions_28d: 5000, clicks_28d: 10,
    }))).execute();
    const search = createSearchDataService(createSearchDataRepo(db));
    const tasks = createTasksService({ repo: createTasksRepo(db), sites: { getSite: async () => ({}) as never, requireAccess: async () => 'owner' as const }, queue: { send: async () => null }, transact: transactor(db), events: { emit: async () => 0 }, search, latestRollback: async () => undefined });
    const sites = sitesServiceOn(db);
    await createSearchPlanner({
      search, keywords: createKeywordsService({ repo: createKeywordsRepo(db), sites }), sites, tasks, repo: createAgentsRepo(db), log: pino({ level: 'silent' }),
      // No audit: each quick win considered is refused for its unknown title, which names it.
      audits: { latestCompleted: async () => undefined, pages: async () => [], pageContents: async () => [] },
    }).proposeFromSearch(siteId);
    const considered = await db.selectFrom('task_rejections').select('target').where('site_id', '=', siteId).where('type', '=', 'prioritize_quick_wins').orderBy('target').execute();
    assert.deepEqual(considered.map((t) => t.target), ['keyword:kw at 20', 'keyword:kw at 4']);
  });
});
