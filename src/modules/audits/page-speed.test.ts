import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { startCruxServer } from '../../../test/helpers/crux-server.ts';
import { startPageSpeedSite } from '../../../test/helpers/page-speed-site.ts';
import { which } from '../../../test/helpers/programs.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { until } from '../../../test/helpers/wait.ts';
import { VERIFY_JOB } from '../execution/executor.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? which('chromium');

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;
let site: Awaited<ReturnType<typeof startPageSpeedSite>>;
let crux: Awaited<ReturnType<typeof startCruxServer>>;
let internal: http.Server;
let internalHits = 0;
let siteId: string;
let auditId: string;

async function auditOf(id: string, user: SignedInUser) {
  await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: id } });
  for (let i = 0; i < 1200; i++) {
    const latest = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${id}/latest`, token: user.accessToken });
    if (latest.data?.status === 'completed' && latest.data.agent === 'finished') return latest.data;
    if (latest.data?.status === 'failed') assert.fail(latest.data.error);
    await sleep(100);
  }
  assert.fail('the audit did not complete');
}

// Where Chromium is missing this suite skips, saying so; CI installs it, and there a missing one fails instead.
describe('Core Web Vitals in the audit: Lighthouse on one page per template, the Chrome UX Report beside it', { skip: chromiumPath || process.env.CI ? false : 'Chromium is not installed (apt-get install chromium)' }, () => {
  before(async () => {
    assert.ok(chromiumPath, 'chromium is not installed: .ci/run installs it');
    // A service on this machine that the page embeds and fetch()es: the address guard must keep the browser from it.
    internal = http.createServer((_req, res) => {
      internalHits += 1;
      res.end('secret');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    site = await startPageSpeedSite({ elsewhere: `http://127.0.0.1:${(internal.address() as net.AddressInfo).port}` });
    crux = await startCruxServer();
    crux.setRecord({ origin: site.url }, {
      largest_contentful_paint: { p75: 3100, densities: [0.6, 0.25, 0.15] },
      interaction_to_next_paint: { p75: 180, densities: [0.8, 0.15, 0.05] },
      cumulative_layout_shift: { p75: 0.05, densities: [0.9, 0.07, 0.03] },
    });
    // Only the site is a private target this server may reach: the internal service is refused as any would be.
    ctx = await startTestApp({ CHROMIUM_PATH: chromiumPath!, PAGE_SPEED_PAGES: '2', ...crux.env }, { config: { allowPrivateTargets: { hosts: [site.host] } } });
    [alice, bob] = await Promise.all([signUp(ctx), signUp(ctx)]);
    siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: alice.accessToken, payload: { name: 'Northwind Roasters', domain: site.host } })).data.id;
    auditId = (await auditOf(siteId, alice)).id;
  });
  after(async () => {
    await ctx?.close();
    await site?.close();
    await crux?.close();
    internal?.close();
  });

  const get = (user: SignedInUser | undefined, id = auditId) => call(ctx, { method: 'GET', url: `/api/v1/audits/${id}/page-speed`, token: user?.accessToken });

  it('measures one page per template, the home page first, with what makes it slow: this image, this style sheet, the lazy LCP image', async () => {
    const res = await get(alice);
    assert.equal(res.statusCode, 200, res.body);
    const { data } = res;
    assert.deepEqual([data.available, data.unavailable], [true, null]);
    // PAGE_SPEED_PAGES=2: the home page, then the largest template (/coffee/*, two pages) before /* (one page).
    assert.deepEqual(data.pages.map((p: { template: string; pages_in_template: number }) => [p.template, p.pages_in_template]), [['/', 1], ['/coffee/*', 2]]);
    const home = data.pages[0];
    assert.equal(home.error, null);
    assert.equal(home.lab.lighthouse_version, '12.8.2');
    assert.ok(home.lab.score < 90, `the slow home page scores ${home.lab.score}`);
    const lcp = home.lab.metrics.find((m: { id: string }) => m.id === 'lcp');
    assert.ok(lcp.value > 0 && /\d s$|\d ms$/.test(lcp.display), JSON.stringify(lcp));
    assert.equal(home.lab.lcp_element.kind, 'image');
    assert.match(home.lab.lcp_element.image_url, /\/img\/hero\.png$/);
    assert.ok(home.lab.lcp_element.fixes.includes('remove_lazy_loading'), JSON.stringify(home.lab.lcp_element));
    const hero = home.lab.images.find((i: { url: string }) => i.url.endsWith('/img/hero.png'));
    assert.ok(hero, JSON.stringify(home.lab.images));
    assert.deepEqual(hero.natural, { width: 1200, height: 800 });
    assert.ok(hero.displayed.width < 500 && hero.reasons.includes('size') && hero.reasons.includes('format'), JSON.stringify(hero));
    assert.match(hero.serve, /^WebP or AVIF, \d+ x \d+ px/);
    assert.ok(home.lab.unsized_images.some((u: string) => u.endsWith('/img/hero.png')));
    // The other template's page is fast.
    assert.ok(data.pages[1].lab.score >= 90, `a plain page scores ${data.pages[1].lab.score}`);
  });

  it("keeps the browser under test from private addresses: the page's image and fetch() are refused, and the service never hit", async () => {
    const { data } = await get(alice);
    assert.equal(internalHits, 0);
    assert.ok(data.refused.length >= 1, JSON.stringify(data.refused));
  });

  it("shows the Chrome UX Report's field data beside the lab: the origin's p75 on phones, its verdict, the key sent only in a header", async () => {
    const { data } = await get(alice);
    assert.deepEqual([data.field_configured, data.field_error], [true, null]);
    assert.equal(data.origin_field.scope, 'origin');
    assert.equal(data.origin_field.passes, false);
    assert.deepEqual(data.origin_field.metrics.filter((m: { id: string }) => ['lcp', 'inp', 'cls'].includes(m.id)).map((m: { id: string; display: string; rating: string }) => [m.id, m.display, m.rating]), [
      ['lcp', '3.1 s', 'needs_improvement'], ['inp', '180 ms', 'good'], ['cls', '0.05', 'good'],
    ]);
    // The pages themselves have too little traffic for data of their own: Google answers 404, and they show none.
    assert.deepEqual(data.pages.map((p: { field: unknown }) => p.field), [null, null]);
    assert.ok(crux.requests.length >= 3 && crux.requests.every((r) => !r.url.includes(crux.apiKey) && r.headers['x-goog-api-key'] === crux.apiKey));
  });

  it('turns what it measured into findings of the audit', async () => {
    const report = await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: alice.accessToken });
    const issues = new Map(report.data.issues.map((i: { check_id: string; affected: Array<{ url: string; value: string }> }) => [i.check_id, i.affected]));
    for (const id of ['lcp_image_lazy_loaded', 'images_not_optimized', 'field_core_web_vitals_failed']) assert.ok(issues.has(id), `${id} in ${[...issues.keys()].join(', ')}`);
    const field = issues.get('field_core_web_vitals_failed') as Array<{ value: string }>;
    assert.match(field[0]!.value, /^Whole site: LCP 3\.1 s \(p75 of real visits on phones/);
    const images = issues.get('images_not_optimized') as Array<{ url: string; value: string }>;
    assert.match(images[0]!.value, /^\d images?, [\d.]+ (MB|KB) could be saved, e\.g\. hero\.png$/);
  });

  it('proposes a brief for the slow template with its items, and verifies it by measuring the page again once the developer has done it', async () => {
    const tasks: Array<{ id: string; type: string; title: string }> = (await call(ctx, { method: 'GET', url: `/api/v1/tasks?site_id=${siteId}&page_size=100`, token: alice.accessToken })).data.items;
    const speed = tasks.filter((t) => t.type === 'improve_page_speed');
    assert.equal(speed.length, 1, 'one brief, for the slow home page (the fast template gets none)');
    assert.match(speed[0]!.title, /^Speed up the home page on phones \(performance \d+\/100, LCP [\d.]+ s\)$/);
    const id = speed[0]!.id;
    const detail = () => call(ctx, { method: 'GET', url: `/api/v1/tasks/${id}`, token: alice.accessToken }).then((r) => r.data);
    assert.equal((await detail()).target, `${site.url}/`);
    const items: Array<{ kind: string; url?: string; what: string }> = (await detail()).configuration.items;
    const kinds = new Set(items.map((i) => i.kind));
    for (const kind of ['lcp_loading', 'image', 'unsized_image']) assert.ok(kinds.has(kind), `${kind} in ${JSON.stringify(items)}`);
    assert.match(items.find((i) => i.kind === 'lcp_loading')!.what, /^The largest element is the image hero\.png \(.+\): remove loading="lazy" from it/);
    assert.match(items.find((i) => i.kind === 'image' && i.url!.endsWith('/hero.png'))!.what, /^Serve hero\.png \(1200 x 800 px shown at \d+ x \d+\) as WebP or AVIF, \d+ x \d+ px/);

    // A brief: handed over, carried out by hand; the first check finds the items still there.
    assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/tasks/${id}/approve`, token: alice.accessToken })).statusCode, 200);
    const done = await until(detail, (t) => t.status === 'completed' || t.status === 'failed', 'the brief handed over', 30_000);
    assert.deepEqual([done.status, done.outcome], ['completed', 'brief']);
    const status = () => call(ctx, { method: 'GET', url: `/api/v1/verification/tasks/${id}/verification-status`, token: alice.accessToken }).then((r) => r.data);
    const first = await until(status, (v) => v.checked_at !== null, 'the first verification', 90_000);
    assert.equal(first.status, 'pending', JSON.stringify(first.checks));
    assert.ok(first.checks.some((c: { check: string; passed: boolean }) => c.check === 'lcp_loaded_early' && !c.passed), JSON.stringify(first.checks));

    site.fix();
    await ctx.app.jobs.send(VERIFY_JOB, { taskId: id, attempt: 2 });
    const second = await until(status, (v) => v.checked_at !== first.checked_at && v.status !== 'pending', 'the second verification', 90_000);
    assert.equal(second.status, 'verified', JSON.stringify(second.checks));
    assert.ok(second.checks.some((c: { check: string }) => c.check === 'image_served_right'));
    assert.equal(internalHits, 0, 'the fixed page makes no private request; the slow one was refused');
  });

  it('answers 401 without a token, 404 for an audit the caller cannot see or that does not exist', async () => {
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/audits/${auditId}/page-speed` }, alice);
    assert.equal((await get(bob)).statusCode, 404);
    assert.equal((await get(alice, randomUUID())).statusCode, 404);
    assert.equal((await call(ctx, { method: 'GET', url: '/api/v1/audits/not-a-uuid/page-speed', token: alice.accessToken })).statusCode, 422);
  });

  it('answers 409 while the audit runs', async () => {
    const other = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: bob.accessToken, payload: { name: 'Slow', domain: site.host } })).data.id;
    // Queued in the database, not yet run: its job is held back by a transaction that never commits it.
    const queued = await ctx.database.db.insertInto('audits').values({ site_id: other, max_pages: 10 }).returning('id').executeTakeFirstOrThrow();
    const res = await get(bob, queued.id);
    assert.equal(res.statusCode, 409, res.body);
    assert.match(res.data.detail, /queued/);
  });
});

describe('Core Web Vitals turned off', () => {
  it('answers 404 for an audit measured neither in the lab nor in the field (PAGE_SPEED_PAGES=0, no CrUX key)', async () => {
    const plain = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true' });
    const site = await startPageSpeedSite();
    try {
      const user = await signUp(plain);
      const id = (await call(plain, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'Plain', domain: site.host } })).data.id;
      await call(plain, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: id } });
      let audit: { id: string; status: string } | undefined;
      for (let i = 0; i < 300 && audit?.status !== 'completed'; i++) {
        audit = (await call(plain, { method: 'GET', url: `/api/v1/audits/site/${id}/latest`, token: user.accessToken })).data;
        await sleep(100);
      }
      const res = await call(plain, { method: 'GET', url: `/api/v1/audits/${audit!.id}/page-speed`, token: user.accessToken });
      assert.equal(res.statusCode, 404, res.body);
      assert.match(res.data.detail ?? res.data.title, /Core Web Vitals/);
    } finally {
      await plain.close();
      await site.close();
    }
  });
});
