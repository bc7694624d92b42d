import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameText } from '../../lib/strings.ts';
import { liveChecks } from './index.ts';

describe('live checks', () => {
  it('take a title as equal when the CMS only made its quotes and dashes typographic', async () => {
    assert.ok(sameText("Kent's roses - a grower's guide", 'Kent’s roses – a grower’s guide'));
    assert.ok(!sameText('Kent roses', 'Kent’s roses'));
    const page = { status: 200, headers: {}, body: '<title>Kent&#8217;s roses &#8211; Garden Shop</title>' };
    const [check] = await liveChecks({ type: 'fix_title_tag', target: 'https://shop.example/', configuration: { after: "Kent's roses - Garden Shop" } }, async () => page);
    assert.equal(check!.passed, true);
    const [other] = await liveChecks({ type: 'fix_title_tag', target: 'https://shop.example/', configuration: { after: 'Tulips - Garden Shop' } }, async () => page);
    assert.equal(other!.passed, false);
  });

  it('take render_on_server as done when the server HTML carries the listed pages\' main text and links, without running a script', async () => {
    const words = 'Guji Natural is a sun-dried coffee from smallholder farms around Shakiso in southern Ethiopia. '.repeat(5);
    const served = { status: 200, headers: {}, body: `<title>Guji</title><main><p>${words}</p><a href="/shop">Shop</a></main>` };
    const shell = { status: 200, headers: {}, body: '<title>Shop</title><div id="app"></div><script type="module" src="/app.js"></script>' };
    const task = {
      type: 'render_on_server', target: 'https://spa.example/',
      configuration: { pages: [{ url: 'https://spa.example/guji', elements: ['main text', 'internal links'] }, { url: 'https://spa.example/about', elements: ['robots meta or canonical'] }], elements: [], instructions: 'x' },
    };
    const done = await liveChecks(task, async () => served);
    assert.deepEqual(done.map((c) => [c.check, c.passed]), [['main_text_in_html', true], ['links_in_html', true]], 'a directive alone is not checked from the HTML');
    const notYet = await liveChecks(task, async () => shell);
    assert.deepEqual(notYet.map((c) => [c.check, c.actual, c.passed]), [['main_text_in_html', '0 words', false], ['links_in_html', '0 links', false]]);
  });

  it('take render_on_server\'s directives and links as served only when the server HTML says what the rendered page said', async () => {
    const url = 'https://spa.example/about';
    const task = {
      type: 'render_on_server', target: 'https://spa.example/',
      configuration: {
        pages: [{ url, elements: ['internal links', 'robots meta or canonical'], links_only_rendered: 3, directives: [{ field: 'robots', rendered: 'noindex' }, { field: 'canonical', rendered: url }] }],
        elements: [], instructions: 'x',
      },
    };
    const served = { status: 200, headers: {}, body: '<head><meta name="robots" content="noindex"><link rel="canonical" href="/about"></head><a href="/">Home</a><a href="/shop">Shop</a><a href="/journal">Journal</a>' };
    assert.deepEqual((await liveChecks(task, async () => served)).map((c) => [c.check, c.passed]), [['links_in_html', true], ['robots_in_html', true], ['canonical_in_html', true]]);
    const logoOnly = { status: 200, headers: {}, body: '<head><link rel="canonical" href="https://spa.example/"></head><a href="/">Logo</a>' };
    assert.deepEqual((await liveChecks(task, async () => logoOnly)).map((c) => [c.check, c.actual, c.passed]), [
      ['links_in_html', '1 links', false], ['robots_in_html', null, false], ['canonical_in_html', 'https://spa.example/', false],
    ]);
  });
});
