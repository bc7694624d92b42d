import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LEAD_PREFIXES, SITE_NAME_ENDINGS, withoutLeadPrefix, withoutSiteName } from './lead-prefixes.ts';

describe('what stands before a lead\'s first sentence and after a summary\'s last', () => {
  for (const rule of LEAD_PREFIXES) {
    it(`${rule.id}: removes its example's prefix and leaves its counter-example whole`, () => {
      const cut = withoutLeadPrefix(rule.example);
      assert.equal(cut.rule, rule.id, rule.example);
      assert.ok(cut.text.length < rule.example.length && /^[\p{L}"“‘]/u.test(cut.text), cut.text);
      assert.equal(withoutLeadPrefix(rule.counterExample).text, rule.counterExample);
      if (rule.articlesOnly) assert.notEqual(withoutLeadPrefix(rule.example, false).rule, rule.id, 'not on a page that is no article');
    });
  }
  for (const rule of SITE_NAME_ENDINGS) {
    it(`${rule.id}: removes its example's ending and leaves its counter-example whole`, () => {
      assert.equal(withoutSiteName(rule.example).rule, rule.id);
      assert.equal(withoutSiteName(rule.counterExample).text, rule.counterExample);
    });
  }

  it('reads the datelines of real wire copy', () => {
    for (const [lead, rest] of [
      ['WASHINGTON (AP) — Ambassador Gordon Sondland is likely to be unpredictable when he faces questions.', 'Ambassador'],
      ['HAYWARD, Calif. (AP) — The Latest on a deadly stabbing on a San Francisco Bay Area commuter train.', 'The Latest'],
      ['DUBAI, United Arab Emirates — Dubai\'s flagship carrier Emirates finalized a deal to purchase 30 jets.', 'Dubai'],
      ['BERLIN -- The European Space Agency says suspended animation could make it easier to reach other planets.', 'The European'],
      ['HONOLULU, Hawaii (HawaiiNewsNow) - NASA scientists have confirmed the presence of water vapor on Europa.', 'NASA'],
      ['(CNN) President Donald Trump made an unscheduled trip to Walter Reed hospital on Saturday for a quick exam.', 'President'],
    ] as const) assert.ok(withoutLeadPrefix(lead).text.startsWith(rest), lead);
  });

  it('reads an agency\'s dateline on any page, the other forms on an article\'s only', () => {
    assert.equal(withoutLeadPrefix('NEW YORK (Reuters) - Oil prices fell sharply on Tuesday on oversupply concerns in the market.', false).text,
      'Oil prices fell sharply on Tuesday on oversupply concerns in the market.');
    for (const lead of ['JSON: A lightweight data-interchange format that is easy for humans to read and write.', 'Django — The web framework for perfectionists with deadlines, and for everyone else.']) {
      assert.equal(withoutLeadPrefix(lead, false).text, lead);
    }
  });

  it('leaves a lead that only begins with a name in capitals', () => {
    for (const lead of [
      'NASA has recruited SpaceX\'s Starship and three other lunar lander ideas to join its Artemis moon program.',
      'US President Donald Trump has claimed victory as the House concluded its third public hearing.',
      'BERLIN -- Yes.',
    ]) assert.equal(withoutLeadPrefix(lead).text, lead);
  });
});
