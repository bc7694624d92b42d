import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPENING_RULES, openingRule, readSentences, SENTENCE_RULES } from '../description-writer.ts';

/** The first rule a sentence breaks, read as a block of its own on an English page with no name of its own. */
/** (As an article's: the hook rule reads articles only.) */
const ruleOf = (sentence: string) => readSentences(sentence, 'en', new Set(), true)[0]?.rule;

describe('the rules a sentence of a description meets, each named', () => {
  for (const rule of SENTENCE_RULES) {
    it(`${rule.id}: refuses its example (and is the rule that names the refusal), lets its counter-example through`, () => {
      assert.equal(ruleOf(rule.example), rule.id, rule.example);
      const counter = readSentences(rule.counterExample, 'en', new Set(['pg_dump']), true)[0]!;
      assert.notEqual(counter.rule, rule.id, rule.counterExample);
    });
  }
  for (const rule of OPENING_RULES) {
    it(`${rule.id}: keeps its example from opening a description after the page's start, lets its counter-example open one`, () => {
      assert.equal(openingRule(rule.example, false), rule.id, rule.example);
      assert.notEqual(openingRule(rule.counterExample, false), rule.id, rule.counterExample);
    });
  }
  it('gives every rule an id of its own', () => {
    const ids = [...SENTENCE_RULES, ...OPENING_RULES].map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
