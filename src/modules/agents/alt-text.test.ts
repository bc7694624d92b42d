import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { altFromCaption, CAPTION_CREDITS, draftAltText, englishSpeller, isEnglish, pageVocabulary, type Speller } from './alt-text.ts';

let speller: Speller;
before(async () => {
  speller = await englishSpeller();
});
const page = (text: string, lang: string | null = 'en') => ({
  vocabulary: pageVocabulary({ title: '', h1: '', paragraphs: [text], headings: [] }), get speller() { return isEnglish(lang) ? speller : undefined; },
});
const english = page('A family garden shop.');
const alt = (src: string, on = english) => {
  const draft = draftAltText(src, on);
  return 'alt' in draft ? draft.alt : undefined;
};

// Each rule with an example and a counter-example, from the 183 alt texts drafted on the 181
// publishers' pages of the article-extraction benchmark (bench/agents/articles-site.ts).
describe('alt text from a file name', () => {
  it('builds the English dictionary a slice at a time, the event loop turning meanwhile, and once per process', async () => {
    let turns = 0;
    const stop = setInterval(() => void (turns += 1), 0);
    try {
      // A fresh module instance: the dictionary of this file's `before` is already built.
      const fresh = await import(`./alt-text.ts?fresh=${Date.now()}`) as typeof import('./alt-text.ts');
      const built = await fresh.englishSpeller();
      assert.ok(turns >= 5, `${turns} timer turns while it was built`);
      assert.equal(built.correct('parade'), true);
      assert.equal(built.correct('usatsi'), false);
      assert.equal(await fresh.englishSpeller(), built, 'built once');
    } finally {
      clearInterval(stop);
    }
  });

  it('is drafted from words a reader would use: the dictionary\'s, on an English page', () => {
    assert.equal(alt('https://shop.example/wp-content/uploads/2024/05/red-rose-bush-1024x768.jpg'), 'Red rose bush');
    assert.equal(alt('https://shop.example/img/oakDiningTable_final.webp'), 'Oak dining table');
    assert.equal(alt('https://thehill.com/sites/default/files/styles/leading_video/public/pride-parade.jpg?itok=4hEGhYGQ'), 'Pride parade');
  });

  it('is never drafted from a hash, a CDN id, camera numbering or run-together names', () => {
    for (const src of [
      'https://miro.medium.com/max/1400/1*5o3m5niyi911wa-ur-kwvz0q.jpeg',
      'https://zdbb.net/l/BFHCvtF8EeO0LCIACh-JyA?width=640',
      'https://thehill.com/sites/default/files/bidenjoe_111719getty.jpg',
      'https://shop.example/img/IMG_2041.JPG',
      'https://shop.example/img/3f9a2c1bd4e5.png',
      'https://shop.example/2019-11-19-1632.jpg',
    ]) assert.equal(alt(src), undefined, src);
  });

  it('takes the names the page itself uses, spelled as the page spells them, and drops one word it does not know', () => {
    const article = page('Patrick Mahomes and the Chiefs lead the NFL in the regular season.');
    assert.equal(alt('https://sportshub.cbsistatic.com/i/2019-nfl-reg-season-mahomes-usatsi-170.jpg', article), '2019 NFL reg season Mahomes');
    assert.equal(alt('https://sportshub.cbsistatic.com/i/2019-nfl-reg-season-mahomes-usatsi-170.jpg'), undefined, 'on a page that never names him: two unknown words');
  });

  it('uses the page\'s own words on a page in another language, and no English dictionary there', () => {
    const portuguese = page('Os loucos por automobilismo acompanham a corrida.', 'pt-BR');
    assert.equal(alt('http://www.autoracing.com.br/wp-content/uploads/2019/05/loucos-por-automobilismo-28.jpg', portuguese), 'Loucos por automobilismo');
    assert.equal(alt('http://www.autoracing.com.br/wp-content/uploads/2019/11/pride-parade-28.jpg', page('Corrida.', 'pt-BR')), undefined);
    assert.equal(alt('https://shop.example/red-rose-bush.jpg', page('Roses.', 'en_GB')), 'Red rose bush', 'en_GB is English too');
  });

  it('never describes a logo, an icon, a banner or a spacer: they are decorative or name their link', () => {
    for (const src of [
      'https://sportshub.cbsistatic.com/i/2019/08/31/pp-rail-logo-135x105.png',
      'https://example.com/resources/veeam-logo.png',
      'http://www.remember8090.it/wp-content/uploads/2016/12/banner-remember8090-fb-0-468x60.gif',
      'https://example.com/img/search-icon.svg',
      'https://example.com/img/spacer.gif',
    ]) {
      const draft = draftAltText(src, english);
      assert.ok('refused' in draft && draft.decorative, src);
    }
    for (const src of ['https://example.com/i/social-twitter.png', 'https://example.com/i/mail-send.png', 'https://example.com/i/promo-rail-podcast.png']) {
      assert.ok('refused' in draftAltText(src, english), `${src}: the site's chrome`);
    }
    assert.equal(alt('https://example.com/img/iconic-red-bridge.jpg'), 'Iconic red bridge', 'a word that only contains "icon" is no icon');
    assert.equal(alt('https://cdn.example.com/iphone-and-ipad-pro-200x200.jpg', page('The new iPhone and the iPad Pro.')), 'iPhone and iPad Pro', 'a brand keeps its own capitals');
    assert.equal(alt('https://cdn.example.com/iphone-11-and-11-pro-200x200.jpg', page('The iPhone 11 and 11 Pro.')), 'iPhone 11 and 11 Pro', 'a number before a word stays; a size goes');
    assert.equal(alt('https://cdn.example.com/autoracing-power-ranking-28.jpg', page('Autoracing power ranking.')), 'Autoracing power ranking', 'a number at the end goes');
  });
});

describe('alt text from a caption', () => {
  it("is the caption's first sentence without its credit or figure number", () => {
    assert.deepEqual(altFromCaption('Fans line the route of the parade. Photo: Jane Doe/AP'), { alt: 'Fans line the route of the parade' });
    assert.deepEqual(altFromCaption('Kansas City fans at the parade (AP Photo/Charlie Riedel)'), { alt: 'Kansas City fans at the parade' });
    assert.deepEqual(altFromCaption('Figure 3: the pipeline at its peak'), { alt: 'The pipeline at its peak' });
    assert.deepEqual(altFromCaption('The harbour at dawn © City Archive'), { alt: 'The harbour at dawn' });
    assert.deepEqual(altFromCaption('The Mexico-U.S. border check point in Nogales, Ariz. (AP)'), { alt: 'The Mexico-U.S. border check point in Nogales, Ariz' });
    assert.deepEqual(altFromCaption('Media captionJulian Assange being dragged from the embassy'), { alt: 'Julian Assange being dragged from the embassy' });
  });

  it('never takes a word of the caption for a credit', () => {
    for (const caption of ['Fans at the Tampa Bay parade', 'Grandpa and the kids at the beach', 'The EPA headquarters in Washington', 'Reuters reporters wait outside the court', 'The image by Monet, at the Louvre', 'Caption contests at the county fair']) {
      assert.deepEqual(altFromCaption(caption), { alt: caption }, caption);
    }
  });

  it('drops each credit its rule names, and keeps its counter-example', () => {
    for (const credit of CAPTION_CREDITS) {
      const kept = altFromCaption(credit.counterExample);
      assert.ok('alt' in kept && kept.alt.replace(/[.]$/, '') === credit.counterExample.replace(/[.]$/, ''), `${credit.counterExample} -> ${JSON.stringify(kept)}`);
      const cleaned = altFromCaption(credit.example);
      assert.ok('alt' in cleaned && cleaned.alt.length < credit.example.length, `${credit.example} -> ${JSON.stringify(cleaned)}`);
    }
  });

  it('is at most 125 characters, cut where a phrase ends, and refused when it says too little', () => {
    const long = altFromCaption(`A view of ${'the old town and its walls, '.repeat(8)}seen from the hill`);
    assert.ok('alt' in long && long.alt.length <= 125 && !/,\s*$/.test(long.alt), JSON.stringify(long));
    assert.ok('refused' in altFromCaption('Figure 2'));
    assert.ok('refused' in altFromCaption('Photo: Reuters'));
  });
});
