import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLAUSE_CUTS, closed, shortenSentence, SUBORDINATE_ALONE } from './shorten.ts';

describe('a long sentence shortened as an editor shortens it', () => {
  for (const cut of CLAUSE_CUTS) {
    it(`${cut.id}: its example gives its result, its counter-example gives nothing`, () => {
      assert.ok(cut.variants(cut.example).includes(cut.result), `${cut.example} -> ${JSON.stringify(cut.variants(cut.example))}`);
      assert.deepEqual(cut.variants(cut.counterExample), []);
    });
  }

  it('keeps the most of a real news lead that fits (the longest form within the limit)', () => {
    const cases: Array<[string, string]> = [
      ['Three people have died during protests in Bolivia against the self-declared “interim” government that ousted Evo Morales, after violent clashes erupted between the socialist leader’s supporters and security forces.',
        'Three people have died during protests in Bolivia against the self-declared “interim” government that ousted Evo Morales.'],
      ['Kurt Volker, the former special envoy to Ukraine, and Tim Morrison, a former National Security Council official, testified side-by-side before the House Intelligence Committee Tuesday about the events at the center of the impeachment inquiry.',
        'Kurt Volker and Tim Morrison testified side-by-side before the House Intelligence Committee Tuesday about the events at the center of the impeachment inquiry.'],
      ['Two hostages — an American and an Australian — who had been held by the Taliban in Afghanistan since 2016 were released Tuesday in a prisoner swap for three high-ranking insurgents.',
        'Two hostages who had been held by the Taliban in Afghanistan since 2016 were released Tuesday in a prisoner swap for three high-ranking insurgents.'],
    ];
    for (const [sentence, expected] of cases) assert.equal(shortenSentence(sentence, 50, 160)?.text, expected);
  });

  it('keeps a concession that weighs the news: without it the story says more than it does', () => {
    const lead = 'Three cases of plague have been diagnosed in China, sparking widespread fears about the spread of the disease, though officials say the risk of an outbreak is low.';
    assert.equal(shortenSentence(lead, 50, 160, 'en', 'Three Cases of Plague Diagnosed in China')?.text,
      'Three cases of plague have been diagnosed in China, though officials say the risk of an outbreak is low.');
    assert.equal(shortenSentence('The company reported record sales of its new phone across Europe and Asia in the third quarter of the year, although analysts expect a slowdown in the months to come.', 50, 160)?.text,
      undefined, 'the concession is not cut to make the sentence fit');
  });

  it('never cuts inside an aside between dashes, nor leaves a subject without its verb', () => {
    assert.equal(shortenSentence('Emirates President Tim Clark, meanwhile, told reporters at a press conference that the airline — the largest international carrier in the world — would restart its plans to expand by the early 2020s.', 50, 160)?.text.includes('— the largest'), false);
    // (Its " as ..." clause, a subject and verb of its own, goes: the main clause stays whole.)
    assert.equal(shortenSentence('Sondland’s appearance at Wednesday morning’s hearing, and his closeness to Trump, is of particular concern to the White House as the historic impeachment inquiry reaches closer to the president.', 50, 160)?.text,
      'Sondland’s appearance at Wednesday morning’s hearing, and his closeness to Trump, is of particular concern to the White House.');
    assert.equal(shortenSentence('Sondland’s appearance at Wednesday morning’s hearing, and his closeness to Trump, is of particular concern to the White House now that the historic impeachment inquiry reaches closer to the president.', 50, 160)?.text, undefined);
  });

  it('cuts what a sentence adds to its story only with the headline, keeping the names it shares with it', () => {
    const lead = 'Two federal prison officers were charged Tuesday with falsifying records, stating they had checked on accused sex trafficker Jeffrey Epstein in the hours before he hanged himself in his Manhattan cell.';
    assert.equal(shortenSentence(lead, 50, 160)?.text, undefined, 'no headline: nothing that may be the story is cut');
    assert.equal(shortenSentence(lead, 50, 160, 'en', 'Prison guards charged in connection with Jeffrey Epstein\'s death')?.text,
      'Two federal prison officers were charged Tuesday with falsifying records, stating they had checked on accused sex trafficker Jeffrey Epstein.');
    assert.equal(shortenSentence(lead, 50, 160, 'en', 'Federal prison officers in Manhattan charged')?.text, undefined, 'the cut would drop "Manhattan", a name the headline has');
    assert.equal(shortenSentence('Photos which were released online and are making the rounds on social media, show Nigerian actress, Kate Henshaw, looking absolutely stunning in new make-up photos.', 50, 160, 'en', 'Nollywood Actress, Kate Henshaw Is Looking Stunning In New Photos')?.text,
      'Photos which were released online and are making the rounds on social media, show Nigerian actress, Kate Henshaw, looking stunning in new make-up photos.',
      'not at the comma that closes an appositive (only the intensifier goes)');
  });

  it('shortens leads in the other languages sites are written in, and says how a thing was done only after what was done', () => {
    assert.equal(shortenSentence('Die Digitalisierung zieht sich bereits heute durch fast alle Branchen und Anwendungsgebiete unserer Wirtschaft und Gesellschaft, sei es im Finanzbereich, der Industrie oder eben auch im Bereich Healthcare.', 50, 140, 'de')?.text,
      'Die Digitalisierung zieht sich bereits heute durch fast alle Branchen und Anwendungsgebiete unserer Wirtschaft und Gesellschaft.');
    assert.equal(shortenSentence('È stato annunciato che Netflix, il servizio di streaming a pagamento, ospiterà il remake della serie animata cult degli anni ottanta, prodotta da Toei Animation sulla base del manga originale.', 50, 120, 'it', 'Remake della serie animata per Netflix')?.text,
      'È stato annunciato che Netflix ospiterà il remake della serie animata cult degli anni ottanta.');
    assert.equal(shortenSentence('In July 2018, we recommended a $5.1 million grant to Evidence Action Beta to create a program dedicated to developing potential GiveWell top charities by prototyping, testing, and scaling programs which have the potential to be highly impactful and cost-effective.', 50, 160, 'en', 'A grant to Evidence Action Beta to prototype, test, and scale promising programs - The GiveWell Blog')?.text,
      'In July 2018, we recommended a $5.1 million grant to Evidence Action Beta to create a program dedicated to developing potential GiveWell top charities.');
  });

  it('keeps an attribution inside a sentence, cutting what the event was taken for instead', () => {
    assert.equal(shortenSentence('President Donald Trump, according to the White House, made an unscheduled trip to Walter Reed hospital on Saturday for a "quick exam and labs" as the first stage of his annual physical.', 50, 160, 'en', 'Why you just can\'t trust the White House on Donald Trump\'s health')?.text,
      'President Donald Trump, according to the White House, made an unscheduled trip to Walter Reed hospital on Saturday for a "quick exam and labs".');
  });

  it('drops a list\'s middle items only from a list of one kind that opens or ends its sentence', () => {
    const variants = (sentence: string) => CLAUSE_CUTS.find((c) => c.id === 'list_items')!.variants(sentence);
    assert.ok(variants('New electric vehicles, several new small SUVs, a redesigned compact car, a plug-in version of Toyota’s top-selling vehicle and a futuristic electric station wagon concept car from Volkswagen are among the new models on display at the Los Angeles Auto Show.')
      .includes('New electric vehicles and a futuristic electric station wagon concept car from Volkswagen are among the new models on display at the Los Angeles Auto Show.'));
    assert.deepEqual(variants('New York, NY – With content engagement migrating to mobile devices, my6sense, a comprehensive, white label programmatic native ad platform and exchange, is adding Ivan Braiker as its first Chief Strategy Officer.'), [],
      'a list inside an aside (coordinate adjectives) is no subject list');
    assert.deepEqual(variants('My6sense, a comprehensive, white label programmatic native ad platform and exchange, is adding Ivan Braiker as its first Chief Strategy Officer.'), [],
      'nor once the aside opens the sentence: a comma closes it before the verb');
    assert.deepEqual(variants('Northbound is a family-run roaster in Duluth, Minnesota, buying green coffee directly from growers we know by name and roasting it in small batches every week.'), [],
      'items of other kinds (a place, a participle) are no list');
    assert.deepEqual(variants('He lives in Oslo, Norway, working as a carpenter and teaching at night.'), [], 'nor a place and two participles ("He lives in Oslo and teaching at night")');
    assert.deepEqual(variants('The shop sells apples, pears, plums and cherries from its own orchards, and it ships them overnight to every state.'), [],
      'a list in the middle of its sentence stays whole');
    assert.deepEqual(variants('The kit includes a bypass pruner, with hardened steel blades, a folding saw, a holster and gloves for the whole season.'), [],
      'a phrase that goes with the item before it is no first item ("a bypass pruner, with hardened steel blades and gloves")');
    assert.deepEqual(variants('The app is available in four languages: English, French, German and Spanish.'), [], 'a counted list is all of them');
    assert.deepEqual(variants('Flights to the island run on Mondays, Wednesdays, Fridays and Sundays from March.'), [], 'days are a whole');
    assert.deepEqual(variants('Apple, Google, Meta and Amazon together spent more than a billion dollars on lobbying.'), [], 'items together are one');
  });

  it('drops an aside with the writer\'s pause after it, and never leaves the pause alone', () => {
    const lead = 'Taylor Swift might not be able to perform all of her hits due to a legal dispute with Scooter Braun (which owns her former record label, Big Machine) ... and private equity giant The Carlyle Group.';
    assert.equal(shortenSentence(lead, 50, 160)?.text, 'Taylor Swift might not be able to perform all of her hits due to a legal dispute with Scooter Braun and private equity giant The Carlyle Group.');
  });

  it('drops an appositive whose adjectives a comma joins only before the sentence\'s verb, and keeps a lower-case name\'s case', () => {
    const lead = 'With content engagement migrating from desktop to mobile devices, my6sense, a comprehensive, white label programmatic native ad platform and exchange, is adding mobile marketing pioneer Ivan Braiker as the company’s first Chief Strategy Officer.';
    assert.equal(shortenSentence(lead, 50, 160)?.text, 'my6sense is adding mobile marketing pioneer Ivan Braiker as the company’s first Chief Strategy Officer.');
    // (Not a clause the sentence goes on after: "testified before the committee" is Volker's, not an aside.)
    const clause = 'Kurt Volker, a diplomat, testified before the committee, officials of the House Intelligence Committee said late last night in a statement released to reporters in Washington.';
    assert.doesNotMatch(shortenSentence(clause, 50, 160)?.text ?? '', /^Kurt Volker officials/u);
  });

  it('keeps a qualification the sentence\'s claim needs', () => {
    assert.equal(shortenSentence('PL/Tcl offers most of the capabilities a function writer has in the C language, with a few restrictions, and adds the powerful string processing libraries of Tcl.', 50, 120), undefined,
      'cut at ", with a few restrictions" it would claim more than the manual does');
  });

  it('keeps an age among several, a name\'s "of", a quotation\'s words, and never leaves a subordinate clause alone', () => {
    const cut = (id: string, sentence: string) => CLAUSE_CUTS.find((c) => c.id === id)!.variants(sentence);
    assert.deepEqual(cut('age_aside', 'John Smith, 42, Mary Jones, 38, were charged with fraud at the county court.'), []);
    assert.deepEqual(cut('age_aside', 'Support for Windows XP, 7, Vista and 10 ends with the next release.'), []);
    assert.deepEqual(cut('country_abbreviation', 'The United States of America signed the treaty in 1947.'), []);
    assert.deepEqual(cut('country_abbreviation', '“The United States will not back down,” the senator said of the trade talks.'), []);
    assert.equal(SUBORDINATE_ALONE.test('When advisers suggested that Beijing buy 20,000 tons of soybeans.'), true);
    assert.equal(SUBORDINATE_ALONE.test('Since 2010 the firm has opened 40 stores across the country.'), false);
  });

  it('off an article, cuts what a sentence adds after saying who or what the page is about; on an article only with the headline', () => {
    const about = 'Northbound Coffee Roasters is a family-run specialty roaster in Duluth, Minnesota, buying green coffee directly from growers we know by name and roasting it in small batches every week.';
    assert.equal(shortenSentence(about, 50, 160, 'en', 'Our story', false)?.text, 'Northbound Coffee Roasters is a family-run specialty roaster in Duluth, Minnesota.');
    assert.equal(shortenSentence(about, 50, 160, 'en', 'Our story', true)?.text, undefined, 'on an article the clause may be the news');
  });

  it('never leaves a quotation, a bracket or a pair of dashes open, nor a sentence of a few words', () => {
    assert.equal(closed('“A cause for serious concern is the situation in southern Syria.'), false);
    assert.equal(closed('He said “no” twice (and meant it).'), true);
    assert.equal(closed('This includes both the useful space.'), false, 'a "both" whose "and" was cut');
    assert.equal(closed('It keeps both the data and its index in one file.'), true);
    assert.equal(shortenSentence('Two hostages were released, after a long wait in the mountains of the east of the country.', 10, 40), undefined);
  });
});
