import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headlineAmong } from './headings-images.ts';

// Pages with several h1s from the article-extraction benchmark's publishers (bench/agents/articles-site.ts):
// the first h1 was kept on every one, a site's name or a section's four times in 27.
describe('the h1 a page keeps', () => {
  const none = new Set<string>();
  it('is the headline, the one that says most of the title: not the site\'s name, a section or a promo', () => {
    assert.equal(headlineAmong(['The GiveWell Blog', 'September 2018 open thread'], 'September 2018 open thread - The GiveWell Blog', none), 'September 2018 open thread');
    assert.equal(headlineAmong(['The Wall Street JournalOpinion', 'Is Football Violence a Crime?'], 'Opinion | Is Football Violence a Crime?', none), 'Is Football Violence a Crime?');
    assert.equal(
      headlineAmong(['Games', 'Entertainment', 'Daily Deals: More Black Friday Deals Are Live'], 'Daily Deals: More Black Friday Deals Are Live - IGN', none),
      'Daily Deals: More Black Friday Deals Are Live',
    );
    assert.equal(headlineAmong(['Browns player on Mason Rudolph\'s role', 'Join our Free $1,000,000 Parlay Challenge'], 'Browns player on Mason Rudolph\'s role', none), 'Browns player on Mason Rudolph\'s role');
  });

  it('is never a heading the template prints on many pages, nor an empty one; with no title, the first of the page\'s own', () => {
    assert.equal(headlineAmong(['Shop', 'Roses'], 'Shop', new Set(['Shop'])), 'Roses', 'the template\'s, even when the title says it');
    assert.equal(headlineAmong(['', 'Key moments from the hearing'], 'Key moments', none), 'Key moments from the hearing');
    assert.equal(headlineAmong(['First', 'Second'], null, none), 'First');
    assert.equal(headlineAmong(['The Impeachment Clock', 'The Impeachment Clock'], 'The Impeachment Clock | National Review', none), 'The Impeachment Clock', 'a copy: the heading itself');
  });
});
