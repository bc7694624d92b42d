import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_MISSING } from '../../src/modules/crawler/crawl.ts';
import { startSpaSite } from '../../src/modules/demo/spa-site.ts';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../helpers/app.ts';
import { capture as shoot, chromiumPath, DESKTOP, injectAxe, SHOTS, signedInBrowser, ensureWebBuilt, listening, type AxeResult } from './browser.ts';

/**
 * The audit's "JavaScript rendering" card in a real browser: a client-rendered shop (Preact, every text and link set
 * by its script) audited with rendering on, each page's raw HTML beside the rendered page, the site's setting, and an
 * audit from before rendering was recorded. Screenshots at 1280, 375 and 390 px in test-results/screenshots/.
 */
let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let owner: SignedInUser;
let spa: Awaited<ReturnType<typeof startSpaSite>>;
let siteId: string;
const problems: string[] = [];
const axeResults: AxeResult[] = [];
const PHONE_390 = { width: 390, height: 844 };

async function open(url: string) {
  await page.goto(`${base}${url}`);
  await injectAxe(page);
}
/** The card alone at 1280 px and at a phone's 390 px: there the list must read as cards, not a clipped table. */
async function shootCard(name: string) {
  for (const size of [DESKTOP, PHONE_390]) {
    await page.setViewportSize(size);
    await page.locator('.rendering').screenshot({ path: path.join(SHOTS, `${name}-card-${size.width}.png`) });
    const clipped = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
    assert.equal(clipped, 0, `${name}: the page scrolls sideways at ${size.width} px`);
  }
  await page.setViewportSize(DESKTOP);
}

describe('JavaScript rendering in the web app', { skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)' }, () => {
  before(async () => {
    ensureWebBuilt();
    // Audits render with this Chromium (CHROMIUM_PATH); the shop is on loopback, so private targets are allowed.
    ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}) });
    base = await listening(ctx);
    spa = await startSpaSite();
    owner = await signUp(ctx, { name: 'Rita Renderer' });
    const created = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Northwind shop', domain: spa.host } });
    assert.equal(created.statusCode, 201, created.body);
    siteId = created.data.id;

    ({ browser, page } = await signedInBrowser(base, owner, problems));
  });
  after(async () => {
    await browser?.close();
    await ctx?.close();
    await spa?.close();
  });

  it("sets the site's JavaScript rendering, as an owner", async () => {
    await open(`/sites/${siteId}`);
    await page.getByRole('button', { name: 'Edit site' }).click();
    const select = page.getByLabel('JavaScript rendering');
    assert.equal(await select.inputValue(), 'auto', 'auto by default');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['Auto — recommended', 'Always', 'Never']);
    assert.match(await page.locator('#site-rendering-hint').innerText(), /crawlers without JavaScript/);
    await shoot(page, '18a-site-rendering-setting', axeResults);
    await select.selectOption('never');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('form').waitFor({ state: 'detached' });
    const saved = await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: owner.accessToken });
    assert.equal(saved.data.rendering, 'never');
    // Back to auto: the audit below renders the shop's pages.
    await page.getByRole('button', { name: 'Edit site' }).click();
    assert.equal(await page.getByLabel('JavaScript rendering').inputValue(), 'never', 'the form shows the saved setting');
    await page.getByLabel('JavaScript rendering').selectOption('auto');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('form').waitFor({ state: 'detached' });
    assert.equal((await call(ctx, { method: 'GET', url: `/api/v1/sites/${siteId}`, token: owner.accessToken })).data.rendering, 'auto');
  });

  it('audits a client-rendered shop and shows what only JavaScript adds, page by page', async () => {
    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.getByRole('heading', { name: 'Issues by check' }).waitFor({ timeout: 60_000 });
    const card = page.locator('section.rendering');
    await card.getByRole('heading', { name: 'JavaScript rendering' }).waitFor();
    const verdict = await card.locator('.render-verdict').innerText();
    assert.match(verdict, /^4 pages rendered: JavaScript adds the main text on \d — AI assistants' crawlers, which run no script, cannot read it\.$/);
    assert.match(await card.locator('.render-reasons').innerText(), /1 page because the home page is rendered once/);
    const rows = card.locator('.render-pages > tbody > tr');
    assert.equal(await rows.count(), 4);
    const home = rows.filter({ has: page.getByRole('button', { name: '/ (home page)', exact: true }) });
    assert.match(await home.locator('td[data-label="What JavaScript changes"]').innerText(), /Title.*Meta description.*Canonical.*H1.*Internal links/);
    assert.match(await home.locator('td[data-label="Main text in the HTML"]').innerText(), /^\d{1,2}%$/);
    assert.equal(await home.locator('td[data-label="Links only after JavaScript"]').innerText(), '3');

    // A row is red only when the audit flags it (under 50% of the main text in the HTML and 50 or more rendered words),
    // so the red rows are the ones the verdict counts.
    const flagged = Number(/adds the main text on (\d+)/.exec(verdict)![1]);
    assert.equal(await card.locator('td[data-label="Main text in the HTML"] .tone-bad').count(), flagged);

    // A page's detail: its raw HTML beside the rendered page; the noindex the script adds is an error, not a note.
    const about = card.getByRole('button', { name: /^\/about/ });
    await about.click();
    assert.equal(await about.getAttribute('aria-expanded'), 'true');
    const compare = card.getByRole('table', { name: /\/about: raw HTML and rendered page/ });
    const robots = compare.getByRole('row', { name: /^Robots meta/ });
    assert.match(await robots.innerText(), /Robots meta\s+directive changed\s+Raw HTML\s+none\s+Rendered\s+noindex|Robots meta\s+directive changed\s+none\s+noindex/i);
    assert.equal(await robots.getAttribute('class'), 'render-changed render-directive');
    const title = compare.getByRole('row', { name: /^Title/ });
    assert.equal(await title.getAttribute('class'), 'render-changed', 'a changed title is a note, not an error');
    const detail = await card.locator('.render-page').innerText();
    assert.match(detail, /blocked \(private or internal addresses\)/);
    assert.doesNotMatch(detail, /address guard|Act as links/);
    assert.match(await card.innerText(), /Rendering took [\d.]+ s and used up to [\d,]+ MB of memory\.|Rendering took [\d.]+ s\./);
    assert.match(await card.locator('.render-page').innerText(), /rendered because JavaScript adds text, links or directives/);
    await shoot(page, '18-audit-rendering', axeResults);
    await shootCard('18-audit-rendering');
    assert.deepEqual(problems, []);
  });

  it('shows a failed render with its error, pages past 20, and a server without Chromium', async () => {
    // The shop's own report, reshaped as a larger site would send it: 25 rendered pages, the first one failed.
    const ROUTE = '**/api/v1/audits/*/rendering?*';
    const real = (await call(ctx, { method: 'GET', url: `/api/v1/audits/${(await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: owner.accessToken })).data.id}/rendering`, token: owner.accessToken })).data;
    const sample = real.pages.items[1];
    const items = Array.from({ length: 25 }, (_, i) => ({ ...sample, url: `${spa.origin}/shop/coffee-${String(i + 1).padStart(2, '0')}` }));
    items[0] = { ...items[0], error: 'Navigation timeout of 10000 ms exceeded', rendered: null, changes: [], text_in_raw: null, links_only_rendered: { count: 0, examples: [] } };
    await page.route(ROUTE, (route) => {
      const url = new URL(route.request().url());
      const n = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 20);
      const body = { ...real, rendered: 24, failed: 1, pages: { items: items.slice((n - 1) * size, n * size), total: items.length, page: n, page_size: size } };
      return route.fulfill({ json: body });
    });
    await open(`/sites/${siteId}`);
    const card = page.locator('section.rendering');
    await card.locator('.render-pages').waitFor();
    assert.match(await card.locator('.render-verdict').innerText(), /25 pages rendered: .* 1 page failed to render: the raw HTML was audited instead\.$/);
    assert.equal(await card.locator('.render-pages > tbody > tr').count(), 20);
    const failed = card.locator('tr.render-failed');
    assert.match(await failed.innerText(), /Render failed/);
    await failed.getByRole('button').click();
    assert.match(await card.locator('.render-page .notice-error').innerText(), /The render failed: Navigation timeout of 10000 ms exceeded\. The raw HTML was audited instead\./);
    assert.deepEqual(await card.locator('.render-page thead th').allInnerTexts().then((t) => t.map((x) => x.toLowerCase())), ['field', 'raw html'], 'no rendered column for a failed render');
    // A failed render shows its error and the raw HTML audited: no render time, request counts or links without an href.
    const failedDetail = await card.locator('.render-page').innerText();
    assert.doesNotMatch(failedDetail, / · [\d,]+ ms|The browser made|no href/);
    await shootCard('18c-audit-rendering-failed');
    await card.getByRole('button', { name: 'Next' }).click();
    await card.getByText('21–25 of 25').waitFor();
    assert.equal(await card.locator('.render-pages > tbody > tr').count(), 5);
    await shoot(page, '18c-audit-rendering-paged', axeResults);

    // No Chromium on the server: the audit read raw HTML, and says so in a site owner's words (no setting's name).
    await page.unroute(ROUTE);
    await page.route(ROUTE, (route) => route.fulfill({ json: { ...real, available: false, unavailable: CHROMIUM_MISSING, rendered: 0, failed: 0, by_reason: [], pages: { items: [], total: 0, page: 1, page_size: 20 } } }));
    await open(`/sites/${siteId}`);
    await card.locator('.render-verdict').waitFor();
    assert.match(await card.innerText(), /Rendering was not available: the browser that renders pages is not installed on this server, so pages were audited as raw HTML; your administrator can install it\./);
    assert.doesNotMatch(await card.innerText(), /CHROMIUM_PATH/);
    assert.equal(await card.locator('.render-pages').count(), 0);
    await shootCard('18d-audit-rendering-unavailable');

    // While an audit runs the report is a 409: the card stays out of the way.
    await page.unroute(ROUTE);
    await page.route(ROUTE, (route) => route.fulfill({ status: 409, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Conflict', status: 409, detail: 'The audit is running' }) }));
    await open(`/sites/${siteId}`);
    await page.getByRole('heading', { name: 'AI crawlers' }).waitFor();
    assert.equal(await page.locator('section.rendering').count(), 0);
    assert.equal(await page.getByRole('alert').count(), 0, 'no error shown');
    await page.unroute(ROUTE);
    assert.deepEqual(problems, []);
  });

  it('says rendering was not recorded for an audit from before it existed', async () => {
    const older = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name: 'Older audit', domain: 'older.example.com' } });
    await ctx.database.db.insertInto('audits').values({ site_id: older.data.id, status: 'completed', max_pages: 500, score: 80, agent: 'finished', started_at: new Date(), finished_at: new Date() }).execute();
    await open(`/sites/${older.data.id}`);
    const card = page.locator('section.rendering');
    await card.waitFor();
    assert.match(await card.innerText(), /Rendering was not recorded for this audit/);
    await shoot(page, '18b-audit-rendering-not-recorded', axeResults);
    assert.deepEqual(problems, []);
  });
});
