import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadExamples, scoreExamples } from './examples/score.ts';

/**
 * The scores of the drafting on its example set when this test was last set (npm run
 * score:drafting prints them, with every failing row). A change that lowers one fails here: it
 * undid a rule that the set's pages need. Raise them when a change earns it.
 *
 * Lowered once, knowingly (0.742 -> 0.727): the set's labels name a page's subject, and an
 * article's sentence from far down names it too ("Alibaba shares closed in New York on Tuesday at
 * $185.25"); editors reading 124 drafts called those wrong, so an article is no longer drafted
 * from past its first paragraphs, and 6 rows whose only draft was such a sentence now refuse.
 * Raised since by the list lead-ins, product pages, fact-checks, other languages' clauses and cleaner main content (0.749),
 * and by news leads shortened where they add to their story (a place, a trailing clause) and captions (0.774), and Korean
 * columns' press tags and titles (0.777; precision 0.878 -> 0.876: one of them is drafted from its setting sentence), and by
 * openings read in the page's language and a foil (a set-up the next sentence turns against) refused (0.779 / 0.764 / 0.879),
 * by a long opening cut short and completed by the sentence after it (0.782 / 0.767 / 0.880), a newsletter's greeting
 * refused (precision 0.883), an article's lead that speaks of nothing its headline names refused (0.789 / 0.773 / 0.901), and
 * long leads cut at an aside in passing, a German or Romance appositive or list of examples, a means clause (0.797 / 0.781 / 0.902),
 * and by relative days removed from news sentences (or the sentence skipped), openings that name nothing skipped, an " as " clause
 * and a named appositive cut, with 16 rows written for those rules (rules.jsonl) and two rows relabelled refuse on the owner's
 * reading, a one-day deal and "launches tomorrow" (0.809 / 0.793 / 0.909 on 419 rows), and by a list's middle items dropped
 * and, off an article, what a sentence adds after saying who or what the page is, with three rows for them (0.820 / 0.806 /
 * 0.911 on 422 rows), and by a standfirst kept over a lead that opens with a hook (0.822 / 0.808 / 0.914), a note about
 * the page in brackets ("(all times local)") left out (0.825 / 0.811 / 0.917), and an article's second paragraph taken
 * after a hook when it names the headline, with a cut never leaving a subordinate clause alone (0.825 / 0.815 / 0.915 on
 * 424 rows), and by "United States" written "U.S." and an age set off by commas dropped when a lead is too long (0.828 /
 * 0.817 / 0.915). Lowered knowingly after a review (0.825 / 0.815 / 0.915): a list is cut only where its first item is one
 * (Valgrind's AUTHORS lost a cut that read a verb's object as an item), and a nut graf in the writer's voice is refused
 * (morebikes' "As I write this review, ... makes brilliant sense." had passed its row). Then by a deals post's "Monday’s"
 * written "The", a nut graf that retells a headline without names ("In search of answers," left out), and a second clause's
 * trailing "after ..." cut, with six rows for them (0.833 / 0.823 / 0.917 on 430 rows); then by quoted speech refused, a
 * newsletter's promo box skipped, "in queste ore" read as a time and not a pointer, a closing quotation mark typed as an
 * opening one mended, and an aside's trailing pause ("...") dropped with it, with three rows (0.841 / 0.832 / 0.921 on 433).
 * The set rebuilt from the current extractor, its 44 changed rows labelled again blind (0.839 / 0.838 / 0.916); then a product's
 * summary cut and joined to its description's first sentence under the next tab, "these coffees" on a collection of coffees read
 * as the page's own, and a leading clause dated "ago" dropped (0.846 / 0.847 / 0.917 on 435); then a shop's hero banner and a
 * page's own headline that other pages name kept by the extractor (six rows regain their h1), and a greeting's paragraph
 * ("Welcome! We’re so glad ...") skipped (0.853 / 0.855 / 0.92). Session 19: a scene yielding to the sentence that tells the
 * headline's story, long leads cut past an absolute phrase, a person's title, a name's acronym, a second purpose or object, a
 * page declaring English but written in German refused, a long exclamation that names the page, "Earlier this year" kept as
 * background, a stage direction refused, the India Post row labelled again blind, and ten rows for those rules (0.867 / 0.869 /
 * 0.928 on 445 rows).
 */
const FLOOR = { score: 0.86, publishable: 0.86, precision: 0.92 };

describe('meta descriptions drafted on the example set (documentation, news, blogs, shops, landing pages)', () => {
  const examples = loadExamples();

  it('is a set of at least 400 labelled pages from at least 12 sites of at least 4 kinds', () => {
    assert.ok(examples.length >= 400, `${examples.length} rows`);
    assert.ok(new Set(examples.map((e) => e.site)).size >= 12);
    assert.ok(new Set(examples.map((e) => e.kind)).size >= 4);
    for (const e of examples) {
      assert.ok(e.expect === 'refuse' || e.must.length > 0, `${e.id}: a page to draft says what its description must say`);
    }
  });

  it('scores no lower than it did', () => {
    const { score, publishable, precision, byKind } = scoreExamples(examples);
    const summary = JSON.stringify({ score, publishable, precision, byKind });
    assert.ok(score >= FLOOR.score, `score ${score} < ${FLOOR.score}: ${summary}`);
    assert.ok(publishable >= FLOOR.publishable, `publishable ${publishable} < ${FLOOR.publishable}: ${summary}`);
    assert.ok(precision >= FLOOR.precision, `precision ${precision} < ${FLOOR.precision}: ${summary}`);
  });
});
