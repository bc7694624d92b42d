import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSentences } from './sentence-rules.ts';
import { RELATIVE_TIME_RULES, staleTime, withoutRelativeTime } from './relative-time.ts';

describe('the words that say when relative to an article\'s day, removed or the sentence kept out', () => {
  for (const rule of RELATIVE_TIME_RULES) {
    it(`${rule.id}: its example gives its result, its counter-example stays whole`, () => {
      const words = new Set(rule.pageWords ?? []);
      const cut = withoutRelativeTime(rule.example, words);
      assert.equal(cut.text, rule.result);
      assert.ok(cut.rules.includes(rule.id), cut.rules.join());
      assert.equal(withoutRelativeTime(rule.counterExample, words).text, rule.counterExample);
      // (A rule for the headline's own story removes nothing before another one.)
      if (rule.beforeStory) assert.equal(withoutRelativeTime(rule.example).text, rule.example);
    });
  }

  it('reads real news leads as an editor writes them: the day goes, the sentence stays whole', () => {
    const cases: Array<[string, string]> = [
      ['Mike Glass threw for three touchdowns and Eastern Michigan rolled past Northern Illinois, 45-17, on Tuesday night.',
        'Mike Glass threw for three touchdowns and Eastern Michigan rolled past Northern Illinois, 45-17.'],
      ['A New York man pleaded guilty Monday to threatening to kill U.S. Rep. Ilhan Omar, prosecutors said.',
        'A New York man pleaded guilty to threatening to kill U.S. Rep. Ilhan Omar, prosecutors said.'],
      ['Hours before Zach Parise’s two-goal performance Tuesday, Wild coach Bruce Boudreau expressed confidence in the veteran winger.',
        'Hours before Zach Parise’s two-goal performance, Wild coach Bruce Boudreau expressed confidence in the veteran winger.'],
      ['A case of the bubonic plague was reported in China over the weekend — after two people there were diagnosed with the pneumonic plague last week.',
        'A case of the bubonic plague was reported in China — after two people there were diagnosed with the pneumonic plague.'],
      ['One member of the Browns\' defense didn\'t hold back on Monday when asked about Thursday night\'s fight.',
        'One member of the Browns\' defense didn\'t hold back when asked about the fight.'],
      ['Prince Andrew told friends the interview aired at the weekend was a “great success”.', 'Prince Andrew told friends the interview aired at the weekend was a “great success”.'],
      // (A day a verb takes as its object stays: "spent trying" says nothing.)
      ['The Steelers spent Monday trying to distance themselves from Thursday night’s fight.', 'The Steelers spent Monday trying to distance themselves from the fight.'],
      ['Amnesty International said on Tuesday, November 19, that more than 100 protesters had been killed.',
        'Amnesty International said on Tuesday, November 19, that more than 100 protesters had been killed.'],
    ];
    for (const [sentence, expected] of cases) assert.equal(withoutRelativeTime(sentence).text, expected);
  });

  it('keeps out of a draft a sentence whose relative day cannot go without changing what it says', () => {
    for (const stale of ['Google Stadia launches tomorrow and early reviews are mixed.', 'Today only, Amazon offers the 12-inch MacBook for $700.',
      'The council will vote on the plan next week.',
      // (Background before the story: without its words, "Lexus revealed the LC Convertible Concept" reads as the news.)
      'Earlier this year, Lexus revealed the LC Convertible Concept, an open-top version of the LC 500.',
      'Earlier this month, NASA announced the newest milestone in the development of its Space Launch System.']) {
      assert.equal(staleTime(withoutRelativeTime(stale).text), true, stale);
      assert.equal(readSentences(stale, 'en', new Set(), true)[0]?.rule, 'relative_time', stale);
    }
    assert.equal(readSentences('Google Stadia launches tomorrow and early reviews are mixed.', 'en', new Set(), false)[0]?.usable, true, 'a page that is no article: not read');
    assert.equal(staleTime('The market is open every day but Sunday.'), false);
  });
});
