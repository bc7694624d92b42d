import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runDemo } from '../../src/modules/demo/demo.ts';
import { demoSiteContent } from '../../src/modules/demo/demo-site.ts';
import { startWordPressServer, type WordPressServer } from '../../src/modules/demo/wordpress-stand-in.ts';
import { signUp, startTestApp, type SignedInUser, type TestContext } from '../helpers/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { until } from '../helpers/wait.ts';
import { capture as shoot, CHROMIUM_ARGS, chromiumPath, DESKTOP, injectAxe, navProblems, SHOTS, slow, ensureWebBuilt, listening, type AxeResult } from './browser.ts';

/**
 * Workspaces in a real browser: an owner shares a workspace, a viewer joins through the
 * invitation's link signed out (making an account), an editor with an account signs in from
 * it and joins; the editor can approve what the viewer can only read.
 */
let ctx: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let demo: { email: string; password: string; siteId: string };
let demoSite: WordPressServer | undefined;
let editor: SignedInUser;
/** The workspace's webhook receiver: a local server answering 204 to every POST, kept for the checks. */
let receiver: http.Server;
/** Where the app's e-mail goes (SMTP_URL): the invitations are read from it. */
let smtp: TestSmtpServer;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const links: { viewer?: string; editor?: string } = {};
const problems: string[] = [];
const axeResults: AxeResult[] = [];
const capture = (name: string) => shoot(page, name, axeResults);

async function open(url: string) {
  await page.goto(`${base}${url}`);
  await injectAxe(page);
}
async function signIn(email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}
/** The link as the API wrote it (PUBLIC_URL), opened on this test's server. */
const local = (link: string) => new URL(link).pathname;

describe('workspaces in the web app', { skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)' }, () => {
  before(async () => {
    ensureWebBuilt();
    smtp = await startSmtpServer();
    ctx = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', SMTP_URL: smtp.url, ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}) });
    base = await listening(ctx);
    demoSite = await startWordPressServer(demoSiteContent());
    const { users, sites, searchData } = ctx.app.services;
    demo = await runDemo({ app: ctx.app, users, sites, searchData, website: demoSite });
    editor = await signUp(ctx, { name: 'Eda Editor' });
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  after(async () => {
    await browser?.close();
    await ctx?.close();
    await demoSite?.close();
    receiver?.close();
    await smtp?.close();
  });

  it('an owner creates a workspace, adds a site to it, moves another in, and invites a viewer and an editor', async () => {
    await open('/');
    await signIn(demo.email, demo.password);
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
    await page.getByLabel('New workspace').fill('Acme Gardens');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Acme Gardens', level: 2 }).waitFor();
    await page.getByText('You are owner').waitFor();

    // A new site goes to the workspace chosen in the form.
    await open('/sites');
    await page.getByRole('button', { name: 'Add site', exact: true }).click();
    await page.getByLabel('Name').fill('Acme shop');
    await page.getByLabel('Domain').fill('shop.acme-gardens.example');
    await page.locator('#site-workspace').selectOption({ label: 'Acme Gardens' });
    await page.locator('form').getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('link', { name: 'Acme shop' }).waitFor();
    // And the demo site moves in from the owner's personal workspace (Edit site).
    await open(`/sites/${demo.siteId}`);
    await page.getByRole('button', { name: 'Edit site' }).click();
    await page.locator('#site-workspace').selectOption({ label: 'Acme Gardens' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.site-workspace').filter({ hasText: 'In Acme Gardens' }).waitFor();
    // The demo e-mails the shop's report monthly; the owner adds the agency's client and sends last month's now.
    const schedule = page.locator('.report-schedule');
    await schedule.getByText('Monthly to owner@demo-garden-shop.example').waitFor();
    await schedule.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('Send to').fill('owner@demo-garden-shop.example, client@acme-gardens.example');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await schedule.getByRole('status').filter({ hasText: /^Scheduled: the report for \w+ \d{4} goes out on / }).waitFor();
    await schedule.getByText('Monthly to owner@demo-garden-shop.example, client@acme-gardens.example').waitFor();
    await schedule.getByRole('button', { name: 'Send now' }).click();
    await schedule.getByRole('status').filter({ hasText: 'is on its way to 2 addresses' }).waitFor();
    const report = await smtp.mailTo('client@acme-gardens.example', 60_000);
    assert.match(report.subject, /^Demo Garden Shop: search report, /);
    assert.equal(report.attachments[0]?.contentType, 'application/pdf');
    await injectAxe(page);
    await capture('11c-report-schedule');
    // The top bar's switcher picks the workspace the Sites page shows, remembered in this browser.
    await open('/sites');
    const switcher = page.getByLabel('Current workspace');
    await switcher.selectOption({ label: 'Personal (personal)' });
    await page.getByText('No sites in Personal yet').waitFor();
    await switcher.selectOption({ label: 'Acme Gardens' });
    await page.locator('.sites-table tbody tr').nth(1).waitFor();
    assert.equal(await page.locator('.sites-table tbody tr').count(), 2);
    assert.match(await page.evaluate<string>('localStorage.getItem("sos:workspace")'), /^[0-9a-f-]{36}$/);
    await page.reload();
    await page.locator('.sites-table tbody tr').nth(1).waitFor();
    assert.equal(await page.getByLabel('Current workspace').inputValue(), await page.evaluate<string>('localStorage.getItem("sos:workspace")'), 'remembered');
    await injectAxe(page);
    await capture('11b-sites-switcher');
    // With the switcher in the bar every section stays whole and clickable at a laptop's and a phone's widths too
    // (the bar once scrolled sideways, hiding Workspaces and Settings at 1280 px).
    for (const width of [1440, 1280, 1024, 768, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await slow(100);
      assert.deepEqual(await navProblems(page), [], `the navigation at ${width}px with the workspace switcher`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click({ trial: true });
    }
    await page.setViewportSize(DESKTOP);

    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('heading', { name: 'Acme Gardens', level: 2 }).waitFor();
    const viewerEmail = `viewer-${Date.now()}@example.org`;
    for (const [who, email] of [['viewer', viewerEmail], ['editor', editor.email]] as const) {
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption(who);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const shown = page.getByRole('status').filter({ hasText: `We e-mailed ${email} an invitation` });
      await shown.waitFor();
      links[who] = await page.getByLabel('Invitation link').inputValue();
      await page.locator('.invitations-table tbody tr').filter({ hasText: email }).filter({ hasText: 'pending' }).waitFor();
      // The invitee gets it by e-mail: the same link, the workspace, the role.
      const mail = await smtp.mailTo(email);
      assert.ok(mail.text.includes(links[who]!), 'the e-mailed link is the one shown');
      assert.match(mail.text, new RegExp(`"Acme Gardens" on Site Optimization as an? ${who}`));
    }
    assert.match(await page.locator('.invite-link').innerText(), /valid for 7 days, and is shown only now/);
    // Resent: a new link goes by e-mail, and the old one stops working.
    await page.getByRole('button', { name: `Resend the invitation to ${viewerEmail}` }).click();
    await page.getByRole('status').filter({ hasText: `A new link was e-mailed to ${viewerEmail}` }).waitFor();
    const resentLink = await page.getByLabel('New invitation link').inputValue();
    assert.notEqual(resentLink, links.viewer);
    const resent = await until(async () => smtp.received.filter((m) => m.to.includes(viewerEmail)), (m) => m.length === 2, 'the resent invitation');
    assert.ok(resent[1]!.text.includes(resentLink), 'the new link is e-mailed');
    const oldLink = links.viewer!;
    links.viewer = resentLink;
    // The only owner is told why they cannot leave, rather than offered a Leave the API refuses.
    await page.locator('.members-table').getByText('The only owner cannot leave').waitFor();
    assert.equal(await page.locator('.members-table').getByRole('button', { name: 'Leave' }).count(), 0);
    await injectAxe(page);
    await capture('14b-invitation-resent');
    // An owner may invite an owner; the personal workspace has no invite form.
    assert.deepEqual(await page.getByLabel('Role', { exact: true }).locator('option').allInnerTexts(), ['viewer', 'editor', 'admin', 'owner']);
    // Each member chooses their own e-mail from the workspace: the digest, and alerts.
    await page.getByLabel('Proposals awaiting approval').selectOption({ label: 'A daily digest' });
    await page.locator('.email-settings').getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await injectAxe(page);
    await capture('14-workspaces');
    await signOut();
    // The replaced link opens nothing.
    assert.equal((await fetch(`${base}/api/v1${local(oldLink)}`)).status, 404);
  });

  it('the owner adds a webhook, sees its secret once, and a test event is delivered and logged', async () => {
    await open('/');
    await signIn(demo.email, demo.password);
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('heading', { name: 'Acme Gardens', level: 2 }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/seo`;
    await page.getByLabel('Endpoint URL').fill(endpoint);
    await page.getByLabel(/An audit finished/).check();
    await page.getByLabel(/A task failed/).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
    const row = page.locator('.webhooks-table tbody tr').filter({ hasText: endpoint });
    await row.filter({ hasText: 'audit.completed, task.failed' }).waitFor();

    await page.getByRole('button', { name: `Send test event to ${endpoint}` }).click();
    await page.getByRole('status').filter({ hasText: 'A webhook.test event is on its way' }).waitFor();
    await page.getByRole('button', { name: `Delivery log of ${endpoint}` }).click();
    // The delivery is a durable job the test app works in process: refresh the log until it answers.
    const log = page.locator('.delivery-log');
    await until(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      await until(() => page.evaluate(`document.querySelectorAll('.delivery-log .loading').length`) as Promise<number>, (n) => n === 0, 'the log');
      return log.locator('.deliveries-table tbody tr').filter({ hasText: 'webhook.test' }).filter({ hasText: 'succeeded' }).count();
    }, (n) => n === 1, 'the test delivery to succeed');
    await log.locator('.deliveries-table tbody tr').filter({ hasText: '204' }).waitFor();
    // The log's Refresh refreshes the endpoint's Last delivery too: the two agree.
    await row.filter({ hasText: 'succeeded' }).waitFor();
    // What arrived is signed with the secret the page showed (Standard Webhooks).
    assert.equal(received.length, 1);
    const { headers, body } = received[0]!;
    assert.equal(JSON.parse(body).type, 'webhook.test');
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
    assert.ok(String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`), 'signed with the secret shown');
    await injectAxe(page);
    await capture('18-webhooks');

    // Rotated: a new secret, beside its endpoint, once.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Rotate secret of ${endpoint}` }).click();
    await page.getByRole('status').filter({ hasText: 'has a new signing secret' }).waitFor();
    const rotated = await page.locator('.webhooks-table .secret-row').getByLabel('Signing secret').inputValue();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await injectAxe(page);
    await capture('18b-webhook-rotated');

    // Shown once: after a reload the secret is gone, and the endpoint's last delivery says it succeeded.
    await page.reload();
    await row.filter({ hasText: 'succeeded' }).waitFor();
    assert.equal(await page.getByLabel('Signing secret').count(), 0, 'the secret is not shown again');
    await signOut();
  });

  it('a viewer joins signed out by making an account, and is offered nothing to approve', async () => {
    await open(local(links.viewer!));
    await page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    // The link says what it offers before anyone accepts: the workspace, the role, who invited.
    await page.locator('.invitation-summary').filter({ hasText: /invited .+ to Acme Gardens as a viewer/ }).waitFor();
    await capture('15-accept-signed-out');
    await page.getByLabel('Your name').fill('Vera Viewer');
    await page.getByLabel('Choose a password').fill('short');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.locator('#accept-password-error').filter({ hasText: 'at least 10' }).waitFor();
    await page.getByLabel('Choose a password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.getByRole('heading', { name: 'Acme Gardens', level: 2 }).waitFor();
    await page.getByText('You are viewer').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Invite' }).count(), 0, 'a viewer invites nobody');
    assert.equal(await page.getByRole('button', { name: /^Remove/ }).count(), 0, 'a viewer removes nobody');
    // Signed in for good: a reload keeps the session (the web session's cookie, not the accept's tokens).
    await page.reload();
    await page.getByRole('heading', { name: 'Acme Gardens', level: 2 }).waitFor();

    await open(`/approvals?site=${demo.siteId}`);
    await page.locator('.proposal').first().waitFor();
    await page.getByText('You can view these proposals').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve' }).count(), 0, 'no Approve for a viewer');
    assert.equal(await page.getByRole('button', { name: 'Approve selected' }).count(), 0);
    await open(`/sites/${demo.siteId}`);
    await page.locator('.site-workspace').filter({ hasText: 'you can view this site' }).waitFor();
    // No act-links for a viewer: the proposals can be seen, with who approves them.
    await page.getByText('(an editor or above approves)').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Review them' }).count(), 0, 'no Review them for a viewer');
    assert.equal(await page.getByRole('button', { name: 'Start audit' }).count(), 0, 'no audit for a viewer');
    assert.equal(await page.getByRole('button', { name: 'Edit site' }).count(), 0);
    await injectAxe(page);
    await capture('17-site-viewer');
    await signOut();
  });

  it('an editor with an account signs in from the link, joins, and approves a proposal', async () => {
    await open(local(links.editor!));
    await page.getByRole('button', { name: 'Sign in to accept' }).click();
    await page.getByText('Sign in with the address the invitation was sent to').waitFor();
    await signIn(editor.email, editor.password);
    await page.getByRole('button', { name: 'Join the workspace' }).waitFor();
    await injectAxe(page);
    await capture('15b-accept-signed-in');
    await page.getByRole('button', { name: 'Join the workspace' }).click();
    await page.getByText('You are editor').waitFor();

    await open(`/approvals?site=${demo.siteId}`);
    const card = page.locator('.proposal').first();
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: '1 proposal approved and queued.' }).waitFor();
    await capture('16-approvals-editor');

    // The link works once.
    await open(local(links.editor!));
    await page.getByRole('button', { name: 'Join the workspace' }).click();
    await page.getByRole('alert').filter({ hasText: 'ask the person who invited you for a new link' }).waitFor();
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
  });
});
