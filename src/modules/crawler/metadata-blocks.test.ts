import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { METADATA_BLOCKS, metadataRule } from './metadata-blocks.ts';

describe('blocks about an article, not of it', () => {
  for (const rule of METADATA_BLOCKS) {
    it(`${rule.id}: catches its example and lets its counter-example through`, () => {
      assert.equal(metadataRule(rule.example), rule.id, rule.example);
      assert.equal(metadataRule(rule.counterExample), undefined, rule.counterExample);
    });
  }

  it('takes a block mostly of addresses for a list of them, whatever its length, and not prose that cites one', () => {
    assert.equal(metadataRule('http://example.org/uploads/a.jpg 540 960 admin http://example.org/uploads/b.jpg 1200 675 admin'), 'addresses');
    assert.equal(metadataRule('The report (https://example.org/report.pdf) lists every school that closed in the county last winter, and why.'), undefined);
  });

  it('never takes a sentence of the article for metadata (the false positives a review found)', () => {
    for (const block of [
      'By Monday, the water had receded.', 'By Ford and GM standards, the car is small', 'Por Juan, todo cambió', 'Di Maio, il ministro, ha parlato',
      'Copyright law protects the expression of an idea', '(c) the tenant pays the deposit', 'Download the Authenticator app on your phone',
      'Get security updates automatically', '2023-05-01: Added support for exports', '10:30 Keynote in the main hall', '1.2.10 fixes the crash',
      'Affiliate links let bloggers earn a living', '3 weeks ago I started running every morning',
      'The parcel was delivered every morning to the wrong door, and the neighbours complained.',
      'Reporting by the BBC has shown that the minister knew.', 'Anna Smith is the editor who signed off on the story, the report found.',
      'Jamal Khashoggi is a Washington Post columnist who was killed in the consulate.', 'Three reporters contributed to this report. Their names were withheld.',
    ]) assert.equal(metadataRule(block), undefined, block);
  });

  it('takes a page\'s furniture alone in a block for what it is, never a sentence that uses the same words', () => {
    for (const block of ['Advertisement', 'Iklan', 'Image 3 of 12', 'Share on twitter', '%d bloggers like this:', 'MORE STORIES LIKE THIS ONE', '5:10 PM', 'Published 2 days ago'])
      assert.ok(metadataRule(block), block);
    for (const block of ['Close the valve before you start.', 'Advertisement revenue fell by a third last year.', 'The menu changes every week.'])
      assert.equal(metadataRule(block), undefined, block);
  });

  it('takes a date stamp with a few names beside it, in several languages, and never a sentence, a timeline entry or a quoted post', () => {
    for (const block of ['segunda-feira, 22 de janeiro de 2018 às 0:13', 'Brent Co November 20, 2019 12:32', 'Posted: Fri 6:45 PM, Feb 16, 2018 |',
      'by Regan September 15, 2014', 'The Associated Press Published Monday, November 18, 2019 8:22AM EST', 'Текст: Лида Буслаева·11 октября 2018',
      '기사입력 :[ 2018-09-28 17:32 ]', 'By Kashmira Gander On 11/13/19 at 4:00 PM EST', 'Posted on Maret 30, 2015 by Admin', 'smithsonian.com November 18, 2019',
      'Updated at 1:23 p.m.', '02 Ago 2017', 'Nov. 20, 2019Updated: Nov. 20, 2019 1:35 a.m.',
      'Veröffentlicht am: 20.11.2019', 'Publié le : 20 novembre 2019', 'Publicado em: 20/11/2019 às 10:30', 'Written by: Jane Doe, November 20, 2019',
      'Today at 1:23 p.m.', 'By Ann Sale, November 20, 2019'])
      assert.equal(metadataRule(block), 'date_stamp', block);
    for (const block of ['On November 3, 2020 Americans voted', 'The meeting on May 5 was short.', 'In May 2019 the river flooded.', '4:14 p.m.',
      '— Ilhan Omar (@Ilhan) November 19, 2019', '2023-05-01: Added support for exports', '10:30 Keynote in the main hall',
      // A version, a shop's hours, an event, an offer, a deadline: the page's own.
      'Version 1.2.10', 'Python 3.12.10', 'Firmware Version 2.10.15', 'Mon 10:00 - 18:00', 'Webinar: Tuesday, June 4, 2024 at 2:00 PM EST',
      'Release Date: November 20, 2019', 'Offer Ends November 30, 2024', 'Deadline: March 1, 2025', 'Kickoff: May 5, 2024', 'Today 10:00 - 18:00'])
      assert.equal(metadataRule(block), undefined, block);
  });

  it("takes a writer's note with a title in capitals or after 'the', a wire story's credits, and a site's comments policy", () => {
    for (const [block, id] of [
      ['Louise Matsakis is a Staff Writer at WIRED covering Amazon, security, and online platforms.', 'author_bio'],
      ['Jeff Foust (jeff@example.com) is the editor and publisher of The Space Review, and a senior staff writer with SpaceNews.', 'author_bio'],
      ['Reporting by Rodrigo Campos; additional reporting by Stephanie Kelly, Saqib Iqbal Ahmed and Gertrude Chavez-Dreyfuss; Editing by Nick Zieminski', 'reporting_credit'],
      ['(Reporting by Will Dunham; Editing by Tom Brown)', 'reporting_credit'], ['Keith Bradsher contributed reporting from Hong Kong.', 'reporting_credit'],
      ['Note: we are temporarily moderating all comments submitted to deal with a surge in spam.', 'comments_policy'],
      ['Please keep your comments respectful and on topic: comments are moderated.', 'comments_policy'],
      ['Jane Doe is the books editor for the Los Angeles Times.', 'author_bio'], ['Follow the Guardian on Twitter and Facebook.', 'follow_promo'],
    ] as const) assert.equal(metadataRule(block), id, block);
    // A help page's or a shop's own sentences: no writer's note, no comments policy, no invitation to follow.
    for (const block of ['Jane Doe is the author of three books on gardening, published by Penguin.', 'You can choose whether comments are moderated before they appear.',
      'Follow the steps on Facebook to verify your domain.', 'Follow these instructions in LinkedIn to add the badge.',
      'YouTube said comments that break its rules will be removed by moderators.'])
      assert.equal(metadataRule(block), undefined, block);
  });

  it('never takes a long block for metadata', () => {
    assert.equal(metadataRule(`By Bill Hoppe. ${'The game went on. '.repeat(12)}`), undefined);
  });
});
