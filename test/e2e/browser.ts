// What the browser tests share: Debian's chromium, the two widths, and one check of a page
// (axe finds no serious or critical violation, nothing runs out of the screen, no segmented control leaves a choice
// alone on a row) with its screenshots.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { WEB_DIST } from '../../src/plugins/web.ts';
import type { TestContext } from '../helpers/app.ts';
import { which } from '../helpers/programs.ts';
import { until } from '../helpers/wait.ts';

export const chromiumPath = which('chromium');
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
export const slow = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type AxeResult = { page: string; width: number; violations: number; serious: string[] };

// page.evaluate runs outside the page's CSP, so the app's policy stays strict while axe runs.
export const injectAxe = (page: Page) => page.evaluate(axe.source);

/** Waits for the page to settle, checks it with axe (no serious or critical violations) and shoots it at both widths. */
export async function capture(page: Page, name: string, results: AxeResult[]) {
  // Polled from here: waitForFunction polls with eval inside the page, which the app's CSP refuses once it has to wait.
  await until(() => page.evaluate(`document.querySelectorAll('.loading').length`) as Promise<number>, (n) => n === 0, `${name} to finish loading`);
  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size);
    await slow(250);
    // Strings run in the page (this file is compiled without the DOM's types).
    const result = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} } })`)) as axe.AxeResults;
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
    assert.ok(result.passes.length > 20, 'axe really checked the page');
    results.push({ page: name, width: size.width, violations: result.violations.length, serious });
    assert.deepEqual(serious, [], `axe on ${name} at ${size.width}px`);
    // Usable at 375 px: nothing makes the page scroll sideways (wide tables and long lines of code scroll in their own box).
    const overflow = await page.evaluate<string[]>(`[...document.querySelectorAll('body *')]
      .filter((el) => (el.getBoundingClientRect().right > document.documentElement.clientWidth + 1
        // (or its text runs out of its box: a long address in a paragraph does not widen the paragraph)
        || (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && getComputedStyle(el).overflowX === 'visible'))
        && !el.parentElement.closest('.table-wrap, pre'))
      .slice(0, 5).map((el) => el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))
      .concat(document.documentElement.scrollWidth > document.documentElement.clientWidth ? ['page scrolls sideways: ' + document.documentElement.scrollWidth] : [])`);
    assert.deepEqual(overflow, [], `${name} at ${size.width}px is wider than the screen`);
    assert.deepEqual(await navProblems(page), [], `${name} at ${size.width}px: the main navigation`);
    // A segmented control (a period's 7 days, 28 days...) that takes more than one row leaves no choice alone on one.
    const orphans = await page.evaluate<string[]>(`[...document.querySelectorAll('.segmented')].filter((s) => s.getClientRects().length > 0).flatMap((s) => {
      const rows = new Map();
      for (const b of s.children) { const top = Math.round(b.getBoundingClientRect().top); rows.set(top, (rows.get(top) || 0) + 1); }
      const counts = [...rows.values()];
      return counts.length > 1 && counts.includes(1) ? [(s.getAttribute('aria-label') || 'a segmented control') + ': ' + counts.join(' + ')] : [];
    })`);
    assert.deepEqual(orphans, [], `${name} at ${size.width}px: a choice alone on its row`);
    // A site owner reads what is missing in words, never a server setting's name (CRUX_API_KEY, CHROMIUM_PATH: the README's).
    const settingNames = await page.evaluate<string[]>(`document.body.innerText.match(/\\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\\b/g) || []`);
    assert.deepEqual(settingNames, [], `${name} at ${size.width}px shows a server setting's name`);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/**
 * What hides a section of the top bar's navigation: a link outside the nav's box or the screen (a nav that scrolls or
 * clips sideways), or a link under another part of the bar (the workspace switcher, the account). Empty when every
 * section can be seen and clicked.
 */
export function navProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const nav = document.querySelector('.mainnav');
    if (!nav) return [];
    const box = nav.getBoundingClientRect();
    const others = [...document.querySelectorAll('.topbar > :not(.mainnav)')].map((el) => [el, el.getBoundingClientRect()]);
    const problems = nav.scrollWidth > nav.clientWidth + 1 ? ['the nav scrolls sideways: ' + nav.scrollWidth + ' > ' + nav.clientWidth] : [];
    for (const a of nav.querySelectorAll('a')) {
      const r = a.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.left < 0 || r.right > document.documentElement.clientWidth + 1) problems.push(a.textContent + ' is cut off at ' + Math.round(r.right));
      for (const [el, o] of others) {
        if (r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom) problems.push(a.textContent + ' is under .' + el.className);
      }
    }
    return problems;
  })()`);
}

/**
 * Chromium at the desktop width, signed in at `base` as `who`, with every console error and page error (a failed resource
 * aside) collected into `problems`: what a card's test starts from.
 */
export async function signedInBrowser(base: string, who: { email: string; password: string }, problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${base}/`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Sites' }).waitFor();
  return { browser, page };
}

/** The web app built (once, if this checkout has no build yet) and the screenshots' directory made: what every browser suite needs first. */
export function ensureWebBuilt() {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    const built = spawnSync(process.execPath, ['scripts/web/build.ts'], { stdio: 'inherit' });
    assert.equal(built.status, 0, 'npm run build:web');
  }
  fs.mkdirSync(SHOTS, { recursive: true });
}

/** The test app listening on a free loopback port; its base URL. */
export async function listening(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}
