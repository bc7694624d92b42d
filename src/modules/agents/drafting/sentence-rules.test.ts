import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPENING_RULES, openingRule, readSentences, SENTENCE_RULES, sentenceRulesOf } from './sentence-rules.ts';

/**
 * The rule that names a sentence's refusal, read as a block of its own on an English page with no name of its own, as an
 * article's and as another page's (the hook rule reads articles only, the shop rule the others).
 */
const rulesOf = (sentence: string) => [true, false].map((article) => readSentences(sentence, 'en', new Set(), article)[0]?.rule);

describe('the rules a sentence of a description meets, each named', () => {
  for (const rule of SENTENCE_RULES) {
    it(`${rule.id}: refuses its example (and is the rule that names the refusal), never fires on its counter-example`, () => {
      assert.ok(rulesOf(rule.example).includes(rule.id), `${rule.example}: ${rulesOf(rule.example)}`);
      for (const article of [true, false]) {
        assert.ok(!sentenceRulesOf(rule.counterExample, 'en', article, new Set(['pg_dump'])).includes(rule.id), `${rule.counterExample} (article: ${article})`);
      }
    });
  }
  for (const rule of OPENING_RULES) {
    it(`${rule.id}: keeps its example from opening a description after the page's start, lets its counter-example open one`, () => {
      assert.equal(openingRule(rule.example, false), rule.id, rule.example);
      assert.notEqual(openingRule(rule.counterExample, false), rule.id, rule.counterExample);
    });
  }
  it('code: a work\'s title in angle brackets, as Korean prints it, is no markup; a tag is', () => {
    assert.ok(!sentenceRulesOf('현재 MBC는 이유리 주연의 <숨바꼭질>로 승부를 보고 있으며 SBS는 <그녀로 말할 것 같으면>이 종영을 앞두고 있다.', 'ko', true).includes('code'));
    assert.ok(sentenceRulesOf('Set <b>x</b> in the template before the page renders.', 'en', true).includes('code'));
  });
  it('gives every rule an id of its own', () => {
    const ids = [...SENTENCE_RULES, ...OPENING_RULES].map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
