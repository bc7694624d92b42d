import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoteH1s, retargetLinks, setImageAlts, unwrapLinks } from './html-edits.ts';

const base = 'https://shop.example/guide/';

test('unwrapLinks removes only the links to the targets, keeps their text and every other byte', () => {
  const html = '<p>See <a href="/gone">the old page</a> and <a class="x" href="https://shop.example/ok">this</a>.</p>\n<!-- c --><p>Also <A HREF="../gone#top">here</A></p>';
  const { html: out, count } = unwrapLinks(html, base, new Set(['https://shop.example/gone']));
  assert.equal(count, 2);
  assert.equal(out, '<p>See the old page and <a class="x" href="https://shop.example/ok">this</a>.</p>\n<!-- c --><p>Also here</p>');
});

test('retargetLinks rewrites the href of matching links only', () => {
  const html = '<a href="/old" title="Old &amp; new">x</a> <a href="/other">y</a>';
  const { html: out, count } = retargetLinks(html, base, new Map([['https://shop.example/old', 'https://shop.example/new']]));
  assert.equal(count, 1);
  assert.equal(out, '<a title="Old &amp; new" href="https://shop.example/new">x</a> <a href="/other">y</a>');
});

test('setImageAlts fills missing or empty alt text and leaves written alt text alone', () => {
  const html = '<img src="a.jpg"><img src="a.jpg" alt="kept"><img alt="" src="/b.png" />';
  const alts = new Map([['https://shop.example/guide/a.jpg', 'Red "rose" bush'], ['https://shop.example/b.png', 'Tools']]);
  const { html: out, count } = setImageAlts(html, base, alts);
  assert.equal(count, 2);
  assert.equal(out, '<img src="a.jpg" alt="Red &quot;rose&quot; bush"><img src="a.jpg" alt="kept"><img src="/b.png" alt="Tools" />');
});

test('demoteH1s turns every h1 of the content into an h2, attributes kept', () => {
  const { html, count } = demoteH1s('<h1 class="t">One</h1><p>x</p><h1>Two</h1>');
  assert.equal(count, 2);
  assert.equal(html, '<h2 class="t">One</h2><p>x</p><h2>Two</h2>');
});

test('demoteH1s keeps the headline the task keeps, wherever it is, and demotes the others', () => {
  const { html, count } = demoteH1s('<h1>The GiveWell Blog</h1><p>x</p><h1 class="entry">September <em>2018</em> open thread</h1>', 'September 2018 open thread');
  assert.equal(html, '<h2>The GiveWell Blog</h2><p>x</p><h1 class="entry">September <em>2018</em> open thread</h1>');
  assert.equal(count, 1);
  assert.equal(demoteH1s('<h1>September 2018 open thread</h1>', 'September 2018 open thread').count, 0, 'only the headline in the content: nothing to change there');
  assert.equal(demoteH1s("<h1>Mason Rudolph's role</h1><h1>Join our challenge</h1>", 'Mason Rudolph’s role').html, "<h1>Mason Rudolph's role</h1><h2>Join our challenge</h2>", 'the headline as WordPress renders it (a typographic apostrophe) is the one the post holds');
  assert.equal(demoteH1s('<h1>Other</h1>', 'The headline the theme prints').count, 1, 'the headline outside the content: every h1 of the content goes');
});
