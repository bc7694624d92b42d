import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageContent } from '../agents/page-content.ts';
import { STANDFIRST_NAMES, standfirstName } from './page-summaries.ts';

const summaries = (body: string, head = '') => readPageContent(`<html><head>${head}</head><body>${body}</body></html>`).summaries ?? [];

describe('what a page says of itself', () => {
  for (const rule of STANDFIRST_NAMES) {
    it(`${rule.id}: names its example a standfirst, not its counter-example`, () => {
      assert.equal(standfirstName(rule.example), rule.id);
      assert.equal(standfirstName(rule.counterExample), undefined);
    });
  }

  it('reads the standfirst under the headline, its words apart, and not what an author\'s box inside it says', () => {
    assert.deepEqual(summaries('<h1>Storm</h1><div class="dek"><ul><li>Power is out across the county after Monday night.</li><li>Thousands wait.</li></ul></div><p>Text.</p>'), [],
      'a list is no standfirst');
    assert.deepEqual(summaries('<h1>Storm</h1><div class="standfirst"><span class="author-box">By Jane Doe, weather reporter</span> The storm left thousands without power<br>across the county.</div><p>Text.</p>'),
      [['standfirst', 'The storm left thousands without power across the county.']]);
  });

  it('takes no excerpt of another post, no caption and nothing after the article\'s text began', () => {
    assert.deepEqual(summaries('<h1>Category: Gardening</h1><article><h2><a href="/p">Roses</a></h2><div class="entry-summary">Roses repay a little planning with years of flowers.</div></article>'), []);
    assert.deepEqual(summaries('<h1>Storm</h1><figure class="lead-image"><img src="a.jpg"><figcaption class="intro">Crews work through the night on the lines.</figcaption></figure><p>Text.</p>'), []);
    assert.deepEqual(summaries('<h1>Storm</h1><p>The first paragraph of the story is long enough to be a paragraph of it.</p><p>The second paragraph of the story follows it here.</p><p class="summary">A summary box far down the page, after the story began.</p>'), []);
  });

  it('reads a post whose classes name its taxonomy ("category-featured") as the post, and an <h2> dek as a dek', () => {
    assert.deepEqual(summaries('<article class="post category-featured tag-popular"><h1>Storm</h1><h2 class="sub-head">The storm left thousands without power across the county.</h2><p>Text.</p></article>'),
      [['standfirst', 'The storm left thousands without power across the county.']]);
  });
});
