import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { call, signUp, startTestApp, type SignedInUser, type TestContext } from '../helpers/app.ts';
import { capture, chromiumPath, DESKTOP, injectAxe, PHONE, SHOTS, signedInBrowser, ensureWebBuilt, listening, type AxeResult } from './browser.ts';
import { fieldOnlyReport, pageSpeedReport, unavailableReport } from './page-speed-report.ts';

/**
 * The audit's "Core Web Vitals" card in a real browser. Lighthouse takes seconds a page, so the audits here are rows
 * with a stored report (page-speed-report.ts) read through the real API: a shop with a slow home page and field data,
 * a server without Chromium, an audit from before page speed was measured, and an audit still running. Screenshots
 * at 1280 and 375 px in test-results/screenshots/.
 */
let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let owner: SignedInUser;
const problems: string[] = [];
const axeResults: AxeResult[] = [];
const ORIGIN = 'https://northwind-roasters.example.com';
/** Text as read aloud: a value and its rating sit on lines of their own in a column. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

async function open(url: string) {
  await page.goto(`${base}${url}`);
  await injectAxe(page);
}
/** The whole page, checked with axe and for sideways scrolling at both widths (browser.ts). */
async function shoot(name: string) {
  await capture(page, name, axeResults);
}
/** The card alone at 1280 px and at a phone's 375 px: there the rows must read as cards, not a clipped table. */
async function shootCard(name: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    const file = `${name}-card-${size.width}.png`;
    await page.locator('.page-speed').screenshot({ path: path.join(SHOTS, file) });
    const clipped = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
    assert.equal(clipped, 0, `${name}: the page scrolls sideways at ${size.width} px`);
    // The table scrolls in its own box (which browser.ts lets pass): here nothing may need to, a rating cut off at its edge
    // included; only a line of HTML scrolls, inside its own <pre> (which must fit).
    const spill = await page.evaluate<string[]>(`[...document.querySelectorAll('.page-speed .table-wrap')].flatMap((wrap) => {
      const edge = wrap.getBoundingClientRect().right;
      return [...wrap.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > edge + 1 && !el.parentElement.closest('pre')).slice(0, 3).map((el) => el.className + ': ' + el.textContent.slice(0, 40));
    })`);
    assert.deepEqual(spill, [], `${name}: runs out of the table at ${size.width} px`);
  }
  await page.setViewportSize(DESKTOP);
}
/** A site whose latest audit is complete and holds this report (null: an audit from before page speed was measured). */
async function siteWith(name: string, report: unknown) {
  const site = await call(ctx, { method: 'POST', url: '/api/v1/sites', token: owner.accessToken, payload: { name, domain: `${name.toLowerCase().replace(/\W+/g, '-')}.example.com` } });
  assert.equal(site.statusCode, 201, site.body);
  await ctx.database.db.insertInto('audits').values({
    site_id: site.data.id, status: 'completed', max_pages: 500, score: 74, agent: 'finished', started_at: new Date(), finished_at: new Date(),
    page_speed: report === null ? null : JSON.stringify(report),
  }).execute();
  return site.data.id as string;
}

describe('Core Web Vitals in the web app', { skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)' }, () => {
  before(async () => {
    ensureWebBuilt();
    ctx = await startTestApp();
    base = await listening(ctx);
    owner = await signUp(ctx, { name: 'Vita Lighthouse' });

    ({ browser, page } = await signedInBrowser(base, owner, problems));
  });
  after(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('shows each template in the lab beside real visits, a verdict, and what makes a page slow', async () => {
    const siteId = await siteWith('Northwind Roasters', pageSpeedReport(ORIGIN));
    await open(`/sites/${siteId}`);
    const card = page.locator('section.page-speed');
    await card.getByRole('heading', { name: 'Core Web Vitals' }).waitFor();
    // Below the rendering card, as the audit page reads: what crawlers see, then how fast people see it.
    assert.ok(await page.evaluate<boolean>(`!!(document.querySelector('section.rendering').compareDocumentPosition(document.querySelector('section.page-speed')) & Node.DOCUMENT_POSITION_FOLLOWING)`));
    assert.equal(await card.locator('.cwv-verdict').innerText(),
      '4 templates on phones: 2 need work (the home page, /blog/*), 1 passes, 1 could not be measured. A template needs work when its LCP, CLS or TBT is not good in the lab.');
    assert.equal(await card.locator('.cwv-verdict').getAttribute('class'), 'cwv-verdict tone-bad', 'a poor LCP');

    // The whole site's real visits, once, above the table.
    const origin = card.locator('.cwv-origin');
    assert.match(oneLine(await origin.innerText()), /Field \(real users, 28 days\): the whole site on phones\s+Does not pass Google's Core Web Vitals assessment/);
    assert.deepEqual((await origin.locator('li').allInnerTexts()).map(oneLine), ['LCP 3.1 s needs improvement', 'INP 180 ms good', 'CLS 0.05 good']);

    const table = card.getByRole('table', { name: /Core Web Vitals of each measured page: Lab \(Lighthouse, mobile\) and Field \(real users, 28 days\)/ });
    assert.deepEqual(await table.locator('thead th[scope=colgroup]').allInnerTexts(), ['Lab (Lighthouse, mobile)', 'Field (real users, 28 days)']);
    const rows = table.locator(':scope > tbody > tr');
    assert.equal(await rows.count(), 4);
    const home = rows.filter({ has: page.getByRole('button', { name: '/ (home page)', exact: true }) });
    assert.equal(await home.locator('.cwv-template').count(), 0, 'the home page is a template of its own: the button says so');
    const cell = (row: typeof home, label: string) => row.locator(`td[data-label="${label}"]`).innerText().then(oneLine);
    assert.equal(await cell(home, 'Lab score'), '38/100 poor');
    assert.equal(await cell(home, 'Lab LCP'), '5.2 s poor');
    assert.equal(await cell(home, 'Lab CLS'), '0.02 good');
    assert.equal(await cell(home, 'Lab TBT'), '420 ms needs improvement');
    // The page's own real visits beside the lab; a page Google has too few visits of says so.
    assert.equal(await cell(home, 'Field LCP'), '3.4 s needs improvement');
    assert.equal(await cell(home, 'Field INP'), '240 ms needs improvement');
    const coffee = rows.filter({ has: page.getByRole('button', { name: /^\/coffee\/ethiopia-yirgacheffe/ }) });
    assert.match(oneLine(await coffee.locator('td').first().innerText()), /Template \/coffee\/\* · 24 pages like it/);
    assert.equal(await cell(coffee, 'Field'), 'Too few visits for data of its own');
    const failed = rows.filter({ has: page.getByRole('button', { name: /^\/wholesale/ }) });
    assert.equal(await failed.getAttribute('class'), 'cwv-failed');
    assert.equal(await cell(failed, 'Lab'), 'Not measured (open the row for why)');

    // A row opens what makes the page slow: the LCP element and its fixes, the images with what to serve.
    const toggle = card.getByRole('button', { name: '/ (home page)', exact: true });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const detail = card.locator(`#${await toggle.getAttribute('aria-controls')}`);
    const text = oneLine(await detail.innerText());
    assert.match(text, /Largest element \(LCP\)\s+An image, hero-espresso\.jpg: main > section\.hero > img\.hero-image/);
    assert.match(text, /Remove loading="lazy" from it/);
    assert.match(text, /Add fetchpriority="high" to it/);
    assert.match(text, /Where its time went: TTFB 180 ms · Load Delay 2\.9 s · Load Time 1\.6 s · Render Delay 520 ms/);
    assert.match(text, /Images to serve better\s+hero-espresso\.jpg: 1\.2 MB, 2,400 × 1,600 px shown at 360 × 240 px\. Serve WebP or AVIF, 720 x 480 px .* Saves about 1\.1 MB\./);
    assert.match(text, /Files that block the first paint\s+theme\.css: 86 KB, delays the first paint by about 740 ms/);
    assert.match(text, /Other opportunities\s+Reduce unused JavaScript: saves about 1\.4 s, 182 KB/);
    assert.match(text, /Field \(real users, 28 days\), this page: does not pass Google's assessment · TTFB 900 ms needs improvement/);
    // The element's HTML keeps its line whole on a phone (it scrolls in its own box) rather than breaking inside a word.
    await page.setViewportSize(PHONE);
    const snippetLines = await page.evaluate<number>(`document.querySelector('.cwv-snippet code').getClientRects().length`);
    await page.setViewportSize(DESKTOP);
    assert.equal(snippetLines, 1, "the LCP element's HTML on one line");
    assert.match(await card.innerText(), /Measuring took 1\.2 min\. The pages asked for 1 private or internal address, blocked: 10\.0\.0\.12:443\./);
    await shoot('19-audit-page-speed');
    await shootCard('19-audit-page-speed');

    // The page Lighthouse could not measure says why.
    await toggle.click();
    await failed.getByRole('button').click();
    assert.match(await card.locator('.cwv-page .notice-error').innerText(), /^Lighthouse could not measure this page: The page did not paint any content$/);
    await shootCard('19a-audit-page-speed-failed');
    assert.deepEqual(problems, []);
  });

  it('says why Lighthouse did not run, how to add real visits, and shows real visits alone', async () => {
    const siteId = await siteWith('No Chromium', unavailableReport(ORIGIN));
    await open(`/sites/${siteId}`);
    const card = page.locator('section.page-speed');
    await card.locator('.cwv-verdict').waitFor();
    // In a site owner's words: what is missing and who can set it up, never the server's setting names (the README has those).
    assert.equal(await card.locator('.cwv-verdict').innerText(), 'Not measured in the lab: the browser Lighthouse needs is not installed on this server, so the pages could not be measured; your administrator can install it.');
    assert.match(await card.innerText(), /Field data from real Chrome users is not set up for this installation; your administrator can enable it\./);
    assert.doesNotMatch(await card.innerText(), /CRUX_API_KEY|CHROMIUM_PATH|PAGE_SPEED_PAGES|README/);
    assert.equal(await card.locator('table').count(), 0, 'nothing measured, nothing to list');
    await shoot('19b-audit-page-speed-unavailable');
    await shootCard('19b-audit-page-speed-unavailable');

    // Lighthouse turned off, real visits configured: the field columns alone.
    await open(`/sites/${await siteWith('Field only', fieldOnlyReport(ORIGIN))}`);
    await card.locator('.cwv-pages').waitFor();
    assert.equal(await card.locator('.cwv-verdict').innerText(), 'Not measured in the lab: Lighthouse is turned off on this server; your administrator can turn it on.');
    assert.deepEqual(await card.locator('thead th[scope=colgroup]').allInnerTexts(), ['Field (real users, 28 days)']);
    const home = card.locator('.cwv-pages > tbody > tr').first();
    assert.equal(oneLine(await home.locator('td[data-label="Field LCP"]').innerText()), '3.4 s needs improvement');
    await shootCard('19e-audit-page-speed-field-only');
    assert.deepEqual(problems, []);
  });

  it('says page speed was not measured for an audit from before it was, and stays out of the way while an audit runs', async () => {
    const siteId = await siteWith('Older audit', null);
    await open(`/sites/${siteId}`);
    const card = page.locator('section.page-speed');
    await card.waitFor();
    assert.match(await card.innerText(), /Page speed was not measured for this audit/);
    await shootCard('19c-audit-page-speed-not-measured');

    // While an audit runs the report is a 409: no card, no error.
    const ROUTE = '**/api/v1/audits/*/page-speed';
    await page.route(ROUTE, (route) => route.fulfill({ status: 409, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Conflict', status: 409, detail: 'The audit is running' }) }));
    await open(`/sites/${siteId}`);
    await page.locator('section.rendering').waitFor();
    await capture(page, '19d-audit-page-speed-running', axeResults);
    assert.equal(await page.locator('section.page-speed').count(), 0);
    assert.equal(await page.getByRole('alert').count(), 0, 'no error shown');
    await page.unroute(ROUTE);
    assert.deepEqual(problems, []);
  });
});
