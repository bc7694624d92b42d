import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsQuery, sameFamily } from '../../lib/query-words.ts';
import { titleForQuery, type QueryPage } from './query-titles.ts';
import { planTitles, type TitleCandidate } from './planners/query-titles-plan.ts';

const care: QueryPage = {
  title: 'Hydrangea care: pruning and problems – Garden Shop', h1: 'Hydrangea care: pruning and problems', suffix: ' – Garden Shop',
  text: 'Once hydrangeas are established they need little. In March cut mopheads back. Watering deeply in dry weather helps. Our nursery in the Weald grows them.',
};
const guide: QueryPage = {
  title: 'Hydrangeas: a growing guide – Garden Shop', h1: 'Hydrangeas: a growing guide', suffix: ' – Garden Shop',
  text: 'Hydrangeas repay a little planning. Plant them in spring or autumn, in moist soil, in the clay of the Weald.',
};

describe('a title around a search query', () => {
  it('leads with the query as searchers type it, keeps what the page is about, and the suffix', () => {
    assert.deepEqual(titleForQuery('hydrangeas watering', care), { title: 'Hydrangeas watering: Hydrangea care – Garden Shop', kept: 'Hydrangea care' });
    // A segment the query already says ("Hydrangeas") is dropped; one that adds ("a growing guide") stays.
    assert.deepEqual(titleForQuery('planting hydrangeas in autumn', guide), { title: 'Planting hydrangeas in autumn: a growing guide – Garden Shop', kept: 'a growing guide' });
    // Names keep the page's capitals.
    assert.deepEqual(titleForQuery('hydrangeas in weald', guide), { title: 'Hydrangeas in Weald: a growing guide – Garden Shop', kept: 'a growing guide' });
  });

  it('refuses a query with words the page never says: the title would promise what the page lacks', () => {
    const refused = titleForQuery('buy hydrangeas online', guide);
    assert.ok('refused' in refused && /never says "buy", "online"/.test(refused.refused), JSON.stringify(refused));
  });

  it('refuses a query that shares no word with the title or headline: it would change the topic', () => {
    const page = { ...care, text: `${care.text} Opening hours of the shop.` };
    const refused = titleForQuery('shop opening hours', page);
    assert.ok('refused' in refused && /would change what the page is about/.test(refused.refused), JSON.stringify(refused));
  });

  it('refuses a query too long for a results page with the suffix, and a title that would stuff one word', () => {
    const long = titleForQuery('when and how to cut back hydrangeas in march after the winter', { ...care, text: `${care.text} when and how to cut back after the winter` });
    assert.ok('refused' in long && /longer than a results page shows/.test(long.refused));
    const page: QueryPage = { title: 'Roses – Shop', h1: 'Roses', suffix: ' – Shop', text: 'rose roses rosy' };
    // "Roses roses" alone is under 20 characters, and with the page's title it says one word three times.
    assert.ok('refused' in titleForQuery('roses roses', page));
  });

  it('knows word families without a dictionary, and when a title already says a query', () => {
    for (const [a, b] of [['prune', 'pruning'], ['rose', 'roses'], ['berry', 'berries'], ['water', 'watering'], ['hydrangea', 'hydrangeas']]) assert.ok(sameFamily(a!, b!), `${a} ~ ${b}`);
    for (const [a, b] of [['rose', 'rosemary'], ['care', 'carrot'], ['pot', 'potato'], ['care', 'career'], ['plan', 'plant']]) assert.ok(!sameFamily(a!, b!), `${a} !~ ${b}`);
    assert.ok(holdsQuery(care.title, 'when to prune hydrangeas'));
    assert.ok(!holdsQuery(care.title, 'hydrangeas watering'));
  });
});

describe('one title per page', () => {
  const expected = (clicks: number) => ({ clicks, low: clicks, high: clicks, basis: 'industry_curve' as const, method: '' });
  const candidate = (query: string, clicks: number, url = 'https://shop/care'): TitleCandidate => ({ type: 'prioritize_quick_wins', query, url, expected: expected(clicks) });
  const pages = (url: string) => (url === 'https://shop/care' ? care : undefined);

  it('gives the page to the larger gain, lets a query the winning title says ride along, and refuses the rest with the reason', () => {
    const plans = planTitles([candidate('hydrangeas watering', 10), candidate('watering hydrangeas', 5), candidate('hydrangeas in march', 40)], pages);
    const won = plans.filter((p) => p.kind === 'title');
    assert.equal(won.length, 1);
    assert.equal(won[0]!.candidate.query, 'hydrangeas in march');
    const refused = plans.filter((p) => p.kind === 'refused').map((p) => [p.candidate.query, p.kind === 'refused' && p.reason]);
    assert.equal(refused.length, 2);
    assert.match(String(refused[0]![1]), /proposed for "hydrangeas in march" \(about \+40 clicks \/ 28 days\), which gains more/);
  });

  it('serves a second query with the same title when that title says it', () => {
    const [plan] = planTitles([candidate('hydrangeas watering', 10), candidate('watering hydrangeas', 5)], pages);
    assert.ok(plan!.kind === 'title');
    assert.deepEqual(plan!.alsoServes.map((c) => c.query), ['watering hydrangeas']);
  });

  it('never proposes the title again for a query it already says, nor a title that drops a query worth more now', () => {
    assert.deepEqual(planTitles([candidate('when to prune hydrangeas', 50)], pages).map((p) => p.kind), ['elsewhere']);
    const plans = planTitles([candidate('hydrangeas watering', 10)], pages, () => [{ query: 'hydrangea care problems', clicks: 80 }]);
    assert.ok(plans[0]!.kind === 'refused' && /no longer say "hydrangea care problems", which brings 80 clicks/.test(plans[0]!.reason));
    assert.ok(planTitles([candidate('x', 1, 'https://shop/unknown')], pages)[0]!.kind === 'refused');
    assert.ok(planTitles([candidate('how to', 9)], pages)[0]!.kind === 'refused', 'no topic word: nothing to put in a title, nor to link with');
    // The current title says "hydrangea care problems"; the winning title for a larger query drops it: no links brief for it.
    const both = planTitles([candidate('hydrangeas in march', 40), candidate('hydrangea care problems', 5)], pages);
    const dropped = both.find((p) => p.candidate.query === 'hydrangea care problems')!;
    assert.ok(dropped.kind === 'refused' && /new title, proposed for "hydrangeas in march", would no longer say it/.test(dropped.reason), JSON.stringify(dropped));
  });
});
