import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftLlmsTxt, LLMS_TXT_RULES, MAX_DRAFT_LINKS, validateLlmsTxt } from './llms-txt.ts';

const BASE = 'https://x.test/llms.txt';
const rulesOf = (body: string) => validateLlmsTxt(body, BASE).map((p) => p.rule);

describe('the llms.txt validator', () => {
  for (const rule of LLMS_TXT_RULES) {
    it(`${rule.id}: catches its example and lets its counter-example through`, () => {
      assert.ok(rulesOf(rule.example).includes(rule.id), `${rule.id} catches ${JSON.stringify(rule.example)}`);
      assert.ok(!rulesOf(rule.counterExample).includes(rule.id), `${rule.id} lets ${JSON.stringify(rule.counterExample)} through`);
    });
  }

  it('accepts the format as llmstxt.org shows it: H1, summary, free text, H2 link lists, an Optional section', () => {
    const body = [
      '# FastHTML', '', '> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX.', '',
      'Important notes:', '', '- Although parts of its API are inspired by FastAPI, it is *not* compatible', '',
      '## Docs', '', '- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md): A brief overview',
      '- [HTMX reference](/docs/htmx.md)', '', '## Optional', '', '- [Starlette full documentation](https://gist.github.com/x/starlette.md)', '',
    ].join('\n');
    assert.deepEqual(validateLlmsTxt(body, BASE), []);
  });

  it('calls an H1 after a first line of text misplaced, not a second H1', () => {
    assert.deepEqual(rulesOf('Welcome to our site\n# Site\n'), ['h1_first']);
  });

  it('says on which line each problem is, and ignores what a code fence holds', () => {
    const problems = validateLlmsTxt('# Site\n## Docs\n```\n- not a link\n```\n- [A](https://x.test/a)\n- plain item\n', BASE);
    assert.deepEqual(problems.map((p) => [p.rule, p.line]), [['list_item_link', 7]]);
  });
});

describe('the llms.txt draft', () => {
  it('is in the format: the name as H1, the summary as blockquote, at most 30 links with their descriptions', () => {
    const pages = Array.from({ length: 40 }, (_, i) => ({ url: `https://x.test/p${i}?a=(b)`, title: `Page [${i}]`, description: i === 0 ? 'First\npage.' : null }));
    const draft = draftLlmsTxt({ name: 'Shop', summary: 'We sell  chairs.' }, pages);
    assert.deepEqual(validateLlmsTxt(draft, BASE), []);
    const lines = draft.split('\n');
    assert.deepEqual(lines.slice(0, 5), ['# Shop', '', '> We sell chairs.', '', '## Pages']);
    assert.equal(lines.filter((l) => l.startsWith('- [')).length, MAX_DRAFT_LINKS);
    assert.ok(lines.includes('- [Page 0](https://x.test/p0?a=%28b%29): First page.'));
  });

  it('is valid with no summary and no pages', () => {
    const draft = draftLlmsTxt({ name: 'Shop', summary: null }, []);
    assert.equal(draft, '# Shop\n');
    assert.deepEqual(validateLlmsTxt(draft, BASE), []);
  });
});
