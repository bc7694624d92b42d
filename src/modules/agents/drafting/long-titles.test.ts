import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageContent } from '../page-content.ts';
import { headlineOf, shortenLongTitle } from './long-titles.ts';

const page = (title: string, h1: string): PageContent => ({ title, h1, paragraphs: [], headings: [], lang: 'en', article: true });
const shortened = (content: PageContent) => {
  const draft = shortenLongTitle(content, new Set());
  return 'text' in draft ? draft.text : undefined;
};

describe('a news title over the limit, shortened as its editors would', () => {
  it('loses the site\'s name before a word of the headline, and keeps a label that fits', () => {
    assert.equal(shortened(page('Opinion | Republicans Are Following Trump to Nowhere - The New York Times', 'Republicans Are Following Trump to Nowhere')),
      'Opinion | Republicans Are Following Trump to Nowhere');
    assert.equal(shortened(page('Zach Parise heating up, scores twice as Wild beat Sabres 4-1 – Twin Cities', 'Zach Parise heating up, scores twice as Wild beat Sabres 4-1')),
      'Zach Parise heating up, scores twice as Wild beat Sabres 4-1');
  });

  it('keeps the site\'s name and drops its sections when that fits ("| Smart News | Smithsonian"), but not a menu\'s last item', () => {
    assert.equal(shortened(page('Three Cases of Plague Diagnosed in China | Smart News | Smithsonian', 'Three Cases of Plague Diagnosed in China')),
      'Three Cases of Plague Diagnosed in China | Smithsonian');
    assert.equal(shortened(page('Classificação NASCAR | Autoracing | F1 | Indy | MotoGP | StockCar', 'Classificação NASCAR')), 'Classificação NASCAR');
  });

  it('reads a heading that is the site\'s logo as no headline (the title\'s first part is)', () => {
    assert.equal(shortened(page('Sejarah Pecahnya Islam jadi Sunni dan Syi’ah | Kabar tentang Dunia Islam', 'Kabar tentang Dunia Islam')),
      'Sejarah Pecahnya Islam jadi Sunni dan Syi’ah');
    assert.equal(headlineOf(page('엘제이-류화영 진흙탕 싸움, 공적인 사안으로 봐야하는 이유 - Entermedia', '엔터 미디어')), '엘제이-류화영 진흙탕 싸움, 공적인 사안으로 봐야하는 이유');
  });

  it('keeps a label ("Column:") and never swaps the title for another headline: refused when the headline alone does not fit', () => {
    assert.equal(shortened(page('Column: Gannett/GateHouse merger bodes ill for future of local news - Los Angeles Times', 'Column: The Gannett/GateHouse merger sends a dismal signal')), undefined);
  });

  it('never cuts the headline: a long one is refused, with the rule and the reason', () => {
    const draft = shortenLongTitle(page('13-Inch MacBook Pro With Scissor Keyboard Expected in First Half of 2020 - MacRumors', '13-Inch MacBook Pro With Scissor Keyboard Expected in First Half of 2020'), new Set());
    assert.ok('reason' in draft);
    assert.equal(draft.rule, 'title_headline_too_long');
    assert.match(draft.reason, /the headline alone \("13-Inch MacBook Pro With Scissor Keyboard Expected in First Half of 2020"\) is 72 characters/);
    assert.equal(shortened(page('Milan Design Week 2018 | Anastassiades\' light installation for FLOS', 'Milan Design Week 2018')), undefined,
      'a second part of five words is the headline\'s, not a section: not cut to "Milan Design Week 2018"');
  });
});
