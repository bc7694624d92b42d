import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPageFacts } from './extract.ts';
import { RENDER_RULES, renderRuleFor } from './render-rules.ts';

const document = (body: string) => `<!doctype html><html><head><title>Page</title></head><body>${body}</body></html>`;

describe('render rules (auto)', () => {
  for (const rule of RENDER_RULES) {
    it(`${rule.id}: renders its example, not its counter-example`, () => {
      assert.equal(rule.applies(extractPageFacts(document(rule.example))), true, rule.example);
      assert.equal(rule.applies(extractPageFacts(document(rule.counterExample))), false, rule.counterExample);
    });
  }

  it('reads app roots whatever they hold: nested elements of the same name, text deep inside, an unclosed root', () => {
    const nested = extractPageFacts(document('<div id="root"><div><div></div></div></div><p>Outside the root there are words.</p><script src="/a.js"></script>'));
    assert.deepEqual(nested.scripting?.appRoot, { selector: 'div#root', chars: 0 });
    const filled = extractPageFacts(document('<div id="app"><div><span>Server-rendered</span> text</div></div><script src="/a.js"></script>'));
    assert.equal(filled.scripting?.appRoot?.chars, 'Server-renderedtext'.length);
    assert.equal(extractPageFacts('<app-root>').scripting?.appRoot?.selector, 'app-root');
  });

  it('counts scripts but not JSON-LD, and keeps a page with none free of signals', () => {
    const facts = extractPageFacts(document('<script type="application/ld+json">{"@type":"Thing"}</script><script>1</script>'));
    assert.equal(facts.scripting?.scripts, 1);
    assert.equal(extractPageFacts(document('<p>Plain page.</p>')).scripting, undefined);
  });

  it('finds links without an href: <a> with no href, role="link", navigating onclick; not anchors or ordinary buttons', () => {
    const facts = extractPageFacts(document(
      '<a class="nav">Pricing</a><span role="link">Careers</span><div onclick="location.href=\'/blog\'">Blog</div>'
      + '<a name="top"></a><a id="section">Section</a><button onclick="toggle()">Menu</button><a href="/ok">OK</a>',
    ));
    assert.deepEqual(facts.scripting?.pseudoLinks, ['Pricing', 'Careers', 'Blog']);
  });

  it('picks the first rule that applies, and none for an ordinary page', () => {
    assert.equal(renderRuleFor(extractPageFacts(document('<div id="root"></div><noscript>Please enable JavaScript</noscript><script src="/x.js"></script>'))), 'empty_app_root');
    assert.equal(renderRuleFor(extractPageFacts(document(`<article><p>${'A paragraph of an article about bread. '.repeat(20)}</p></article><script src="/analytics.js"></script>`))), undefined);
  });
});
