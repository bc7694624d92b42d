import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namesHeadline, retellsHeadline } from './names-headline.ts';

const page = (h1: string) => ({ h1, title: h1 });

describe('whether a text names what its headline is about', () => {
  it('by a name in capitals the headline has, not by a description of it', () => {
    assert.equal(namesHeadline('Home Depot earned $2.8 billion in the quarter.', page('Home Depot Stock Falls After Earnings')), true);
    assert.equal(namesHeadline('The home-improvement retailer earned $2.8 billion.', page('Home Depot Stock Falls After Earnings')), false);
  });

  it('in scripts without capitals, by a run of the headline\'s letters long enough to be a name, never by a shared little word', () => {
    assert.equal(namesHeadline('国务院今天宣布，新能源汽车补贴延长两年。', page('新能源汽车补贴延长')), true);
    assert.equal(namesHeadline('今天天气很好，公园里人很多。', page('新能源汽车补贴延长')), false);
    assert.equal(namesHeadline('배우 이유리가 새 드라마에 출연한다.', page('이유리, 주말극 주연 확정')), true);
    assert.equal(namesHeadline('새 드라마가 다음 주에 방송된다.', page('이유리, 주말극 주연 확정')), false);
    // Arabic: "في" (in) and "من" (from) in both say nothing of the subject.
    assert.equal(namesHeadline('قال الوزير في مؤتمر صحفي إن الحكومة من جهتها مستعدة.', page('ارتفاع أسعار النفط في الأسواق من جديد')), false);
    assert.equal(namesHeadline('ارتفعت أسعار النفط اليوم بنسبة ثلاثة في المئة.', page('ارتفاع أسعار النفط في الأسواق')), true);
    assert.equal(namesHeadline('قال الوزير إن الاجتماع سيعقد في الأسبوع المقبل.', page('ارتفاع الأسعار في الأسواق')), false, 'the article and two letters');
    assert.equal(namesHeadline('भारत सरकार ने आज नई नीति की घोषणा की।', page('भारत सरकार का बड़ा फैसला')), true);
    assert.equal(namesHeadline('서울 아파트 가격이 또 올랐다.', page('서울 집값 석 달째 상승')), true, 'a two-syllable name');
    assert.equal(namesHeadline('中国的经济增长放缓。', page('美国的关税政策')), false, 'a pair across a particle is no name');
    assert.equal(namesHeadline('ホンダが新工場を建設する。', page('トヨタが新型車を発表')), false);
    assert.equal(namesHeadline('トヨタは来年から新しい工場を動かす。', page('トヨタが新型車を発表')), true);
    assert.equal(namesHeadline('先日、不正に改造したiPhoneを販売した男性が商標法違反の疑いで逮捕された。', page('商品の改造が商標法違反に！？')), true, 'a Latin name inside Japanese');
  });

  it('retells a headline without names when it says three of its words, not one or two', () => {
    const headline = page('Physicists Just Created the Most Detailed Simulation of the Universe in History');
    assert.equal(retellsHeadline('An international team of scientists has created the most detailed large-scale model of the universe to date.', headline), true);
    assert.equal(retellsHeadline('The formation of galaxies is a complex dance spanning billions of years of the universe.', headline), false, 'one word');
    assert.equal(retellsHeadline('The universe is the most detailed thing we know.', headline), false, 'two words');
  });
});
