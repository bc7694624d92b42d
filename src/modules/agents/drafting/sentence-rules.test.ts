import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPENING_RULES, openingRule, readSentences, SENTENCE_RULES, sentenceRulesOf } from './sentence-rules.ts';

/**
 * The rule that names a sentence's refusal, read as a block of its own on an English page with no name of its own, as an
 * article's and as another page's (the hook rule reads articles only, the shop rule the others).
 */
const rulesOf = (sentence: string, next?: string) => [true, false].map((article) => readSentences(next ? `${sentence} ${next}` : sentence, 'en', new Set(), article)[0]?.rule);

describe('the rules a sentence of a description meets, each named', () => {
  for (const rule of SENTENCE_RULES) {
    it(`${rule.id}: refuses its example (and is the rule that names the refusal), never fires on its counter-example`, () => {
      assert.ok(rulesOf(rule.example, rule.next).includes(rule.id), `${rule.example}: ${rulesOf(rule.example, rule.next)}`);
      // A rule that reads the sentence after: its counter-example with the same sentence after it.
      if (rule.next) assert.ok(!rulesOf(rule.counterExample, rule.next).includes(rule.id), rule.counterExample);
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
  it('pronoun: a possessive that points ahead to the subject after its clause opens a draft; one that points back does not', () => {
    assert.equal(openingRule('Their American dream shattered and huge savings wasted, nearly 150 Indians returned home broke.', false), undefined);
    assert.equal(openingRule('Their savings were wasted, and nearly 150 Indians returned home broke.', false), 'pronoun');
    assert.equal(openingRule('Their dream shattered, they returned home broke.', false), 'pronoun');
  });
  it('hook: an article that opens by announcing what it will talk about', () => {
    assert.equal(readSentences('We’re going to talk about why focus is important for success.', 'en', new Set(), true)[0]?.rule, 'hook');
    assert.equal(readSentences('We are going to build a new stadium by 2025, the mayor said.', 'en', new Set(), true)[0]?.rule, undefined);
  });
  it('writes a sentence without the space a page left before a comma or a full stop, and keeps French spacing before ; : ! ?', () => {
    assert.equal(readSentences('Lawan raised the motion after Bukola Saraki , read 16 letters , while it was on recess .', 'en', new Set(), true)[0]?.text,
      'Lawan raised the motion after Bukola Saraki, read 16 letters, while it was on recess.');
    assert.equal(readSentences('Le Sénat a voté la loi : elle entre en vigueur demain.', 'fr', new Set(), true)[0]?.text, 'Le Sénat a voté la loi : elle entre en vigueur demain.');
    assert.equal(readSentences('Copy the .env file to the server before it starts.', 'en', new Set(), true)[0]?.text, 'Copy the .env file to the server before it starts.');
  });
  it('writes a sentence without a note about the page in brackets ("(all times local)", "(video)"), keeping brackets of the sentence', () => {
    assert.equal(readSentences('The Latest on a deadly stabbing on a San Francisco Bay Area commuter train (all times local).', 'en', new Set(), true)[0]?.text,
      'The Latest on a deadly stabbing on a San Francisco Bay Area commuter train.');
    assert.equal(readSentences('The video (shot in 2019) shows the bridge swaying in the wind before it fell.', 'en', new Set(), true)[0]?.text,
      'The video (shot in 2019) shows the bridge swaying in the wind before it fell.');
    assert.equal(readSentences('Stream every match (live) or on demand with the Sports Pass.', 'en', new Set(), false)[0]?.text,
      'Stream every match (live) or on demand with the Sports Pass.', 'off an article "(live)" is what the page offers');
    assert.equal(readSentences('(VIDEO) Police released footage of the rescue on the river.', 'en', new Set(), true)[0]?.text,
      'Police released footage of the rescue on the river.');
    // A pointer is kept where it is the sentence's main clause: without it, "For information about ..." is a fragment.
    assert.deepEqual(readSentences('For information about new features in major release 15, see Section E.20.', 'en', new Set(), false).map((x) => [x.text, x.rule]),
      [['For information about new features in major release 15, see Section E.20.', 'points_elsewhere']]);
  });

  it('code: a work\'s title in angle brackets, as Korean prints it, is no markup; a tag is', () => {
    assert.ok(!sentenceRulesOf('현재 MBC는 이유리 주연의 <숨바꼭질>로 승부를 보고 있으며 SBS는 <그녀로 말할 것 같으면>이 종영을 앞두고 있다.', 'ko', true).includes('code'));
    assert.ok(sentenceRulesOf('Set <b>x</b> in the template before the page renders.', 'en', true).includes('code'));
    // (In Latin letters too, words in capitals and lower case; a server's configuration tag is code.)
    assert.ok(!sentenceRulesOf('Visitors came to Jeongdong Theater to watch <The Palace: Tale of Jang Noksu> and have left their reviews.', 'en', true).includes('code'));
    assert.ok(sentenceRulesOf('The section <Limit GET POST> restricts the methods that a client may use on the server.', 'en', true).includes('code'));
  });
  it('exclamation: a long statement that names what the page is about is no cry; a short one, or one naming nothing of it, is', () => {
    const words = new Set(['pear', 'jam', 'recipe']);
    const rules = (text: string) => readSentences(text, 'en', words, true)[0]!.rule;
    assert.equal(rules('With notes of cinnamon, nutmeg, ginger, and clove, this honey pear jam recipe will have you spreading cheer in no time!'), undefined);
    assert.equal(rules('This pear jam recipe is so easy and so good!'), 'exclamation');
    assert.equal(rules('Crowds of people came early to the scene of the opening ceremony on the stage at the park!'), 'exclamation');
    assert.equal(rules('With notes of cinnamon, nutmeg, ginger, and clove, this honey pear jam recipe will have you spreading cheer in no time!!'), 'exclamation');
  });
  it('reads an opening in the page\'s language: one language\'s pronoun is another\'s article or verb', () => {
    const cases: Array<[string, string | null, string | undefined]> = [
      ['Il black Friday arriva anche in Italia con sconti su tutti i prodotti.', 'it', undefined],
      ['Il a remporté la course après une longue échappée.', 'fr', 'pronoun'],
      ['Es un día importante para la ciudad y sus habitantes.', 'es', undefined],
      ['Es ist nicht das erste Mal, dass die Stadt gewinnt.', 'de', 'pronoun'],
      ['Sie haben die Wahl gewonnen und regieren nun das Land.', 'de-AT', 'pronoun'],
      ['Dieses Jahr findet die Messe zum ersten Mal in Berlin statt.', 'de', undefined],
      ['Diese Einstellungen werden beim Start gelesen.', 'de', 'refers_back'],
      ['This year the fair is held in Berlin, for the first time since 2019.', 'en', undefined],
      // Word ends in any script: "però" is a connective, "Noël" is no "No", "Cesária" no "ces".
      ['Però la città ha scelto un altro progetto per il centro.', 'it', 'connective'],
      ['Noël Coward wrote the play in five days in 1941.', 'en', undefined],
      ['Cesária Évora chantait la morna du Cap-Vert.', null, undefined],
      ['Cet été, le festival revient dans la vieille ville.', 'fr', undefined],
      ['Cet outil lit les journaux du serveur.', 'fr', 'refers_back'],
      // Without a language, every listed language's words: the old reading.
      ['Il black Friday arriva anche in Italia con sconti su tutti i prodotti.', null, 'pronoun'],
    ];
    for (const [sentence, lang, rule] of cases) assert.equal(openingRule(sentence, false, lang), rule, `${sentence} (${lang})`);
  });
  it('time_stamp: a label with the date it labels, never a sentence that names the labels', () => {
    assert.ok(rulesOf('Updated: Wednesday, November 20, 2019, with the full results of the vote.').includes('time_stamp'));
    assert.ok(!rulesOf('Each record keeps two timestamps, created and updated: both are set by the server when it writes the row.').includes('time_stamp'));
  });
  it('call_to_action: a newsletter\'s greeting to the reader, not a sentence that starts something of its own', () => {
    assert.ok(rulesOf('Start your day with the Opening Bell powered by The Water Coolest.').includes('call_to_action'));
    assert.ok(!rulesOf('Start times for the marathon were moved to seven in the morning.').includes('call_to_action'));
  });
  it('gives every rule an id of its own', () => {
    const ids = [...SENTENCE_RULES, ...OPENING_RULES].map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
