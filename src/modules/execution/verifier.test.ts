import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { which } from '../../../test/helpers/programs.ts';
import { startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { SPA_PAGES, startSpaSite } from '../demo/spa-site.ts';
import { liveChecks } from '../task-types/index.ts';
import { createVerifier } from './verifier.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? which('chromium');
const shell = { status: 200, headers: { 'content-type': 'text/html' }, body: '<title>Shop</title><div id="app"></div><script type="module" src="/app.js"></script>' };
const rendered = '<html><head><title>Guji</title><meta name="description" content="Sun-dried Guji Natural from Shakiso, roasted light: blueberry, dark chocolate and jasmine."></head><body><main><p>Text</p></main></body></html>';
const descriptionTask = (url: string, after: string) => ({ type: 'fix_missing_meta_description', target: url, configuration: { url, after } });

describe('verification of a client-rendered page', () => {
  it('reads the page as its audits do: rendered where the HTML is a script\'s shell, raw for what must be in the HTML', async () => {
    const task = descriptionTask('https://spa.example/guji', 'Sun-dried Guji Natural from Shakiso, roasted light: blueberry, dark chocolate and jasmine.');
    const render = async () => rendered;
    assert.equal((await liveChecks(task, async () => shell, { mode: 'auto', render }))[0]?.passed, true, 'the description the script sets is live');
    assert.equal((await liveChecks(task, async () => shell))[0]?.passed, false, 'without rendering the shell has none');
    // render_on_server asks for the server's HTML: rendering must not make it pass.
    const brief = { type: 'render_on_server', target: 'https://spa.example/', configuration: { pages: [{ url: 'https://spa.example/guji', elements: ['main text'] }], elements: [], instructions: 'x' } };
    assert.equal((await liveChecks(brief, async () => shell, { mode: 'always', render }))[0]?.passed, false);
  });

  it('leaves a server-rendered page unrendered in auto, and renders it in always', async () => {
    let renders = 0;
    const render = async () => {
      renders += 1;
      return rendered;
    };
    const served = { status: 200, headers: {}, body: `<title>Guji</title><meta name="description" content="Old"><main><p>${'Guji Natural coffee from Ethiopia. '.repeat(10)}</p></main><script src="/a.js"></script>` };
    const task = descriptionTask('https://shop.example/guji', 'Old');
    assert.equal((await liveChecks(task, async () => served, { mode: 'auto', render }))[0]?.passed, true);
    assert.equal(renders, 0, 'its HTML has its content: not rendered');
    await liveChecks(task, async () => served, { mode: 'always', render });
    assert.equal(renders, 1);
  });

  describe('in Chromium, behind the guard', { skip: chromiumPath || process.env.CI ? false : 'Chromium is not installed (apt-get install chromium)' }, () => {
    let spa: Awaited<ReturnType<typeof startSpaSite>>;
    const spaHosts: string[] = [];
    before(async () => {
      spa = await startSpaSite();
    });
    after(() => spa.close());

    const verify = async (rendering: 'auto' | 'never', url = `${spa.origin}/about`, after = SPA_PAGES['/about']!.description!, templateRendersContent: boolean | null = null) => {
      const saved: Array<{ status: string }> = [];
      const verifier = createVerifier({
        tasks: {
          worker: {
            find: async () => ({ id: 't', site_id: 's', status: 'completed', rendering, template_renders_content: templateRendersContent, deliverables: null, ...descriptionTask(url, after) }),
            verification: async () => undefined,
            saveVerification: async (_id: string, verification: { status: string }) => void saved.push(verification),
          } as never,
        },
        queue: { sendAfter: async () => undefined } as never,
        allowPrivateTargets: { hosts: [spa.host, ...spaHosts] }, chromiumPath, log: pino({ level: 'silent' }), delaysSeconds: [],
      });
      await verifier.verify('t', 1);
      return saved[0]?.status;
    };

    it('verifies the description a client-rendered page sets, and fails it for a site set to never render', async () => {
      assert.ok(chromiumPath, 'chromium is not installed: .ci/run installs it');
      assert.equal(await verify('auto'), 'verified');
      assert.equal(await verify('never'), 'failed');
    });

    it("renders a page with server text too when the site's last audit found its scripts adding content to every page", async (t) => {
      const words = 'Our roastery buys green coffee directly from farms and roasts it every Monday. '.repeat(5);
      const site = await startFixtureSite({
        '/': { body: `<!doctype html><html><head><title>Roastery</title></head><body><p>${words}</p><script>const m = document.createElement('meta'); m.name = 'description'; m.content = 'Set by the page script, as the audit saw it.'; document.head.append(m)</script></body></html>` },
      });
      t.after(() => site.close());
      spaHosts.push(site.host);
      const after = 'Set by the page script, as the audit saw it.';
      assert.equal(await verify('auto', `${site.origin}/`, after, null), 'failed', 'its HTML has text: read raw, no description');
      assert.equal(await verify('auto', `${site.origin}/`, after, true), 'verified', 'rendered, as its audit read every page');
    });
  });
});
