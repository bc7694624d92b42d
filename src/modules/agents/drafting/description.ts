import type { Draft } from '../description-writer.ts';
import { draftFromLead, pageWordsOf } from '../description-writer.ts';
import type { PageContent } from '../page-content.ts';
import { sentencesOf } from '../sentences.ts';
import { detectLanguage, languageName } from '../text-language.ts';
import { composeDescription, fromLead, listedEntries } from './compose.ts';
import { mended } from './mends.ts';
import { namesHeadline } from './names-headline.ts';
import { draftFromSummaries, summaryName } from './own-summary.ts';

/**
 * The language a page that declares English is written in, when it is another (a template's lang="en" on a German blog): its
 * main text, read by trigram statistics (a sentence's own check trusts English pages, where names and terms mislead statistics;
 * a page's whole text does not). Undefined for a page in English, one declaring another language, or too short to tell.
 */
function writtenInOtherThanEnglish(content: PageContent): string | undefined {
  if (!content.lang || !/^en\b/iu.test(content.lang)) return undefined;
  const found = detectLanguage(content.paragraphs.join(' ').slice(0, TEXT_READ));
  return found !== null && found !== 'en' ? found : undefined;
}
/** Characters of a page's text read to tell its language. */
const TEXT_READ = 1000;

/** An opening sentence under this many words that names nothing of the headline is a hook, not a summary. */
const HOOK_WORDS = 8;
// (The first sentence as the segmenter reads it: "U.S. stocks fell ..." and "Sen. Warren said ..." are not one word long.)
const wordsOfOpening = (text: string, lang: string | null) => (sentencesOf(text, lang)[0] ?? text).split(/\s+/u).length;

/**
 * A meta description for a page, as an editor writes one: the page's own summary when it has
 * one that makes a description (own-summary.ts), else the opening of its lead
 * (description-writer.ts), else, on a page that lists what it offers, one composed of its name and
 * that list (compose.ts; before a sentence from a later section too). A refusal says why the lead
 * gave none, and why each summary was not used. `url` tells a home page (its title names the site).
 */
export function writeMetaDescription(content: PageContent, taken: ReadonlySet<string>, url = ''): Draft {
  const draft = draftDescription(content, taken, url);
  if (!('text' in draft) || (content.lang !== null && !/^en\b/iu.test(content.lang))) return draft;
  // (Asked only of a page that gave a draft: the statistics cost about half a millisecond a page.)
  const written = writtenInOtherThanEnglish(content);
  if (written) {
    return { rule: 'foreign', reason: `the page declares English (<html lang="${content.lang}">) but is written in ${languageName(written)}: a description in either language would be wrong for one of them; declare the page's language (or translate it) first` };
  }
  // (An editor's mends of the page's slips, in English: "a 8-year-old" -> "an 8-year-old", mends.ts.)
  return { ...draft, text: mended(draft.text) };
}

function draftDescription(content: PageContent, taken: ReadonlySet<string>, url: string): Draft {
  const own = draftFromSummaries(content, taken, pageWordsOf(content));
  // A fact-check opens with the claim it checks ("Rep. McKinley says $53 million a week in drugs crosses the border"): drawn
  // from there, a description would state the claim as fact. Only its editors' summary says the verdict.
  if (content.factCheck) {
    return 'text' in own ? { text: own.text, from: own.source }
      : { rule: 'fact_check', reason: 'the page is a fact-check (ClaimReview): its opening states the claim it checks, and a description drawn from it would state the claim as fact; write one that gives the verdict' };
  }
  // A standfirst that does not name what its headline is about ("The suspect confessed and the jury took just 15 minutes")
  // is written to be read under that headline; in a search result the lead says more, when it makes a description. Not a
  // lead that names the headline no better and opens with a few words ("Gaming used to be so simple.": a feature's hook,
  // where the standfirst says what the story is).
  if ('text' in own && own.source === 'standfirst' && !namesHeadline(own.text, content)) {
    const lead = draftFromLead(content, taken);
    if (!('text' in lead)) return { text: own.text, from: own.source };
    const hook = !namesHeadline(lead.text, content) && wordsOfOpening(lead.text, content.lang) < HOOK_WORDS;
    return hook ? { text: own.text, from: own.source } : { text: lead.text };
  }
  if ('text' in own) return { text: own.text, from: own.source };
  const lead = draftFromLead(content, taken);
  // (An article's lead is its story's, wherever its first usable paragraph stands.)
  if ('text' in lead && (content.article || fromLead(content, lead.text))) return lead;
  // A page whose prose says nothing (a slogan, a price) but whose sections or bullets name what it offers: composed from them.
  // (Before a sentence of a later section, which speaks for one part of the page: "Talk to our team and we'll help you pick the
  // right plan." under a pricing page's "Still deciding?", where its plans say what the page is.)
  const composed = composeDescription(content, url);
  if (composed && !taken.has(composed.text.toLowerCase())) return composed;
  // A page of like entries with no lead of its own (an events page): the sentence under its first entry describes that entry.
  const entries = 'text' in lead && !content.article ? listedEntries(content) : undefined;
  if (entries) {
    const named = entries.slice(0, 2).map((e) => `"${e.length > 60 ? `${e.slice(0, 59).trimEnd()}…` : e}"`).join(', ');
    return { rule: 'one_entry_of_many', reason: `the page lists ${entries.length} entries (${named}, …) and has no lead of its own: the sentence under the first describes that entry, not the page; write one that says what the page lists` };
  }
  // (Said as such to the reviewer: a section's paragraph, not the page's opening one.)
  if ('text' in lead) return { text: lead.text, from: 'section' };
  if (own.refusals.length === 0) return lead;
  const summaries = own.refusals.map((r) => `its ${summaryName(r.source)} was not used: ${r.detail}`).join('; ');
  return { reason: `${lead.reason}; ${summaries}`, ...(lead.rule ? { rule: lead.rule } : {}), ...(lead.tooLong ? { tooLong: lead.tooLong } : {}) };
}
