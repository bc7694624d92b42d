import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageContent } from '../page-content.ts';
import { isCommonWord } from './common-words.ts';
import { composeDescription, GENERIC_SECTIONS, itemRule, listedEntries, NOT_AN_ITEM } from './compose.ts';
import { writeMetaDescription } from './description.ts';

/** A page of headings and short lines, as the crawl stores it: `order` says where each heading and block stands. */
function page(title: string, blocks: Array<[string, string]>, extra: Partial<PageContent> = {}): PageContent {
  const headings = blocks.filter(([kind]) => kind >= '1' && kind <= '6').map(([kind, text]) => ({ level: Number(kind), text }));
  return {
    title, h1: headings.find((h) => h.level === 1)?.text ?? '', headings, lang: 'en-US',
    paragraphs: blocks.filter(([kind]) => !(kind >= '1' && kind <= '6')).map(([, text]) => text),
    order: blocks.map(([kind]) => kind).join(''), ...extra,
  };
}
const services = (titleOf = 'Services — BrightSmile Dental', extra: Partial<PageContent> = {}) => page(titleOf, [
  ['1', 'Our Services'], ['p', 'Everything your smile needs, all under one roof.'],
  ['3', 'General Dentistry'], ['p', 'Exams, digital X-rays and cleanings.'], ['3', 'Teeth Whitening'], ['p', 'Up to 8 shades brighter.'],
  ['3', 'Implants'], ['p', 'Permanent tooth replacement.'], ['3', 'Emergency Care'], ['p', 'Same-day appointments.'],
  ['2', 'Not sure what you need?'], ['p', 'Call us.'],
], extra);
const text = (draft: ReturnType<typeof composeDescription>) => draft?.text;

describe('a description composed from what a page lists', () => {
  for (const rule of NOT_AN_ITEM) {
    it(`${rule.id}: refuses its example as an item, and takes its counter-example`, () => {
      assert.equal(itemRule(rule.example), rule.id);
      assert.equal(itemRule(rule.counterExample), undefined);
    });
  }
  it(`${GENERIC_SECTIONS.id}: a shop's tab is no offering, a service is`, () => {
    assert.ok(GENERIC_SECTIONS.names.has(GENERIC_SECTIONS.example.toLowerCase()));
    assert.ok(!GENERIC_SECTIONS.names.has(GENERIC_SECTIONS.counterExample.toLowerCase()));
  });

  it('names the page and its site ("BrightSmile Dental services", not "Services at"), then its sections in order, joined as English joins a list', () => {
    assert.deepEqual(composeDescription(services(), 'https://brightsmile.example/services'), {
      text: 'BrightSmile Dental services: general dentistry, teeth whitening, implants, and emergency care.', from: 'sections',
    });
  });

  it('is what the writer proposes when the lead is only a slogan, and says where it came from', () => {
    const draft = writeMetaDescription(services(), new Set(), 'https://brightsmile.example/services');
    assert.deepEqual(draft, { text: 'BrightSmile Dental services: general dentistry, teeth whitening, implants, and emergency care.', from: 'sections' });
    // (Already used on the site: refused as before, with the lead's reason.)
    const taken = writeMetaDescription(services(), new Set([draft && 'text' in draft ? draft.text.toLowerCase() : '']), 'https://brightsmile.example/services');
    assert.ok('reason' in taken && /under the 50/.test(taken.reason));
  });

  it('never on an article\'s story, a page of prose, nor one listing fewer than three offerings', () => {
    const story = services('Services — BrightSmile Dental', { article: true });
    story.paragraphs[1] = 'The practice added a second chair for emergencies this spring, after a winter in which patients with a broken tooth or a swollen jaw waited a week or more for care.';
    assert.equal(composeDescription(story, 'https://b.example/services'), undefined);
    // (A page WordPress marks as an article, og:type "article" on every page, but made of short lines is composed.)
    assert.ok(composeDescription(services('Services — BrightSmile Dental', { article: true }), 'https://b.example/services'));
    const prose = services();
    prose.paragraphs[0] = 'Our practice opened in 1998. '.repeat(45);
    assert.equal(composeDescription(prose, 'https://b.example/services'), undefined);
    const two = page('Contact — BrightSmile Dental', [['1', 'Contact'], ['2', 'Somerville'], ['l', 'Mon–Thu: 7am–7pm'], ['2', 'Cambridge'], ['2', 'Send us a message']]);
    assert.equal(composeDescription(two, 'https://b.example/contact'), undefined, '"Send us a message" asks, it offers nothing');
  });

  it('not when most of the headings at the level are no offerings (an about page\'s mottos)', () => {
    const mottos = page('Values — Ledgerly', [['1', 'What we believe'], ['2', 'Owners first'], ['2', 'Boring is good'], ['2', 'Earn trust daily'], ['2', 'Bank feeds']]);
    assert.equal(composeDescription(mottos, 'https://ledgerly.example/values'), undefined);
    const about = page('About us | Ledgerly', [['1', 'Our mission'], ['2', 'Owners first'], ['2', 'Invoicing'], ['2', 'Reports'], ['2', 'Bank feeds']]);
    assert.equal(composeDescription(about, 'https://ledgerly.example/about'), undefined);
  });

  it('a home page is named by its whole title; a French page sets its colon apart and says "et"', () => {
    const home = page('Cycles Rivière – Magasin et atelier vélo à Lyon', [
      ['1', 'Roulez mieux. Roulez plus loin.'], ['p', 'Le printemps est là, vos vélos aussi !'], ['2', 'Nos services'],
      ['3', 'Atelier agréé Bosch & Shimano'], ['3', 'Paiement en 3x sans frais'], ['3', 'Essai gratuit en magasin'],
    ], { lang: 'fr-FR' });
    assert.equal(text(composeDescription(home, 'https://bikeworks.example/')),
      'Cycles Rivière – Magasin et atelier vélo à Lyon\u00a0: atelier agréé Bosch & Shimano, paiement en 3x sans frais et essai gratuit en magasin.');
    // ("Home | ShiftBeacon" names the site alone.)
    const shifts = page('Home | ShiftBeacon', [['1', 'Rotas your team will read'], ['3', 'Drag-and-drop scheduling'], ['3', 'Shift swaps'], ['3', 'Payroll export']]);
    assert.equal(text(composeDescription(shifts, 'https://shiftbeacon.example/')), 'ShiftBeacon: drag-and-drop scheduling, shift swaps, and payroll export.');
    // (Under "Pourquoi Cycles Rivière ?", the same headings are the shop's perks, not what it offers.)
    const perks = { ...home, headings: home.headings.map((h) => (h.text === 'Nos services' ? { ...h, text: 'Pourquoi Cycles Rivière ?' } : h)) };
    assert.equal(composeDescription(perks, 'https://bikeworks.example/'), undefined);
    // (Without its address, which part of a title names the site is not known: the page's own part alone.)
    assert.match(text(composeDescription(services(), ''))!, /^Services: general dentistry/u);
  });

  it('keeps a name\'s capital in a list headed in sentence case: the page\'s prose writes it so', () => {
    const list = page('Integrations | Ledgerly', [['1', 'Integrations'], ['p', 'Ledgerly works with Stripe and with the bank you already use.'], ['2', 'Stripe payments'], ['2', 'Bank feeds'], ['2', 'Payroll sync']]);
    assert.equal(text(composeDescription(list, 'https://ledgerly.example/integrations')), 'Ledgerly integrations: Stripe payments, bank feeds, and payroll sync.');
  });

  it('a plan\'s price goes with its name, and the plans come before a later section\'s sentence', () => {
    const pricing = page('Pricing | Ledgerly', [
      ['1', 'Simple, honest pricing'], ['p', 'No setup fees. No surprises.'],
      ['3', 'Starter'], ['p', 'For freelancers'], ['p', '$12'], ['p', '/month'], ['l', '1 user'],
      ['3', 'Growth'], ['p', 'For small businesses'], ['p', '$29'], ['p', '/month'],
      ['3', 'Pro'], ['p', 'For teams'], ['p', '$59'], ['p', '/month'],
      ['2', 'Still deciding'], ['p', 'Our team answers every question about the plans within a day, by email or by phone.'],
    ]);
    assert.deepEqual(writeMetaDescription(pricing, new Set(), 'https://ledgerly.example/pricing'),
      { text: 'Ledgerly pricing: Starter ($12/month), Growth ($29/month), and Pro ($59/month).', from: 'sections' });
    // (Without the plans to compose from, the later section's sentence is still drafted.)
    const noPlans = { ...pricing, headings: pricing.headings.filter((h) => h.level !== 3), order: pricing.order!.replace(/3/gu, '') };
    assert.deepEqual(writeMetaDescription(noPlans, new Set(), 'https://ledgerly.example/pricing'),
      { text: 'Our team answers every question about the plans within a day, by email or by phone.', from: 'section' });
  });

  it('tells a common English word from a name by the dictionary: plurals, possessives and irregular plurals counted', () => {
    assert.deepEqual(['Dentistry', 'Crowns', 'Children’s', 'Teeth', 'Sarah', 'Invisalign', 'Rebrand'].map(isCommonWord), [true, true, true, true, false, false, false]);
  });

  it('writes a Title Case list\'s common words small in English, all or none: a list of names stays as written, on a page of people only', () => {
    const portfolio = page('Work – Noor Haddad Design', [['1', 'Selected work'], ['3', 'Tidewater Coffee Rebrand'], ['3', 'Harbor Arts Festival'], ['3', 'Olive & Ash Ceramics']]);
    // (A list of names says nothing of the page unless the page says whose they are: a portfolio's projects are refused, a team's composed.)
    assert.equal(composeDescription(portfolio, 'https://noor.example/work'), undefined);
    const people = page('Our people – Noor Haddad Design', [['1', 'Our people'], ['3', 'Noor Haddad'], ['3', 'Tomas Rebrand'], ['3', 'Olive Ashworth']]);
    assert.equal(text(composeDescription(people, 'https://noor.example/people')), 'Our people at Noor Haddad Design: Noor Haddad, Tomas Rebrand, and Olive Ashworth.');
    const brand = page('Services — BrightSmile Dental', [['1', 'Services'], ['3', 'Teeth Whitening'], ['3', 'Invisalign® Aligners'], ['3', 'Children’s Dentistry']]);
    assert.equal(text(composeDescription(brand, 'https://b.example/services')), 'BrightSmile Dental services: teeth whitening, Invisalign® aligners, and children’s dentistry.');
  });

  it('a product\'s bullets under its price, a team\'s names without their letters, a manual named without "at"', () => {
    const product = page('Cedar Raised Bed Kit – Greenhaven Garden Supply', [
      ['1', 'Cedar Raised Bed Kit'], ['p', '$219.00 $189.00'], ['l', 'Untreated western red cedar'], ['l', '4 ft × 8 ft × 11 in'], ['l', 'Tool-free assembly'], ['p', 'Only 4 left in stock'],
    ]);
    assert.deepEqual(composeDescription(product, 'https://garden.example/product/cedar'), {
      text: 'Cedar Raised Bed Kit at Greenhaven Garden Supply: untreated western red cedar, 4 ft × 8 ft × 11 in, and tool-free assembly.', from: 'list',
    });
    const team = page('Meet the Team — BrightSmile Dental', [['1', 'Meet the Team'], ['3', 'Dr. Sarah Chen, DMD'], ['3', 'Dr. Raj Patel, DDS'], ['3', 'Alicia Moreno, RDH'], ['3', 'Kevin O’Brien']]);
    assert.equal(text(composeDescription(team, 'https://b.example/team')), 'Meet the Team at BrightSmile Dental: Dr. Sarah Chen, Dr. Raj Patel, Alicia Moreno, and Kevin O’Brien.');
    const manual = page('Queues — Python 3.11 documentation', [['1', 'Queues'], ['2', 'Queue'], ['2', 'Priority Queue'], ['2', 'LIFO Queue'], ['2', 'Exceptions']]);
    assert.equal(text(composeDescription(manual, 'https://docs.example/queues')), 'Queues – Python 3.11 documentation: Queue, Priority Queue, and LIFO Queue.');
  });

  it('as many items as fit in 160 characters, saying there are more, and none when three do not', () => {
    const many = page('Features | Ledgerly', [['1', 'Features'], ...Array.from({ length: 12 }, (_, i): [string, string] => ['2', `Feature number ${i + 1} here`])]);
    const draft = text(composeDescription(many, 'https://ledgerly.example/features'))!;
    assert.ok(draft.length <= 160 && draft.startsWith('Ledgerly features: feature number 1 here, feature number 2 here') && draft.endsWith(', and more.'), draft);
    const long = page('Features | Ledgerly', [['1', 'Features'], ...Array.from({ length: 3 }, (_, i): [string, string] => ['2', `A rather long feature name ${'x'.repeat(16)} ${i}`])]);
    assert.equal(composeDescription(long, 'https://ledgerly.example/features'), undefined);
  });

  it('refuses the sentence under a list\'s first entry (an events page), not a manual\'s Description section', () => {
    const events = page('Events – Marlow Street Books', [
      ['1', 'Events'],
      ['3', 'An Evening with Helen Armitage — Thursday 11 April'], ['l', '19:00–20:30'], ['p', 'The Costa-shortlisted novelist reads from The Salt Year and talks with our manager Priya.'],
      ['3', 'Saturday Story Time: Dragons! — 20 April'], ['l', '10:30–11:15'], ['p', 'Picture books, puppets and a colouring table for ages 3–7.'],
      ['3', 'Poetry Open Mic Night — 2 May'], ['l', '19:30–21:30'], ['p', 'Five-minute slots, sign up on the night.'],
    ], { lang: 'en-GB' });
    const refused = writeMetaDescription(events, new Set(), 'https://books.example/events');
    assert.ok('rule' in refused && refused.rule === 'one_entry_of_many', JSON.stringify(refused));
    const manual = page('DROP USER – PostgreSQL 15 documentation', [
      ['2', 'DROP USER'], ['p', 'DROP USER — remove a database role'], ['2', 'Synopsis'], ['2', 'Description'],
      ['p', 'DROP USER is simply an alternate spelling of DROP ROLE, kept for the commands older scripts use.'], ['2', 'Compatibility'],
      ['p', 'The DROP USER statement is a PostgreSQL extension.'], ['2', 'See Also'], ['p', 'ALTER USER, CREATE USER'],
    ]);
    assert.equal(listedEntries(manual), undefined, 'a manual\'s parts are no entries ("See Also" is no call to act here)');
    // (Entries with nothing under them are a contents list, or past the crawl's budget: no list of entries.)
    assert.equal(listedEntries({ ...events, paragraphs: [], order: '1333' }), undefined);
  });

  it('a product\'s specifications as written, after its own name; never opening hours', () => {
    const coffee = page('Guatemala Huehuetenango – Northbound Coffee Roasters', [
      ['1', 'Guatemala Huehuetenango'], ['p', 'Meet your new morning ritual.'],
      ['l', 'Origin: Huehuetenango, Guatemala'], ['l', 'Producer: Finca La Esperanza'], ['l', 'Process: Washed'], ['l', 'Altitude: 1,750 m'],
    ]);
    assert.deepEqual(composeDescription(coffee, 'https://roastery.example/products/guatemala'), {
      text: 'Guatemala Huehuetenango – Origin: Huehuetenango, Guatemala; Producer: Finca La Esperanza; Process: Washed; Altitude: 1,750 m.', from: 'specs',
    });
    const hours = page('Contact – Northbound Coffee Roasters', [['1', 'Visit us'], ['l', 'Mon: 7am–6pm'], ['l', 'Sat: 8am–4pm'], ['l', 'Sun: 9am–2pm']]);
    assert.equal(composeDescription(hours, 'https://roastery.example/contact'), undefined);
  });

  it('from the code review: a services list under "Our Services", a Title Case button line, people, German, an unknown language', () => {
    const home = page('Home | BrightSmile Dental', [['1', 'Your smile, our passion'], ['p', 'Book Your Teeth Whitening Today'], ['2', 'Our Services'],
      ['3', 'General Dentistry'], ['3', 'Teeth Whitening'], ['3', 'Emergency Care']]);
    assert.equal(text(composeDescription(home, 'https://b.example/')), 'BrightSmile Dental: general dentistry, teeth whitening, and emergency care.');
    const team = page('Our team – Harbor Dental', [['1', 'Our team'], ['3', 'Dr. Rose Baker'], ['3', 'Dr. Mark Cook'], ['3', 'Grace Hunter']]);
    assert.equal(text(composeDescription(team, 'https://h.example/team')), 'Our team at Harbor Dental: Dr. Rose Baker, Dr. Mark Cook, and Grace Hunter.');
    const werkstatt = page('Leistungen – Radhaus Köln', [['1', 'Unsere Leistungen'], ['3', 'Reparatur aller Marken'], ['3', 'Inspektion mit Probefahrt'], ['3', 'Leasing über den Arbeitgeber']], { lang: 'de-DE' });
    assert.equal(text(composeDescription(werkstatt, 'https://radhaus.example/leistungen')), 'Leistungen bei Radhaus Köln: Reparatur aller Marken, Inspektion mit Probefahrt und Leasing über den Arbeitgeber.');
    assert.equal(composeDescription({ ...werkstatt, lang: 'pt-BR' }, 'https://radhaus.example/leistungen'), undefined, 'no words known for a list\'s end in Portuguese');
    assert.equal(itemRule('Father and Son Plumbing'), undefined);
    assert.equal(itemRule('Recettes créées maison'), undefined);
  });

  it('reads a reference page\'s lead as its lead when the draft names its subject ("This command" -> "EXPLAIN")', () => {
    const explain = page('EXPLAIN', [['1', 'EXPLAIN'], ['p', 'This command displays the execution plan that the PostgreSQL planner generates for the supplied statement.']]);
    assert.deepEqual(writeMetaDescription(explain, new Set(), 'https://docs.example/sql-explain'),
      { text: 'EXPLAIN displays the execution plan that the PostgreSQL planner generates for the supplied statement.' });
  });
});
