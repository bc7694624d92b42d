import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { which } from '../../../test/helpers/programs.ts';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../../../test/helpers/app.ts';
import { assertRejectsBadTokens } from '../../../test/helpers/security.ts';
import { DAY_MS, isoDate, pacificToday } from '../search-data/periods.ts';
import { createSearchDataRepo, type QueryPageDay } from '../search-data/search-data.repo.ts';
import { createTasksRepo } from '../tasks/tasks.repo.ts';
import { day as printed } from './format.ts';
import { html } from './html.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { ProblemError } from '../../lib/problem.ts';
import pino from 'pino';

const chromiumPath = which('chromium');
const pdftotext = which('pdftotext');

let ctx: TestContext;
let owner: SignedInUser, viewer: SignedInUser, outsider: SignedInUser;
let siteId: string, bareSiteId: string, strangerSiteId: string;
let doneId: string, undoneId: string;

const yesterday = pacificToday() - DAY_MS;
const day = (back: number) => isoDate(yesterday - back * DAY_MS);
const at = (back: number) => new Date(`${day(back)}T12:00:00Z`);
const SCRIPT = '<script>alert(1)</script>';
const page = (path: string) => `https://garden-report.example.org${path}`;
const get = (path: string, user: SignedInUser | null = owner) =>
  call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}${path}`, ...(user ? { token: user.accessToken } : {}) });

before(async () => {
  ctx = await startTestApp(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}, { workJobs: false });
  [owner, viewer, outsider] = await Promise.all([signUp(ctx), signUp(ctx), signUp(ctx)]);
  const api = (user: SignedInUser, path: string, payload: object) => call(ctx, { method: 'POST', url: `/api/v1${path}`, token: user.accessToken, payload });
  const workspaceId = (await api(owner, '/workspaces', { name: 'Northwind & Co <Digital>' })).data.id;
  siteId = (await api(owner, '/sites', { name: 'Garden Centre', domain: 'garden-report.example.org', workspace_id: workspaceId })).data.id;
  bareSiteId = (await api(owner, '/sites', { name: 'Bare', domain: 'bare-report.example.org' })).data.id;
  strangerSiteId = (await api(outsider, '/sites', { name: 'Theirs', domain: 'theirs-report.example.org' })).data.id;
  const invited = await api(owner, `/workspaces/${workspaceId}/invitations`, { email: viewer.email, role: 'viewer' });
  assert.equal((await call(ctx, { method: 'POST', url: `/api/v1/invitations/${invited.data.token}/accept`, token: viewer.accessToken })).statusCode, 200);

  const search = createSearchDataRepo(ctx.database.db);
  // The property: 50 clicks a day in the last 28 days, 40 a day in the 28 before.
  await search.upsertSearchDays(siteId, Array.from({ length: 56 }, (_, back) => back < 28
    ? { date: day(back), clicks: 50, impressions: 1000, ctr: 0.05, position: 6 }
    : { date: day(back), clicks: 40, impressions: 1000, ctr: 0.04, position: 7 }));
  const rows: QueryPageDay[] = [];
  for (let back = 0; back < 56; back++) {
    const now = back < 28;
    const row = (query: string, path: string, clicks: number, impressions: number, position: number) =>
      rows.push({ date: day(back), query, page: page(path), clicks, impressions, position });
    row('roses', '/roses', now ? 3 : 1, 30, now ? 2 : 12); // gained clicks, entered the top 10
    row(SCRIPT, '/search?q=<b>', now ? 2 : 1, 20, 5); // gained clicks, in the top 10 all along
    if (now) row('tulips', '/tulips', 1, 10, 8); // new: entered the top 10 from nowhere
    else row('ferns', '/ferns', 2, 10, 3); // gone: left the top 10
    row('daisies', '/daisies', now ? 0 : 1, 10, now ? 14 : 9); // lost clicks, left the top 10
  }
  await search.replaceQueryDays(siteId, [], rows);

  // Two audits: 70, then 82 with some problems.
  const db = ctx.database.db;
  const audit = async (score: number, back: number) => (await db.insertInto('audits').values({
    site_id: siteId, status: 'completed', max_pages: 100, score, started_at: at(back), finished_at: at(back),
  }).returning('id').executeTakeFirstOrThrow()).id;
  await audit(70, 40);
  const latest = await audit(82, 5);
  const issues = (check: string, n: number) => Array.from({ length: n }, (_, i) => ({ audit_id: latest, check_id: check, url: page(`/p${i}`), value: null }));
  await db.insertInto('audit_issues').values([
    ...issues('title_missing', 3), ...issues('page_5xx', 1), ...issues('nofollow_page', 9), ...issues('blocked_by_robots', 6), ...issues('slow_ttfb', 4),
  ]).execute();

  // Work: one task completed and verified, one completed then rolled back, one completed before the period; two proposals waiting.
  const tasks = createTasksRepo(db);
  const propose = async (title: string, target: string, priority: 'critical' | 'high' | 'low' = 'high', clicks?: number) => (await tasks.insertProposal({
    siteId, type: 'fix_title_tag', category: 'seo', priority, title, description: 'd', target,
    configuration: { url: target, after: 'Roses for small gardens | Garden Centre' }, evidence: [{ check_id: 'title_too_long' }],
    ...(clicks === undefined ? {} : { expectedClicks: { clicks, low: 0, high: clicks * 2, basis: 'site_curve', method: 'm' } }),
  }))!;
  const complete = async (id: string, back: number) => {
    for (const action of ['approve', 'start', 'complete'] as const) await tasks.transition(null, id, action, 'test');
    await db.updateTable('task_events').set({ at: at(back) }).where('task_id', '=', id).where('to_status', '=', 'completed').execute();
  };
  doneId = await propose('Rewrite the title of <the roses page>', page('/roses'));
  await complete(doneId, 10);
  await tasks.saveVerification(doneId, { status: 'verified', checks: [], attempts: 1, checkedAt: new Date() });
  undoneId = await propose('Shorten the tulips title', page('/tulips'));
  await complete(undoneId, 3);
  await tasks.transition(null, undoneId, 'rollback', 'test');
  await complete(await propose('An old change', page('/old')), 40);
  await propose('A small fix', page('/small'), 'low', 4);
  await propose('Fix the broken home page', page('/'), 'critical', 120);
});
after(() => ctx.close());

describe('GET /sites/{id}/report', () => {
  it('gives traffic against the period before, top movers, keywords gained and lost, health, problems, work and proposals', async () => {
    const res = await get('/report');
    assert.equal(res.statusCode, 200, res.body);
    const r = res.data;
    assert.deepEqual(r.site, { id: siteId, name: 'Garden Centre', domain: 'garden-report.example.org' });
    assert.equal(r.workspace.name, 'Northwind & Co <Digital>');
    assert.equal(r.workspace.personal, false);
    assert.deepEqual(r.period, { start: day(27), end: day(0), days: 28 });
    assert.deepEqual(r.comparison, { start: day(55), end: day(28), mode: 'previous', has_data: true });
    assert.deepEqual(r.traffic, {
      has_data: true,
      current: { clicks: 1400, impressions: 28000, ctr: 0.05, position: 6 },
      previous: { clicks: 1120, impressions: 28000, ctr: 0.04, position: 7 },
      change: { clicks: 25, impressions: 0, ctr: 1, position: -1 },
    });
    const keys = (movers: Array<{ key: string; clicks_difference: number }>) => movers.map((m) => [m.key, m.clicks_difference]);
    assert.deepEqual(keys(r.top_movers.queries.gained), [['roses', 56], [SCRIPT, 28], ['tulips', 28]]);
    assert.deepEqual(keys(r.top_movers.queries.lost), [['ferns', -56], ['daisies', -28]]);
    assert.deepEqual(r.top_movers.queries.gained[0], { key: 'roses', clicks: 84, previous_clicks: 28, clicks_difference: 56, impressions: 840, position: 2, previous_position: 12 });
    assert.deepEqual(keys(r.top_movers.pages.gained).map(([k]) => k), [page('/roses'), page('/search?q=<b>'), page('/tulips')]);
    assert.deepEqual(keys(r.top_movers.pages.lost), [[page('/ferns'), -56], [page('/daisies'), -28]]);

    assert.deepEqual(r.keywords.gained, [
      { query: 'roses', position: 2, previous_position: 12, impressions: 840, previous_impressions: 840, clicks: 84 },
      { query: 'tulips', position: 8, previous_position: null, impressions: 280, previous_impressions: 0, clicks: 28 },
    ]);
    assert.deepEqual(r.keywords.lost.map((k: { query: string }) => k.query), ['daisies', 'ferns'].sort((a, b) => a.localeCompare(b)));
    assert.deepEqual(r.keywords.lost.find((k: { query: string }) => k.query === 'ferns'), { query: 'ferns', position: null, previous_position: 3, impressions: 0, previous_impressions: 280, clicks: 0 });

    assert.deepEqual([r.health.score, r.health.previous_score, r.health.change], [82, 70, 12]);
    assert.deepEqual(r.health.history.map((h: { score: number }) => h.score), [70, 82]);
    assert.deepEqual(r.top_problems.items.map((p: { check_id: string; severity: string; affected_count: number }) => [p.check_id, p.severity, p.affected_count]), [
      ['page_5xx', 'critical', 1], ['title_missing', 'error', 3], ['slow_ttfb', 'warning', 4], ['nofollow_page', 'notice', 9],
    ], 'most severe first; an unscored check (robots.txt) is no problem');
    assert.equal(r.top_problems.items[0].title, 'Page returns a 5xx status');

    assert.deepEqual([r.work_done.completed, r.work_done.verified, r.work_done.rolled_back], [2, 1, 1], 'the task completed 40 days ago is not this period\'s');
    const [undone, done] = r.work_done.items;
    assert.deepEqual([undone.id, undone.status, done.id, done.status, done.verification], [undoneId, 'rolled_back', doneId, 'completed', 'verified']);
    assert.equal(done.page, page('/roses'));
    assert.equal(new Date(done.completed_at).toISOString(), at(10).toISOString());
    assert.deepEqual(done.impact, {
      window_days: 10, query: null, clicks_before: 30, clicks_after: 30, position_before: 2, position_after: 2, realised_clicks_28d: 0, expected_clicks_28d: null,
    });

    assert.equal(r.proposals.awaiting_approval, 2);
    assert.deepEqual(r.proposals.top.map((p: { title: string; priority: string; expected_clicks_28d: number | null }) => [p.title, p.priority, p.expected_clicks_28d]),
      [['Fix the broken home page', 'critical', 120], ['A small fix', 'low', 4]]);
  });

  it('compares with the same dates a year before, and takes custom dates', async () => {
    const year = (await get('/report?period=7d&compare=year')).data;
    assert.equal(year.comparison.mode, 'year');
    assert.equal(year.comparison.has_data, false);
    assert.equal(year.traffic.previous.clicks, 0);
    assert.equal(year.traffic.change.clicks, null);
    assert.deepEqual(year.keywords.lost, []);
    assert.deepEqual(year.keywords.gained.map((k: { query: string }) => k.query), ['roses', SCRIPT, 'tulips'], 'no position a year before');
    const custom = (await get(`/report?start=${day(13)}&end=${day(0)}`)).data;
    assert.deepEqual([custom.period.days, custom.traffic.current.clicks, custom.work_done.completed], [14, 700, 2]);
  });

  it('says what it does not have yet: a site without search data, audits or tasks', async () => {
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${bareSiteId}/report`, token: owner.accessToken });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.data;
    assert.equal(r.traffic.has_data, false);
    assert.equal(r.workspace.personal, true);
    assert.deepEqual([r.health.score, r.top_problems.audit_id, r.work_done.completed, r.proposals.awaiting_approval], [null, null, 0, 0]);
    const page = await call(ctx, { method: 'GET', url: `/api/v1/sites/${bareSiteId}/report.html`, token: owner.accessToken });
    assert.match(page.body, /No Search Console data for this period yet/);
    assert.match(page.body, /No audit of the site has completed yet/);
    assert.match(page.body, /No task was completed in this period/);
    assert.match(page.body, /No proposal is waiting for approval/);
    assert.doesNotMatch(page.body, /class="agency"/, 'a personal workspace names no agency');
  });

  it('is any member\'s (a viewer too); 401 without a token, 404 for a stranger and another user\'s site, 422 for a bad period', async () => {
    assert.equal((await get('/report', viewer)).statusCode, 200);
    await assertRejectsBadTokens(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/report` }, owner);
    for (const path of ['/report', '/report.html', '/report.pdf']) {
      assert.equal((await get(path, null)).statusCode, 401, path);
      const stranger = await get(path, outsider);
      assert.equal(stranger.statusCode, 404, path);
      assert.match(String(stranger.headers['content-type']), /application\/problem\+json/);
    }
    for (const url of [`/api/v1/sites/${strangerSiteId}/report`, `/api/v1/sites/${randomUUID()}/report.pdf`]) {
      assert.equal((await call(ctx, { method: 'GET', url, token: owner.accessToken })).statusCode, 404, url);
    }
    for (const query of ['?period=5d', '?compare=none', `?start=${day(3)}`, `?period=7d&start=${day(3)}&end=${day(0)}`, `?start=${day(0)}&end=${day(3)}`, '?start=2026-02-30&end=2026-03-01']) {
      const res = await get(`/report${query}`);
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.equal((await get(`/report.pdf${query}`)).statusCode, 422, `pdf ${query}`);
    }
  });
});

describe('GET /sites/{id}/report.html', () => {
  it('is a self-contained print page: A4, strict CSP, numbers and dates formatted, every user string escaped', async () => {
    const res = await get('/report.html', viewer);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    const body = res.body;
    assert.ok(body.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`),
      'the policy travels with the document too (the web app opens it from a blob, which has no headers)');
    assert.match(body, /@page \{ size: A4;/);
    assert.doesNotMatch(body, /<script|<link|<img|src=|@import|url\(/i, 'no script and nothing fetched');
    assert.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the query is shown, escaped');
    assert.ok(body.includes('Northwind &amp; Co &lt;Digital&gt;'), "the workspace's name, escaped, as the agency's");
    assert.ok(body.includes('Rewrite the title of &lt;the roses page&gt;'));
    assert.ok(body.includes('/search?q=&lt;b&gt;'), 'a page of the site by its path, escaped');
    assert.ok(body.includes('1,400') && body.includes('+25%') && body.includes('28,000'));
    assert.ok(body.includes(`${printed(day(27))} – ${printed(day(0))}`));
    assert.match(printed('2026-11-26'), /^26 Nov 2026$/);
  });

  it('escapes every interpolation of its template tag, nested markup passing through once', () => {
    const inner = html`<b>${'<i>&"\''}</b>`;
    assert.equal(html`<p title="${'"x"'}">${inner}${[1, '<', null, false]}</p>`.value, '<p title="&quot;x&quot;"><b>&lt;i&gt;&amp;&quot;&#39;</b>1&lt;</p>');
  });
});

describe('GET /sites/{id}/report.pdf', () => {
  it('is an A4 PDF whose text holds the site, its numbers and a top query', { skip: chromiumPath ? false : 'no chromium on this machine' }, async () => {
    const res = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}/report.pdf`, token: viewer.accessToken });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], `attachment; filename="garden-report.example.org-report-${day(27)}-to-${day(0)}.pdf"`);
    const pdf = res.rawPayload;
    // Set REPORT_PDF_OUT to keep the file and look at it (pdftoppm -png -r 60 -f 1 -l 1 <file> /tmp/report).
    if (process.env.REPORT_PDF_OUT) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(process.env.REPORT_PDF_OUT, pdf);
      const bare = await call(ctx, { method: 'GET', url: `/api/v1/sites/${bareSiteId}/report.pdf`, token: owner.accessToken });
      writeFileSync(process.env.REPORT_PDF_OUT.replace(/\.pdf$/, '-empty.pdf'), bare.rawPayload);
    }
    assert.equal(pdf.subarray(0, 4).toString('latin1'), '%PDF');
    // Read back with pdftotext: a test that cannot read the PDF fails rather than passes unread (.ci/run installs it).
    assert.ok(pdftotext, 'pdftotext is not installed: apt-get install poppler-utils (the README\'s test prerequisites)');
    const text = spawnSync(pdftotext, ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' }).stdout;
    for (const expected of ['Garden Centre', 'Northwind & Co <Digital>', '1,400', '+25%', 'roses', SCRIPT, 'Rewrite the title of <the roses page>']) {
      assert.ok(text.includes(expected), `the PDF's text holds ${expected}:\n${text.slice(0, 1500)}`);
    }
  });

  it('is a 503 problem pointing at the printable page where no Chromium is installed', async () => {
    const bare = await startTestApp({}, { database: ctx.database, workJobs: false, config: { chromiumPath: undefined } });
    try {
      const res = await call(bare, { method: 'GET', url: `/api/v1/sites/${siteId}/report.pdf`, token: owner.accessToken });
      assert.equal(res.statusCode, 503);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      assert.match(res.data.detail, /browser that is not installed.*report\.html/);
      assert.doesNotMatch(res.data.detail, /[A-Z]+_[A-Z_]+/, 'no server setting name in what a user reads');
    } finally {
      await bare.close();
    }
  });
});

describe('the PDF renderer', () => {
  it('renders a bounded number at once: beyond those and the few waiting, a 503 with Retry-After', async () => {
    // A Chromium that cannot start: each render fails (503) once it has its slot, without a browser launched by this test.
    const renderer = createPdfRenderer({ executablePath: '/nonexistent/chromium', log: pino({ level: 'silent' }), maxConcurrent: 1, maxWaiting: 1 });
    const outcomes = await Promise.allSettled([renderer.render('<p>1</p>'), renderer.render('<p>2</p>'), renderer.render('<p>3</p>')]);
    const details = outcomes.map((o) => (o.status === 'rejected' && o.reason instanceof ProblemError ? [o.reason.status, o.reason.headers['retry-after'], o.reason.message.split(' ')[0]] : o.status));
    assert.deepEqual(details, [[503, '30', 'Chromium'], [503, '30', 'Chromium'], [503, '5', 'Other']], 'the first renders, the second waits its turn, the third is turned away');
    await renderer.close();
  });

  it('fetches nothing a report holds: no image, style sheet, frame or script reaches the network', { skip: chromiumPath ? false : 'no chromium on this machine' }, async (t) => {
    const hits: string[] = [];
    const server = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/plain' }).end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const renderer = createPdfRenderer({ executablePath: chromiumPath, log: pino({ level: 'silent' }) });
    t.after(async () => {
      await renderer.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pdf = await renderer.render(`<html><head><link rel="stylesheet" href="${at}/style.css"><style>@import url(${at}/import.css); p { background: url(${at}/bg.png) }</style></head>
      <body><p>Report</p><img src="${at}/image.png"><iframe src="${at}/frame"></iframe><script src="${at}/script.js"></script><script>fetch('${at}/fetch')</script></body></html>`);
    assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(hits, [], 'nothing was fetched');
  });
});
