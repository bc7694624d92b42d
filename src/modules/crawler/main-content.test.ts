import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPageFacts } from './extract.ts';
import { auditPageRecords, packMainContent, unpackMainContent, WHOLE_PAGE, withoutSiteTemplate, type MainContent } from './main-content.ts';
import type { CrawledPage } from './crawl.types.ts';

const mainOf = (html: string) => extractPageFacts(html).main!;

/** A generated manual without HTML5 landmarks: banner, menu and language bar as plain divs and paragraphs. */
const manualPage = (topic: string, body: string) => `<!doctype html><html lang="en"><head><title>${topic} - Example Server Version 2.4</title></head><body>
<div id="page-header"><p class="menu"><a href="/mod/">Modules</a> | <a href="/dir/">Directives</a> | <a href="/faq/">FAQ</a> | <a href="/glossary">Glossary</a></p>
<p class="apache">Example Server Version 2.4</p></div>
<div id="page-content"><div id="preamble"><h1>${topic}</h1>
<div class="toplang"><p><span>Available Languages: </span><a href="/de/x" hreflang="de">de</a> | <a href="/en/x">en</a></p></div>
<div class="box"><h3>Important</h3><p>This release is no longer maintained by the project; please read the notes for the current release before you deploy it.</p></div>
${body}</div></div>
<div id="footer"><p class="apache">Copyright 2026 The Example Foundation. Licensed under the Example License.</p></div></body></html>`;

/** A blog theme with landmarks: header, nav, main/article (with its own header), aside, comments, footer. */
const blogPage = (topic: string, body: string) => `<!doctype html><html lang="en"><head><title>${topic} | Garden Notes</title></head><body>
<header id="masthead"><p class="site-title">Garden Notes</p><nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav></header>
<main id="main"><article><header class="entry-header"><h1 class="entry-title">${topic}</h1></header>
<div class="entry-content">${body}</div>
<div id="comments" class="comments-area"><h3 id="reply-title">Leave a Reply</h3><p>Your email address will not be published. Required fields are marked.</p></div>
</article></main>
<aside class="widget-area"><h2>Recent posts</h2><p>Five things we learned this spring in the vegetable patch.</p></aside>
<footer><p>Proudly powered by a content system of some kind, and a theme.</p></footer></body></html>`;

describe('the main-content collector', () => {
  it('keeps the page\'s own text and drops landmarks, comments, sidebars and widgets (HTML semantics)', () => {
    const main = mainOf(blogPage('Pruning roses', '<p>Prune roses in late winter, just as the buds swell.</p><h2>Tools</h2><p>Use sharp bypass secateurs.</p>'));
    assert.deepEqual(main.blocks, ['Prune roses in late winter, just as the buds swell.', 'Use sharp bypass secateurs.']);
    assert.deepEqual(main.headings, [{ level: 1, text: 'Pruning roses' }, { level: 2, text: 'Tools' }], 'the article\'s own header keeps its h1; the comments heading is not the page\'s');
  });

  it('drops another story\'s excerpt cut short by a program, and a related story\'s date alone in a list, but not a writer trailing off', () => {
    const main = mainOf(blogPage('Pruning roses', `<p>Prune roses in late winter, just as the buds swell.</p><p>Let's see in more detail what is in store for you…</p>
      <div class="more"><p>Indian-origin man pleads guilty to fraud scheme in US NEW YORK: An Indian-origin man has pleaded guilty to theft...</p></div>
      <ul><li><div>November 19, 2019 at 5:10 pm</div></li><li>Prune bush roses hard, to an outward-facing bud.</li></ul>`));
    assert.deepEqual(main.blocks, ['Prune roses in late winter, just as the buds swell.', 'Let\'s see in more detail what is in store for you…', 'Prune bush roses hard, to an outward-facing bud.']);
  });

  it('drops menus written as text, language bars and code examples without landmarks', () => {
    const main = mainOf(manualPage('Virtual hosts', '<p>The term virtual host refers to running more than one web site on a single machine.</p><div class="example"><p><code>Listen 80</code></p></div>'));
    assert.ok(!main.blocks.some((b) => /Modules \| Directives|Available Languages|Listen 80/.test(b)), main.blocks.join(' / '));
    assert.ok(main.blocks.includes('The term virtual host refers to running more than one web site on a single machine.'));
    assert.deepEqual(main.headings[0], { level: 1, text: 'Virtual hosts' });
  });

  it('reads a container\'s name in camel case as its words: a related story\'s box goes, a video\'s caption and the story\'s body stay', () => {
    const main = mainOf(blogPage('Best gadgets of the year', `<p>As the year comes to an end, it is time to look back at the gadgets we liked.</p>
      <div class="relatedContent alignRight"><p class="dek">The very best Black Friday deals and sales.</p></div>
      <div class="embeddedMediaCaption"><p>A video showing the new phone being unfolded was released on Monday.</p></div>
      <div class="storyBody"><p>The new earbuds cancel noise and come with three sizes of tips.</p></div>`));
    assert.deepEqual(main.blocks, ['As the year comes to an end, it is time to look back at the gadgets we liked.',
      'A video showing the new phone being unfolded was released on Monday.', 'The new earbuds cancel noise and come with three sizes of tips.']);
  });

  it('drops notices and warnings named so: never the page\'s topic', () => {
    const main = mainOf('<div><div class="warning"><p>The session modules can expose private information to clients if misused.</p></div><p>This module provides sessions for users of the server.</p></div>');
    assert.deepEqual(main.blocks, ['This module provides sessions for users of the server.']);
  });

  it('drops a page footer named so, whatever its language, even where it does not repeat', () => {
    const main = mainOf('<div id="content"><p>Siden her er kun på dansk og findes ikke på andre sprog.</p></div><div id="footer"><p>Copyright 2026 Fonden. Licenseret under licensen.</p></div>');
    assert.deepEqual(main.blocks, ['Siden her er kun på dansk og findes ikke på andre sprog.']);
    const rodape = mainOf('<div id="conteudo"><p>A notícia da cidade, contada por quem mora nela.</p></div><div class="rodape"><p>Jaraguá do Sul - SC - Rua Walter Marquardt, 1111</p></div>');
    assert.deepEqual(rodape.blocks, ['A notícia da cidade, contada por quem mora nela.'], 'a footer named in Portuguese');
    assert.deepEqual(mainOf('<div class="rodapes-list"><p>Uma lista de rodapés, o assunto da página.</p></div>').blocks.length, 1, 'a word that only begins so');
  });

  it('drops a menu of plain text separators and a block that is mostly links', () => {
    const main = mainOf('<div><p>Home | Docs | Blog | Contact</p><p><a href="/a">Installing the server</a>, <a href="/b">Upgrading it</a></p><p>Only this sentence is the page\'s own text.</p></div>');
    assert.deepEqual(main.blocks, ['Only this sentence is the page\'s own text.']);
  });

  it('keeps a shop\'s hero banner as the home page\'s own text, and leaves a banner beside an article out', () => {
    const home = mainOf('<body><header role="banner"><a href="/">Northbound</a></header><main><div class="banner banner--large"><h2 class="banner__heading">Coffee worth getting up for</h2>'
      + '<div class="banner__text"><p>Specialty coffee from Duluth, Minnesota, roasted to order in small batches.</p></div></div><p>We only roast what you order.</p></main></body>');
    assert.deepEqual(home.blocks, ['Specialty coffee from Duluth, Minnesota, roasted to order in small batches.', 'We only roast what you order.']);
    const story = mainOf('<body><article><h1>Council bans overnight parking</h1><div class="promo-banner"><p>Subscribe today and get your first month of unlimited reading free.</p></div>'
      + '<p>The city council voted 7-2 to ban overnight parking on Main Street.</p></article></body>');
    assert.deepEqual(story.blocks, ['The city council voted 7-2 to ban overnight parking on Main Street.']);
  });

  it('keeps a paragraph whose own words make a sentence around its links, not a label before a line of links', () => {
    const main = mainOf('<div><p><a href="/p/jvdb">James Van Der Beek</a> has been eliminated from “<a href="/c/dwts">Dancing with the Stars</a>.”</p>'
      + '<p>Related: <a href="/a">Dancing with the Stars crowns its season champion.</a></p><p><a href="/b">Installing the server.</a> <a href="/c">Upgrading it.</a></p></div>');
    assert.deepEqual(main.blocks, ['James Van Der Beek has been eliminated from “Dancing with the Stars.”']);
  });

  it('keeps the heading text without its permalink sign, and images without alt and JSON-LD types', () => {
    const main = mainOf('<html><head><script type="application/ld+json">{"@type":"TechArticle"}</script></head><body><h2 id="x">Options <a href="#x">¶</a></h2><img src="/a.png"><img src="/b.png" alt=""></body></html>');
    assert.deepEqual(main.headings, [{ level: 2, text: 'Options' }]);
    assert.deepEqual(main.imagesWithoutAlt, ['/a.png']);
    assert.deepEqual(main.jsonLd, [{ valid: true, types: ['TechArticle'] }]);
  });

  it('tells the images without alt in the page\'s template (header, navigation, footer) or icon-sized from those of its content', () => {
    const main = mainOf('<body><header><a href="/"><img src="/brand.png"></a></header><nav><img src="/menu.png"></nav><article><p>Roses in June.</p><img src="/roses-in-june.jpg"><img src="/bullet.gif" width="9" height="13"><img src="/px.gif" width="1" height="1"><noscript><img src="/roses-in-june.jpg?nojs"></noscript></article><footer><img src="/share.png"></footer></body>');
    assert.deepEqual(main.imagesWithoutAlt, ['/brand.png', '/menu.png', '/roses-in-june.jpg', '/bullet.gif', '/px.gif', '/share.png'], "a <noscript> copy is not the page's image");
    assert.deepEqual(main.imagesNotContent, ['/brand.png', '/menu.png', '/bullet.gif', '/px.gif', '/share.png'], 'the template\'s, and icon-sized ones');
  });

  it('counts as no picture of the page an image in a link that words name, a teaser card\'s beside its headline, a strip, and one repeated', () => {
    const main = mainOf(`<article><p>The story.</p><img src="/story.jpg">
      <a href="/other-story/"><img src="/thumb.jpg"> Another story's headline</a>
      <div class="card"><a href="/third/"><img src="/third.jpg"></a><h3><a href="/third/">The third story</a></h3></div>
      <a href="/product/"><img src="/product-photo.jpg"></a>
      <img src="/tab.png" width="32" height="129"><img src="/dash.gif"><img src="/dash.gif"><img src="/dash.gif"></article>`);
    assert.deepEqual(main.imagesWithoutAlt, ['/story.jpg', '/thumb.jpg', '/third.jpg', '/product-photo.jpg', '/tab.png', '/dash.gif']);
    assert.deepEqual(main.imagesNotContent, ['/tab.png', '/thumb.jpg', '/third.jpg', '/dash.gif'], 'a linked image no words name stays the page\'s (it needs alt naming where it leads)');
    assert.deepEqual(main.imageLinks, [['/product-photo.jpg', '/product/']], 'and its link is kept, for the agent to tell an ad elsewhere from the site\'s own');
  });

  it("keeps the caption of an image's figure, and none for an image outside one or a figure without a caption", () => {
    const main = mainOf('<article><figure><img src="/a.jpg"><figcaption>Fans line the route of the <b>parade</b>. Photo: AP</figcaption></figure><figure><img src="/b.jpg"></figure><img src="/c.jpg"><figure><img src="/d.jpg" alt="Kept"><figcaption>Its own alt</figcaption></figure></article>');
    assert.deepEqual(main.imagesWithoutAlt, ['/a.jpg', '/b.jpg', '/c.jpg']);
    assert.deepEqual(main.imageCaptions, [['/a.jpg', 'Fans line the route of the parade. Photo: AP']]);
    assert.equal(mainOf('<p>No figure here.</p><img src="/x.png">').imageCaptions, undefined);
  });

  it("keeps a data table's rows as rows (their cells' words in order), and a layout table's prose as paragraphs", () => {
    const main = extractPageFacts(`<article><p>The snap counts from Sunday's game.</p><table><tr><th>Pos</th><th>Player</th><th>Plays</th></tr><tr><td>DL</td><td>Myles Garrett</td><td>57</td></tr></table>
      <table><tr><td><p>${'The layout table holds the whole article in one cell, sentence after sentence. '.repeat(4)}</p></td></tr><tr><td>${'A row that is prose all the same, written straight into its cell. '.repeat(4)}</td></tr></table></article>`, WHOLE_PAGE).main!;
    assert.deepEqual(main.blocks.slice(1, 3), ['Pos Player Plays', 'DL Myles Garrett 57']);
    assert.equal(main.order, 'pttpp');
    // A crawl keeps its budget for what drafting reads: the rows of values are left out, the prose kept.
    assert.equal(mainOf(`<article><p>Intro text of the page.</p><table><tr><td>DL</td><td>Myles Garrett</td></tr></table></article>`).order, 'p');
  });

  it('leaves out what the page hides, figures with their captions, captions by name, and bylines and datelines', () => {
    const main = mainOf(`<article><div style="display:none" itemscope><div itemprop="headline">A copy for machines</div></div><div hidden>Closed dialog text</div>
      <p>By Jane Doe | Staff writer</p><p>Updated 5:27 am CST, Wednesday, November 20, 2019</p><figure><img src="/a.jpg"><figcaption>A caption</figcaption></figure>
      <div class="wp-caption-text">Photo: John Smith</div><p>The article's only paragraph.</p></article>`);
    assert.deepEqual(main.blocks, ["The article's only paragraph."]);
  });

  it("takes back a teaser card of another article after the page's text (a short box, mostly its headline's link), never the page's own box", () => {
    const card = (n: number) => `<div class="card"><h3><a href="/story-${n}/">Another story, number ${n}, with its headline</a></h3><p>Its excerpt in a line.</p></div>`;
    const main = mainOf(`<article><p>${'The article says what it says, at length. '.repeat(4)}</p><p>Its second paragraph, with <a href="/source/">a source</a> cited.</p>${card(1)}${card(2)}</article>`);
    assert.equal(main.blocks.length, 2, main.blocks.join(' | '));
    assert.ok(main.blocks[1]!.startsWith('Its second paragraph'));
  });

  it("keeps, of several articles, the one that holds the page's headline or far outweighs the others; never a live blog's entries", () => {
    const teaser = (n: number) => `<article><h2>Related story ${n}</h2><p>${'Its excerpt runs on for a while without any link at all. '.repeat(3)}</p></article>`;
    const titled = mainOf(`<html><head><title>Só quem se Ama... — Mensagens</title></head><body><article><h1>Só quem se Ama…</h1><p>${'The page\'s own text, at length. '.repeat(8)}</p></article>
      <article><h3>You may like</h3>${teaser(1)}${teaser(2)}</article></body></html>`);
    assert.deepEqual(titled.blocks, ['The page\'s own text, at length. '.repeat(8).trim()], 'the related posts are taken out, headings too');
    assert.deepEqual(titled.headings.map((h) => h.text), ['Só quem se Ama…']);
    // No heading names the page (its headline an h2 the title does not hold): the article with three times the text of any other.
    // On an article's page only: a changelog's or a blog index's <article>s are its entries, however long one of them is.
    const outweighing = `<section role="main"><article><h2>The story</h2><p>${'The story, told at length. '.repeat(30)}</p></article>${teaser(1)}${teaser(2)}</section>`;
    assert.equal(mainOf(`<html><head><meta property="og:type" content="article"></head><body>${outweighing}</body></html>`).blocks.length, 1);
    assert.equal(mainOf(`<html><head><title>Changelog</title></head><body>${outweighing}</body></html>`).blocks.length, 3);
    // Entries of a live blog, alike in length, are all the page's; so is an article longer than the one with the headline.
    const entry = (n: number) => `<article><p>${`Update ${n}: what happened in the last hour, told in a few sentences. `.repeat(2 + (n % 2))}</p></article>`;
    assert.equal(mainOf(`<main><h1>Live: the election</h1>${entry(1)}${entry(2)}${entry(3)}</main>`).blocks.length, 3);
    const split = mainOf(`<html><head><title>The headline of the story</title></head><body><article><h1>The headline of the story</h1><p>A standfirst.</p></article><article><p>${'The body. '.repeat(20)}</p></article></body></html>`);
    assert.equal(split.blocks.length, 2);
  });

  it("drops what stands before the page's headline (an h1 or h2 its title holds), unless the headline stands at the page's foot", () => {
    const page = (body: string) => mainOf(`<html><head><title>Deportees return home from the US | India Post</title></head><body>${body}</body></html>`);
    const ticker = '<div class="ticker"><p>Another story of the day, and its first sentence cut short here.</p></div>';
    const story = `<p>${'With shattered dreams, they came back. '.repeat(6)}</p>`;
    assert.deepEqual(page(`${ticker}<div><h1>Deportees return home from the US</h1>${story}</div>`).blocks, [story.slice(3, -4).trim()]);
    // A headline repeated at the foot of the page (a share box, a "you are reading" bar): what stands before it is the article.
    assert.equal(page(`<div>${story}${ticker}</div><div><h1>Deportees return home from the US</h1><p>Share it.</p></div>`).blocks.length, 3);
    // The site's name in the h1, the headline an h2; a section's heading that repeats the title's first words is no headline.
    assert.equal(page(`<h1>India Post</h1>${ticker}<div><h2>Deportees return home from the US</h2>${story}</div>`).blocks.length, 1);
    // An h1 the title holds is the headline, wherever an h2 that the title holds stands (a teaser of the same story above it).
    assert.equal(page(`<div><h2>Deportees return home from the US</h2>${ticker}</div><div><h1>Deportees return home from the US</h1>${story}</div>`).blocks.length, 1);
    const guide = mainOf(`<html><head><title>How to retire early, step by step: earn, save and invest more | Business Insider</title></head>
      <body><div>${story}<h2>How to retire early</h2>${story}${story}</div></body></html>`);
    assert.equal(guide.blocks.length, 3);
  });

  it("drops an article's footer (its comments policy, tags, share bar), and keeps its header (headline, standfirst)", () => {
    const main = mainOf(`<main><article><header><h1>Parise scores twice</h1><p>The Wild beat the Sabres 4-1.</p></header><p>Zach Parise scored two goals on Tuesday night.</p>
      <footer class="article-footer"><p>As you comment, please be respectful of other commenters and other viewpoints.</p></footer></article></main>`);
    assert.deepEqual(main.blocks, ['The Wild beat the Sabres 4-1.', 'Zach Parise scored two goals on Tuesday night.']);
  });

  it("drops boxes named as a byline, the writer's box, a call to action, a newsletter's sign-up or the most read, unless one holds the page's heading", () => {
    const main = mainOf(`<html><head><title>Marie Yovanovitch's net worth | Snopes</title></head><body><article><h1>Marie Yovanovitch's net worth</h1>
      <div class="byline"><p>Dan Evon, Senior Writer</p></div><p>The claim about her net worth is unproven.</p>
      <div class="author-bio"><p>Dan has written for the site since 2014 and covers politics.</p></div>
      <div class="smg-zone-widget-custom-cta-letter"><div class="card-body"><p>Support us and make a difference for readers everywhere.</p></div></div>
      <div class="newsletter-signup"><p>Get the best of the site in your inbox every week.</p></div>
      <div class="most-popular"><p>A story many read this week, in a sentence.</p></div></article></body></html>`);
    assert.deepEqual(main.blocks, ['The claim about her net worth is unproven.'], 'a layout word\'s escape ("card-body") no longer opens a box named otherwise');
    const newsletterPage = mainOf('<html><head><title>Our newsletter, every Friday</title></head><body><div class="newsletter"><h1>Our newsletter, every Friday</h1><p>Five links we loved this week, with a note on each.</p></div></body></html>');
    assert.deepEqual(newsletterPage.blocks, ['Five links we loved this week, with a note on each.'], 'a box named so that holds the page\'s own heading is the page');
    const articlePage = (body: string) => mainOf(`<html><head><title>A post</title><meta property="og:type" content="article"></head><body>${body}</body></html>`);
    const tagged = articlePage('<div id="post-12" class="post-12 post type-post hentry category-social-media tag-popular tag-newsletter"><p>A post tagged with template words is a post.</p></div>');
    assert.deepEqual(tagged.blocks, ['A post tagged with template words is a post.'], "WordPress's tag and category classes name what a post is about");
    // ...beside WordPress's post classes only: a shop's category menu is its menu.
    assert.deepEqual(articlePage('<div class="category-menu"><p>Roses, bulbs, hedging and tools for the garden.</p></div><p>The post itself, at some length.</p>').blocks,
      ['The post itself, at some length.']);
    // Not an article's page: a landing page's hero "cta", a shop's popular products, an author's own page are the page.
    const landing = mainOf(`<html><head><title>Acme invoicing</title></head><body><main><section class="hero cta"><h1>Invoicing for freelancers, done in a minute</h1>
      <p>Acme sends your invoices and chases late payers for you.</p></section><section class="popular-products"><h2>Our most popular plans</h2><p>Solo, Studio and Agency, each with a free month.</p></section></main></body></html>`);
    assert.deepEqual(landing.blocks, ['Acme sends your invoices and chases late payers for you.', 'Solo, Studio and Agency, each with a free month.']);
    // What to read next is template on any page; an article's JSON-LD in the body says what the page is from there on.
    const product = mainOf('<html><head><meta property="og:type" content="product"></head><body><main><p>A bypass pruner with hardened steel blades.</p><section class="you-may-like"><p>Another pruner, with a rotating handle.</p></section></main></body></html>');
    assert.deepEqual(product.blocks, ['A bypass pruner with hardened steel blades.']);
    const news = mainOf(`<html><head><title>Bridge closes</title></head><body><script type="application/ld+json">{"@type":"NewsArticle"}</script><main><p>The bridge closes on Monday for repairs.</p>
      <div class="author-box"><p>Jane Doe covers city hall for the paper.</p></div><div class="most-popular"><p>A story many read this week.</p></div></main></body></html>`);
    assert.deepEqual(news.blocks, ['The bridge closes on Monday for repairs.']);
  });

  it("keeps the article's body inside a container named by layout words, and never a widget's content for its name", () => {
    const main = mainOf(`<div class="container penci_sidebar"><div class="entry-content"><p>The article, in a theme that names its column a sidebar.</p></div></div>
      <div class="widget-9 panel"><div class="aptf-tweet-content"><p>RT @someone: a tweet in the sidebar's timeline.</p></div></div>`);
    assert.deepEqual(main.blocks, ['The article, in a theme that names its column a sidebar.']);
  });

  it('reads a paragraph without the hover card a name in it opens, but keeps the name itself', () => {
    const main = mainOf(blogPage('Meth campaign', `<p>South Dakota Gov. <span class="rollover-people"><a class="rollover-people-link" href="/people/kristi-noem">Kristi Noem</a><span class="rollover-people-block"><a href="/people/kristi-noem">Kristi Lynn Noem</a> <a href="/a">South Dakota drops pipeline protest laws</a> <a href="/b">New law requiring a sign</a> <a href="/c">MORE</a></span></span> (R) is defending the state's campaign.</p>
      <p>An <span class="tooltip">HTML<span class="tooltiptext">HyperText Markup Language</span></span> page is text.</p>`));
    assert.deepEqual(main.blocks, ['South Dakota Gov. Kristi Noem (R) is defending the state\'s campaign.', 'An HTML page is text.']);
  });

  it('ends a paragraph at two line breaks in a row, not at one', () => {
    const main = mainOf(blogPage('Arrombamento', '<div><small>05/10/2018 - Publicado por: Clarissa Borba - Categoria: Saúde</small><br><br>A equipe do SAD registrou nesta manhã o arrombamento de dois veículos.<br>Os veículos estavam sem baterias.</div>'));
    assert.deepEqual(main.blocks, ['A equipe do SAD registrou nesta manhã o arrombamento de dois veículos. Os veículos estavam sem baterias.']);
  });

  it('reads a page that hides its body until its scripts run, and a box hidden until found', () => {
    assert.deepEqual(mainOf('<html><body style="display:none"><p>The page hides itself until its scripts run.</p></body></html>').blocks, ['The page hides itself until its scripts run.']);
    assert.deepEqual(mainOf('<p>Intro.</p><div hidden="until-found"><p>Found by search.</p></div>').blocks, ['Intro.', 'Found by search.']);
  });

  it("keeps a container whose class merely mentions captions, and never reads a table's caption as prose", () => {
    assert.deepEqual(mainOf('<div class="entry has-captions"><p>The article itself.</p></div>').blocks, ['The article itself.']);
    const main = extractPageFacts('<article><p>Before the table.</p><table><caption>Table 1: scores</caption><tr><td>A</td><td>1</td></tr></table></article>', WHOLE_PAGE).main!;
    assert.deepEqual(main.blocks, ['Before the table.', 'A 1']);
  });

  it('never takes back a box that holds the headline', () => {
    const page = mainOf('<p>A slogan outside the article.</p><main><h1><a href="/this/">The headline, linked to itself</a></h1><p>Short body.</p></main>');
    assert.ok(page.blocks.includes('Short body.'), page.blocks.join(' | '));
  });

  it('bounds what it keeps of a long page', () => {
    const main = mainOf(`<main>${'<p>A paragraph of the page that goes on for a while so that the budget fills up quickly enough.</p>'.repeat(200)}</main>`);
    assert.ok(main.blocks.length <= 24 && main.blocks.join('').length <= 4100, `${main.blocks.length} blocks`);
  });
});

describe('the site-wide template', () => {
  const pages = ['Virtual hosts', 'Caching', 'Logging', 'Rewriting'].map((topic) =>
    mainOf(manualPage(topic, `<p>This page explains ${topic.toLowerCase()} in the example server, with the settings that matter most.</p>`)));

  it('is what recurs on several pages of the crawl: a version banner, a notice, a footer', () => {
    const own = withoutSiteTemplate(pages);
    for (const page of own) {
      assert.ok(!page!.blocks.some((b) => /Version 2\.4|no longer maintained|Copyright/.test(b)), page!.blocks.join(' / '));
      assert.ok(!page!.headings.some((h) => h.text === 'Important'));
      assert.equal(page!.blocks.length, 1);
    }
    assert.ok(pages[0]!.blocks.some((b) => /no longer maintained/.test(b)), 'without repetition the notice would have stayed');
  });

  it('keeps a page\'s headline that its title opens with when other pages name it, not a site\'s name in most pages\' h1', () => {
    const service = (name: string, grid: string[]) => `<html><head><title>${name} — BrightSmile Dental</title></head><body><main><h1>BrightSmile Dental</h1><h1>${name}</h1>`
      + `<p>${name} at our practice is done by a dentist from start to finish.</p>${grid.map((g) => `<h3>${g}</h3>`).join('')}</main></body></html>`;
    const html = [service('Teeth Whitening', []), service('Cleanings', ['Teeth Whitening']), service('Implants', ['Teeth Whitening']),
      service('Crowns', []), service('Veneers', []), service('Braces', []), service('Fillings', [])];
    const facts = html.map((h) => extractPageFacts(h));
    const own = withoutSiteTemplate(facts.map((f) => f.main), [], facts.map((f) => f.titles[0]));
    assert.deepEqual(own[0]!.headings.map((h) => h.text), ['Teeth Whitening'], 'its own headline stays, the site name on every page goes');
    assert.ok(!own[1]!.headings.some((h) => h.text === 'Teeth Whitening'), 'on another page the same words are still template');
    const untitled = withoutSiteTemplate(facts.map((f) => f.main));
    assert.deepEqual(untitled[0]!.headings.map((h) => h.text), [], 'without the title, three pages make it template');
    // A site whose titles open with its name: its name in every page's h1 is still template.
    const siteFirst = withoutSiteTemplate(facts.map((f) => f.main), [], facts.map((f) => `BrightSmile Dental | ${f.titles[0]}`));
    assert.ok(!siteFirst.some((page) => page!.headings.some((h) => h.text === 'BrightSmile Dental')));
  });

  it('keeps a heading of the page\'s own sections that other pages name too, when the line under it is the page\'s own', () => {
    const page = (title: string, body: string) => `<html><head><title>${title} — BrightSmile Dental</title></head><body><main>${body}</main></body></html>`;
    // "Book online" is on 7 of the 12 pages (most: the template's), "Teeth Whitening" on 5.
    const book = (n: number) => `<h3>Book online</h3><p>Book online for visit number ${n} of the year.</p>`;
    const html = [
      page('Services', `<h1>Our Services</h1><p>Everything your smile needs.</p><h3>General Dentistry</h3><p>Exams and cleanings.</p><h3>Teeth Whitening</h3><p>Up to 8 shades brighter.</p><h3>Implants</h3><p>Permanent tooth replacement.</p>${book(1)}`),
      page('Offers', `<h1>Offers</h1><p>This month only.</p><h3>Teeth Whitening</h3><h3>Gift cards</h3><p>A gift card for any amount.</p>${book(2)}`),
      page('Whitening FAQ', `<h1>Whitening FAQ</h1><p>What patients ask us.</p><h3>Teeth Whitening</h3><p>It takes about ninety minutes.</p>${book(3)}`),
      page('Twice', '<h1>Twice</h1><p>A page with two main headings.</p><h1>Teeth Whitening</h1><p>Whitening in one visit, explained.</p>'),
      page('Home', `<h1>Welcome</h1><p>A family practice in Somerville.</p><h3>Teeth Whitening</h3><h3>Implants</h3>${book(4)}`),
      ...['Crowns', 'Veneers', 'Braces', 'Fillings', 'Bridges', 'Sealants', 'Root canals'].map((name, i) => page(name, `<h1>${name}</h1><p>${name} done by a dentist from start to finish.</p>${i < 3 ? book(5 + i) : ''}`))];
    const facts = html.map((h) => extractPageFacts(h));
    const own = withoutSiteTemplate(facts.map((f) => f.main), [], facts.map((f) => f.titles[0])).map((p) => p!.headings.map((h) => h.text));
    assert.deepEqual(own[0], ['Our Services', 'General Dentistry', 'Teeth Whitening', 'Implants'], 'on five pages, still the services page\'s own; "Book online", on most, is not');
    assert.deepEqual(own[1], ['Offers', 'Gift cards'], 'over nothing of its own (an offers grid), it is template');
    assert.deepEqual(own[2], ['Whitening FAQ'], 'the only heading of its level over its line: no list of sections of the page\'s own');
    assert.deepEqual(own[3], ['Twice'], 'a main heading repeated is no section of the page');
  });

  it('keeps text a large site quotes on a few of its pages (under 5% of them) with those pages', () => {
    const many = Array.from({ length: 100 }, (_, i) => mainOf(manualPage(`Release ${i}`, `<p>Release ${i} fixes one thing in the example server for good.</p>`)));
    const quoted = '<p>Added support for a new operator on virtual tables in this release.</p>';
    many.push(...[1, 2, 3].map((i) => mainOf(manualPage(`Changes ${i}`, quoted))));
    const own = withoutSiteTemplate(many);
    assert.ok(own.at(-1)!.blocks.some((b) => /new operator/.test(b)), 'three of 103 pages quote it');
    assert.ok(!own[0]!.blocks.some((b) => /Version 2\.4/.test(b)), 'the banner on all of them is still template');
  });

  it('counts one page served under several URLs once: its own text is not template', () => {
    const copy = (main: MainContent) => ({ ...main, blocks: [...main.blocks] });
    const own = withoutSiteTemplate([pages[0], copy(pages[0]!), copy(pages[0]!), pages[1]], ['h1', 'h1', 'h1', 'h2']);
    assert.ok(own[1]!.blocks.some((b) => /virtual hosts/.test(b)), 'three URLs of one page');
  });

  it('is the same once the pages are packed while the crawl goes on (their checks done)', () => {
    const packed = pages.map((p) => packMainContent(p!));
    assert.ok(packed.every((p) => p.blocks.length === 0 && p.packed), 'the text waits compressed');
    assert.deepEqual(withoutSiteTemplate(packed).map((p) => p!.blocks), withoutSiteTemplate(pages).map((p) => p!.blocks));
    assert.deepEqual(unpackMainContent(packed[0]!).headings, pages[0]!.headings);
  });

  it('is removed before the audit stores the pages, with depth, links in and redirects', () => {
    const page = (url: string, html: string | undefined, extra: Partial<CrawledPage> = {}): CrawledPage => ({
      url, depth: 1, status: 200, blockedByRobots: false, redirectChain: [], contentType: 'text/html', ttfbMs: 1, truncated: false,
      xRobotsTag: [], hsts: false, outlinks: new Int32Array([0, 1, 2]), images: [], ...(html ? { facts: extractPageFacts(html) } : {}), ...extra,
    });
    const urls = ['https://x.test/a', 'https://x.test/b', 'https://x.test/c', 'https://x.test/old'];
    const records = auditPageRecords({
      urls,
      pages: [
        page(urls[0]!, manualPage('Virtual hosts', '<p>Virtual hosts let one machine serve many sites, each under its own name.</p>')),
        page(urls[1]!, manualPage('Caching', '<p>Caching keeps answers close to the reader so the server does less work.</p>')),
        page(urls[2]!, manualPage('Logging', '<p>Logging records every request so problems can be traced later on.</p>')),
        page(urls[3]!, undefined, { status: 301, redirectTarget: urls[0]!, outlinks: new Int32Array() }),
      ],
    });
    const a = records[0]!;
    assert.equal(a.inlinks, 2, 'links from the two other pages, not from itself');
    assert.deepEqual(JSON.parse(a.content()!).blocks, ['Virtual hosts let one machine serve many sites, each under its own name.']);
    assert.equal(records[3]!.redirect_to, urls[0]);
    assert.equal(records[3]!.content(), null);
  });
});

describe('the hash of a block past the text budget', () => {
  it('is the hash of its normalised text, whatever white space it came with (property, fixed seed)', async () => {
    const fc = (await import('fast-check')).default;
    const { collapse } = await import('./main-content.ts');
    const { blockHash } = await import('./text-hashes.ts');
    // Long enough to be read from both ends (64 units each), with astral Han and the stops collapse() joins across.
    const piece = fc.constantFrom('a', 'B', 'é', 'İ', ' ', '  ', '\n', '\t', '\u00a0', '\u2009', '\u3000', 'x1', '|', '漢', 'か', '。', 'ü', '𠀋', 'word ');
    fc.assert(fc.property(fc.array(piece, { maxLength: 160 }).map((parts) => parts.join('')), (raw) => blockHash(raw) === blockHash(collapse(raw))), { seed: 20261125, numRuns: 3000 });
  });

  it('tells blocks apart wherever they differ, even in the middle only (location pages from one template)', async () => {
    const { blockHash } = await import('./text-hashes.ts');
    const middle = ' the same words in the middle of a long paragraph that goes on'.repeat(4);
    assert.notEqual(blockHash(`One start${middle} and one end.`), blockHash(`Another start${middle} and one end.`));
    assert.notEqual(blockHash(`One start${middle} and one end.`), blockHash(`One start${middle} and another end.`));
    const serves = (town: string) => `${middle} Our team serves every homeowner in ${town} with same-day repairs${middle}`;
    assert.notEqual(blockHash(serves('Springfield')), blockHash(serves('Albuquerque')));
    assert.equal(blockHash(`One START${middle}\n  and one end.`), blockHash(`one start${middle} and one end.`));
  });
});

describe('boilerplate below the template\'s share', () => {
  it('is a block on three or more pages of one language, not an untranslated paragraph copied into three translations', async () => {
    const { siteTemplate, withoutTemplate } = await import('./main-content.ts');
    let n = 0;
    const page = (text: string): MainContent => ({ headings: [], blocks: [text, `Own text number ${n++} of one page.`] });
    const copy = 'Kali Linux is a Debian-based distribution specializing in penetration testing.';
    const pages = [page(copy), page(copy), page(copy), ...Array.from({ length: 60 }, (_, i) => page(`Unique page ${i} text.`))];
    const translations = siteTemplate(pages, [], ['en-US', 'fr-FR', 'ja-JP', ...pages.slice(3).map(() => 'en-US')]);
    assert.equal(withoutTemplate(pages[0]!, translations, 0).shared, undefined, 'one copy per language');
    const oneLanguage = siteTemplate(pages, [], pages.map(() => 'en'));
    assert.deepEqual(withoutTemplate(pages[0]!, oneLanguage, 0).shared, [0], 'three pages of one language');
  });
});

describe('a site menu that names every page', () => {
  it('does not make a page\'s own heading template because the menu links to it by the same words', () => {
    const names = ['File system', 'Cluster', 'Events', 'Streams', 'Timers'];
    const menu = `<ul>${names.map((n) => `<li><a href="/${n}">${n}</a></li>`).join('')}</ul>`;
    const pages = names.map((n) => mainOf(`<html><head><title>${n} | Docs</title></head><body><div id="column2">${menu}</div><div id="apicontent"><h2>${n}</h2><p>The ${n.toLowerCase()} module does one thing for the ${n} page.</p></div></body></html>`));
    assert.deepEqual(withoutSiteTemplate(pages).map((p) => p!.headings.map((h) => h.text)), names.map((n) => [n]));
  });
});
