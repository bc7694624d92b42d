import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LISTING_TITLE, namedOpening } from './description-writer.ts';
import { readPageContent, type PageContent } from './page-content.ts';
import { endsDangling, meetsDraftRules, siteSuffixOf, writeH1, writeMetaDescription, writeTitle } from './writers.ts';

const content = readPageContent(`<html><head><title>Old</title><script>var x = "Not this. Never this sentence here.";</script></head><body>
<h1>Handmade oak tables</h1><p>Short.</p>
<p>Our tables are cut from a single oak board in our workshop in Devon. Every table is oiled by hand and ready in six weeks. Delivery is free.</p>
</body></html>`);
const page = (paragraphs: string[], extra: Partial<PageContent> = {}): PageContent => ({ title: '', h1: '', headings: [], lang: 'en', paragraphs, ...extra });
const text = (draft: { text: string } | { reason: string }) => ('text' in draft ? draft.text : undefined);
const reason = (draft: { text: string } | { reason: string }) => ('reason' in draft ? draft.reason : undefined);

describe('the description writer', () => {
  it('refuses a listing whose first heading is its first entry, not the page (no h1, a heading the title does not name)', () => {
    const excerpt = 'Slice retention by any event property without writing a single query, and share the chart with your team.';
    const listing = page([excerpt], { title: 'Blog – Fernhollow Analytics', headings: [{ level: 2, text: 'Introducing Cohort Explorer' }], order: '2p' });
    assert.match(reason(writeMetaDescription(listing, new Set()))!, /first heading \("Introducing Cohort Explorer"\) names something its title does not/);
    // (A manual's page without an h1, headed by what its title names, drafts as before; so does a standfirst set as a heading,
    // and a landing page's hero in an h2, whose title names no listing.)
    assert.equal(text(writeMetaDescription({ ...listing, title: 'Blog – Cohort Explorer – Fernhollow Analytics' }, new Set())), excerpt);
    assert.equal(text(writeMetaDescription({ ...listing, title: 'Cohort Explorer | Blog' }, new Set())), excerpt);
    assert.equal(text(writeMetaDescription({ ...listing, summaries: [['standfirst', 'Introducing Cohort Explorer']] }, new Set())), excerpt);
    assert.equal(text(writeMetaDescription({ ...listing, title: 'Fernhollow Analytics – Product analytics for teams' }, new Set())), excerpt);
    assert.ok(LISTING_TITLE.pattern.test(LISTING_TITLE.example) && !LISTING_TITLE.pattern.test(LISTING_TITLE.counterExample));
    assert.match(reason(writeMetaDescription({ ...listing, title: 'Fernhollow Analytics | Tag: retention' }, new Set()))!, /first entry/);
  });

  it('drafts whole sentences of the page, within 80-160 characters', () => {
    const draft = text(writeMetaDescription(content, new Set()));
    assert.equal(draft, 'Our tables are cut from a single oak board in our workshop in Devon. Every table is oiled by hand and ready in six weeks.');
  });

  it('drafts an article from its second paragraph after a scene-setting first, when it names the headline, never from the writer\'s own voice', () => {
    const article = (second: string) => page(['The search for life beyond the solar system is a slow dance of patience and luck.', second, 'The planet is about 110 light years from Earth.'],
      { article: true, h1: 'Hubble finds water vapour on exoplanet K2-18b', title: 'Hubble finds water vapour on exoplanet K2-18b' });
    assert.match(text(writeMetaDescription(article('Astronomers using the Hubble Space Telescope have detected water vapour in the atmosphere of K2-18b.'), new Set())) ?? '',
      /^Astronomers using the Hubble Space Telescope have detected water vapour in the atmosphere of K2-18b\./);
    assert.equal(text(writeMetaDescription(article('As I write this, the Hubble Space Telescope team is still checking the water vapour it saw on K2-18b.'), new Set())), undefined,
      'the writer speaking is no nut graf');
    assert.match(text(writeMetaDescription(article('In World War I terms, Hubble’s team has won a battle: water vapour has been detected on K2-18b.'), new Set())) ?? '',
      /^In World War I terms, Hubble’s team/, '"World War I" is a name, not the writer');
  });

  it('names a reference page\'s subject where its draft opens "This command" or "This module", as its heading writes it', () => {
    const ref = (h1: string, extra: Partial<PageContent> = {}) => ({ h1, headings: [{ level: 1, text: h1 }], ...extra });
    assert.equal(namedOpening('This command displays the execution plan that the planner generates for the supplied statement.', ref('EXPLAIN')),
      'EXPLAIN displays the execution plan that the planner generates for the supplied statement.');
    assert.equal(namedOpening('This module provides access to mathematical functions for complex numbers.', ref('cmath — Mathematical functions for complex numbers')),
      'The cmath module provides access to mathematical functions for complex numbers.');
    assert.equal(namedOpening('This module provides triggers that fire on events.', ref('Event Triggers')), 'This module provides triggers that fire on events.', 'a prose heading is no name');
    assert.equal(namedOpening('This command stops the service.', ref('STOP', { article: true })), 'This command stops the service.', 'an article\'s "this" is its own');
    const long = `This module ${'provides a very long list of things '.repeat(4).trim()} for numbers.`;
    assert.equal(namedOpening(long, ref('email.header')), long, 'not past the limit');
  });

  it('avoids a description already used on the site', () => {
    const first = text(writeMetaDescription(content, new Set()))!;
    const second = writeMetaDescription(content, new Set([first.toLowerCase()]));
    assert.notEqual(text(second), first);
  });

  it('never cuts a sentence or ends in an ellipsis: a page whose sentences do not fit is refused with the reason', () => {
    const long = 'This single sentence about configuring the server names every option and every file and every directive it touches and goes far past any limit a search result shows.';
    const draft = writeMetaDescription(page([long]), new Set());
    assert.match(reason(draft)!, /\("[^"]+…?"\) is 165 characters and has no clause boundary to shorten it at/);
  });

  it('keeps a version number inside its sentence ("2.4" is not a sentence end)', () => {
    const draft = text(writeMetaDescription(page(['This document describes the modules of Apache HTTP Server 2.4 and the directives each of them adds to the server.']), new Set()));
    assert.equal(draft, 'This document describes the modules of Apache HTTP Server 2.4 and the directives each of them adds to the server.');
  });

  it('skips lead-ins to a list, fragments and code, and refuses text with replacement characters', () => {
    const draft = text(writeMetaDescription(page([
      'git-commit - Record changes to the repository',
      'The content to be committed can be specified in several ways:',
      'by using git add to incrementally add changes to the index before using the commit command;',
      'Set <code>x=1</code> in the file to turn the cache on for every host.',
      'Create a new commit containing the current contents of the index and the given log message describing the changes.',
    ]), new Set()));
    assert.equal(draft, 'Create a new commit containing the current contents of the index and the given log message describing the changes.');
    // A page that opens with a lead-in to its list: what follows the list is an aside ("You probably want to start up psql ...").
    const listFirst = writeMetaDescription(page(['Once you have created a database, you can access it by:', 'You probably want to start up psql to try the examples in this tutorial.']), new Set());
    assert.equal((listFirst as { rule?: string }).rule, 'list_intro_lead');
    const madeWhole = text(writeMetaDescription(page(['http is a package that collects several modules for working with the HyperText Transfer Protocol:'], { h1: 'http — HTTP modules' }), new Set()));
    assert.equal(madeWhole, 'http is a package that collects several modules for working with the HyperText Transfer Protocol.', 'a lead-in that is a whole sentence ends with a full stop');
    const factCheck = writeMetaDescription(page(['A viral post says the moon landing was filmed in a studio in Nevada in the summer of 1969.'], { factCheck: true }), new Set());
    assert.equal((factCheck as { rule?: string }).rule, 'fact_check', 'a fact-check\'s opening is the claim, not the verdict');
    const checked = writeMetaDescription(page(['A viral post says the moon landing was filmed in a studio in Nevada in the summer of 1969.'], {
      factCheck: true, summaries: [['standfirst', 'The claim that the moon landing was staged is false: the footage, the samples and independent tracking all confirm it.']],
    }), new Set());
    assert.equal(text(checked), 'The claim that the moon landing was staged is false: the footage, the samples and independent tracking all confirm it.', 'its editors\' summary gives the verdict');
    const command = text(writeMetaDescription(page(['apachectl is a front end to the web server. It is designed to help the administrator control the functioning of the server daemon.'], { h1: 'apachectl - Apache HTTP Server Control Interface' }), new Set()));
    assert.equal(command, 'apachectl is a front end to the web server. It is designed to help the administrator control the functioning of the server daemon.', 'a command name opens a sentence in lower case');
    const tied = text(writeMetaDescription(page(['However, the module only helps with a cache in front of the server and a warm disk under it.', 'This module keeps file handles open so that the server answers requests for static files faster.']), new Set()));
    assert.equal(tied, 'This module keeps file handles open so that the server answers requests for static files faster.', 'no opening on a word tied to the sentence before');
    const pointing = text(writeMetaDescription(page(['The above example does not include the address, so the server must look it up in DNS.', 'This document explains how the server finds the address of a host name before it answers.']), new Set()));
    assert.equal(pointing, 'This document explains how the server finds the address of a host name before it answers.', 'a sentence pointing at text around it does not open a description');
    assert.match(reason(writeMetaDescription(page(['Ce module fournit la gestion des sessions \uFFFD\uFFFD pour les utilisateurs du serveur web.']), new Set()))!, /replacement characters/);
    assert.match(reason(writeMetaDescription(page([]), new Set()))!, /only the site's template/);
  });

  it('leaves calls to action out: they tell a visitor what to do next, not what the page is', () => {
    const draft = text(writeMetaDescription(page([
      'Ask us if you are unsure: we will tell you honestly what suits your soil, your space and the time you have for roses.',
      'The best time to plant roses is late winter, just as the buds swell. Roses repay a little planning.',
      'Read our rose care guide for pruning, feeding and the problems to look out for.',
    ]), new Set()));
    assert.equal(draft, 'The best time to plant roses is late winter, just as the buds swell. Roses repay a little planning.', 'nor is one joined to a draft');
    assert.equal(text(writeMetaDescription(page(['Seeing the garden in June is the best way to choose roses for your own beds and borders.']), new Set())),
      'Seeing the garden in June is the best way to choose roses for your own beds and borders.', 'a word that only begins like one is not a call to action');
  });

  it('does not open on a sentence that needs what came before (a pronoun object, both/either, the second form)', () => {
    const first = 'This page covers planting, pruning and feeding apple trees in a small garden, month by month.';
    for (const opening of [
      'Give them a sheltered, sunny position and well-drained soil with no standing water in winter.',
      'Both protocols carry the same objects, but the smart one sends only what the other side lacks.',
      'In the second form, the command lists the refs the remote repository has and their commit IDs.',
    ]) {
      assert.equal(text(writeMetaDescription(page([opening, first]), new Set())), first, opening);
    }
    assert.equal(text(writeMetaDescription(page(['Prune apple trees in winter, when the branches are bare and the shape of the tree is easy to see.']), new Set())),
      'Prune apple trees in winter, when the branches are bare and the shape of the tree is easy to see.', 'an instruction that names its object stands');
  });

  it('takes a manual page\'s name line over a heading that is only its name, cut on a whole word when long', () => {
    const man = (h1: string, name: string) => ({ title: h1, h1, headings: [], lang: 'en', paragraphs: [name, 'Shows changes between the working tree and the index or a tree.'] });
    assert.equal(text(writeTitle(man('git-commit-tree(1) Manual Page', 'git-commit-tree -\n   Create a new commit object'), '', new Set())), 'git-commit-tree - Create a new commit object');
    assert.equal(text(writeTitle(man('git-pull(1)', 'git-pull - Fetch from and integrate with another repository or a local branch'), '', new Set())),
      'git-pull - Fetch from and integrate with another repository');
    assert.equal(text(writeTitle(man('git-diff(1)', 'git-diff - Show changes between commits, commit and working tree, etc'), '', new Set())),
      'git-diff - Show changes between commits', 'cut where the phrase ends, not on "working"');
    assert.notEqual(text(writeTitle(man('git-cherry-pick(1)', 'git-cherry-pick - Apply the changes introduced by some existing commits'), '', new Set())),
      'git-cherry-pick - Apply the changes introduced by some', 'no phrase end: not cut mid-phrase');
  });

  it('does not open on "These ..." after the page\'s start or on "This leaves ..." (they point back), but keeps "This tutorial explains ..."', () => {
    const topic = 'This tutorial explains how to import a new project into Git, make changes to it, and share changes.';
    const issues = 'These safety and performance issues cannot be fixed backward compatibly, so its use is not recommended.';
    assert.equal(text(writeMetaDescription(page(['Filtering rewrites every commit.', issues, topic]), new Set())), topic);
    assert.equal(text(writeMetaDescription(page(['This leaves all your changed files "Changes to be committed", as git status would put it.', topic]), new Set())), topic);
    assert.equal(text(writeMetaDescription(page([issues]), new Set())), issues, 'at the very start of the page, "These" names the page\'s subject');
  });

  it('holds a reworded value to the same rules', () => {
    assert.equal(meetsDraftRules('meta_description', 'A description that trails off…'), false);
    assert.equal(meetsDraftRules('meta_description', 'A description that ends as a sentence.'), true);
    assert.equal(meetsDraftRules('title', 'Using mod_rewrite to'), false);
  });
});

describe('the title writer', () => {
  const suffix = ' - Apache HTTP Server Version 2.4';
  it('keeps the topic whole: shortens the site suffix, then drops it, before cutting the topic', () => {
    assert.equal(text(writeTitle(page([], { h1: 'Handmade oak tables' }), ' | Oak & Co', new Set())), 'Handmade oak tables | Oak & Co');
    assert.equal(text(writeTitle(page([], { h1: 'Using mod_rewrite to control access' }), suffix, new Set())), 'Using mod_rewrite to control access', 'no " - Apache HTTP Server": it names no release');
    assert.equal(text(writeTitle(page([], { h1: 'Apache Tutorial: Introduction to Server Side Includes' }), suffix, new Set())), 'Apache Tutorial: Introduction to Server Side Includes');
    const turkish = page([], { h1: 'Apache HTTPd\'nin başlatılması', title: '' });
    assert.equal(text(writeTitle(turkish, ' - Apache HTTP Sunucusu Sürüm 2.4', new Set())), 'Apache HTTPd\'nin başlatılması', 'no "Sürüm" left hanging, nor the server without its release');
  });

  it('never ends on a dangling word or sign when the topic itself must be cut', () => {
    const long = page([], { h1: 'Everything you ever wanted to know about pruning roses in a small garden' });
    const draft = text(writeTitle(long, ' – Garden Shop', new Set()))!;
    assert.equal(draft, 'Everything you ever wanted to know about pruning roses');
    for (const dangling of ['Using mod_rewrite to', 'The Apache License, Version -', 'Apache HTTP Server Version 2.', 'Guide of the']) assert.ok(endsDangling(dangling), dangling);
    assert.ok(!endsDangling('Handmade oak tables'));
  });

  it('keeps a suffix the CMS theme prints itself, cutting the topic to fit beside it', () => {
    const long = page([], { h1: 'Everything you ever wanted to know about pruning roses in a small garden' });
    assert.equal(text(writeTitle(long, ' – Garden Shop', new Set(), { suffixFixed: true })), 'Everything you ever wanted to know – Garden Shop');
    assert.equal(text(writeTitle(page([], { h1: 'Pruning roses in winter' }), ' – Garden Shop', new Set(), { suffixFixed: true })), 'Pruning roses in winter – Garden Shop');
  });

  it('does not take a numbered section heading or the site name as the topic', () => {
    const sqlite = page([], { h1: '1. Overview', title: 'The SELECT statement: how SQLite reads the rows of tables, views and subqueries' });
    assert.match(text(writeTitle(sqlite, '', new Set()))!, /^The SELECT statement/, 'from the title, not the numbered h1 "Overview"');
    assert.match(reason(writeTitle(page([], { h1: '1. Overview', title: 'The SELECT statement' }), '', new Set()))!, /already used/, 'the title it has is no fix');
    const header = page([], { h1: 'Apache HTTP Server', title: 'Apache Tutorial: .htaccess files - Apache HTTP Server Version 2.4' });
    assert.equal(text(writeTitle(header, suffix, new Set())), 'Apache Tutorial: .htaccess files');
  });

  it('takes a manual page\'s name line over a heading that is only the name', () => {
    const man = page(['git-bundle - Move objects and refs by archive', 'Some workflows require that one or more branches be moved.'], { h1: 'git-bundle(1) Manual Page', title: 'git-bundle(1)' });
    assert.equal(text(writeTitle(man, '', new Set())), 'git-bundle - Move objects and refs by archive');
  });

  it('on a landing page, never trades the page\'s name for a tagline heading, and never names the site twice', () => {
    const landing = (h1: string, title: string) => page([], { h1, title });
    assert.match(reason(writeTitle(landing('Work smarter, not harder 🚀', 'Features | Ledgerly'), ' | Ledgerly', new Set()))!, /says nothing of what its title names \("Features"\)/);
    assert.match(reason(writeTitle(landing('We’re on a mission to make accounting invisible', 'About us | Ledgerly'), ' | Ledgerly', new Set()))!, /slogan/);
    // (A heading that says the page's name is its topic, and one over a placeholder title too.)
    assert.match(reason(writeTitle(landing('Simple, honest pricing', 'Pricing | Ledgerly'), ' | Ledgerly', new Set()))!, /adds only praise/);
    assert.equal(text(writeTitle(landing('Pricing plans for small businesses', 'Pricing | Ledgerly'), ' | Ledgerly', new Set())), 'Pricing plans for small businesses | Ledgerly');
    assert.equal(text(writeTitle(landing('Accounting made for you', 'Untitled'), ' | Ledgerly', new Set())), 'Accounting made for you | Ledgerly');
    assert.equal(text(writeTitle(landing('Handmade oak dining tables', 'Shop | Oak & Co'), ' | Oak & Co', new Set())), 'Handmade oak dining tables | Oak & Co', 'no tagline: the heading names the page better');
    // (An article's headline is its topic whatever its title says.)
    assert.equal(text(writeTitle({ ...landing('You won’t believe these 12 gadgets', 'Gadgets | Wired'), article: true }, ' | Wired', new Set())), 'You won’t believe these 12 gadgets | Wired');
    assert.equal(text(writeTitle(landing('Security at Ledgerly', 'Security | Ledgerly'), ' | Ledgerly', new Set())), 'Security at Ledgerly');
    assert.match(reason(writeTitle(landing('Security at Ledgerly', 'Security | Ledgerly'), ' | Ledgerly', new Set(), { suffixFixed: true }))!, /show the name twice/);
  });

  it('refuses with the reason when nothing fits', () => {
    assert.match(reason(writeTitle(page([], { h1: 'FAQ' }), '', new Set()))!, /under 20 characters/);
    assert.match(reason(writeTitle(content, ' | Oak & Co', new Set(['handmade oak tables | oak & co', 'handmade oak tables'])))!, /already used/);
  });

  it('find the suffix most titles share, separator included', () => {
    assert.equal(siteSuffixOf(['Tables | Oak & Co', 'Chairs | Oak & Co', 'About – Oak & Co', 'Home']), ' | Oak & Co');
    assert.equal(siteSuffixOf(['Tables | Oak & Co', 'Home']), '', 'one title is no pattern');
    const untranslated = ['10.5. Genius Ideas - what you could do', '10.5. Genius Ideas - what you could do', '10.5. Genius Ideas - what you could do', 'Chairs | Oak & Co', 'Tables | Oak & Co'];
    assert.equal(siteSuffixOf(untranslated), ' | Oak & Co', 'one heading copied into three languages is one topic, not the site\'s name');
  });
});

describe('the h1 writer', () => {
  it('draft an h1 from the title without the site suffix', () => {
    assert.equal(writeH1(readPageContent('<title>Oak chairs | Oak & Co</title>'), ' | Oak & Co'), 'Oak chairs');
    assert.equal(writeH1(readPageContent('<title></title>'), ''), undefined);
  });
});
