import { DESCRIPTION_MAX, DESCRIPTION_MIN } from '../../checks/page-checks.ts';
import { metadataRule } from '../../crawler/metadata-blocks.ts';
import type { SummarySource } from '../../crawler/page-summaries.ts';
import { displayWidth } from '../../../lib/strings.ts';
import { join, shorten } from '../description-writer.ts';
import { headlineText } from './names-headline.ts';
import { canOpen, readSentences } from './sentence-rules.ts';
import type { PageContent } from '../page-content.ts';
import { withoutLeadPrefix, withoutSiteName } from './lead-prefixes.ts';

/** Why one of the page's summaries was not used, by rule id (kept with the refusal when nothing else is drafted either). */
export interface SummaryRefusal {
  source: SummarySource;
  rule: 'summary_metadata' | 'summary_too_short' | 'summary_no_sentence' | 'summary_taken';
  detail: string;
}

const SOURCE_NAMES: Record<SummarySource, string> = { standfirst: 'standfirst', json_ld: 'JSON-LD description', og: 'og:description' };
export const summaryName = (source: SummarySource) => SOURCE_NAMES[source];

/**
 * The page's own summary as its description, the first that makes one: the standfirst its
 * readers see under the headline, then its JSON-LD description, then its og:description (the
 * order the crawl found them in: page-summaries.ts). Whole sentences from its start within
 * the limit, its first over the limit shortened at a clause boundary; the same sentence rules
 * as a lead (no byline, no call to action, no pointer elsewhere), and a summary written
 * without a final full stop gets one.
 */
export function draftFromSummaries(content: PageContent, taken: ReadonlySet<string>, pageWords: ReadonlySet<string>): { text: string; source: SummarySource } | { refusals: SummaryRefusal[] } {
  const refusals: SummaryRefusal[] = [];
  for (const [source, summary] of content.summaries ?? []) {
    let text = withoutLeadPrefix(withoutSiteName(summary).text, content.article === true).text;
    const metadata = metadataRule(text);
    if (metadata) {
      refusals.push({ source, rule: 'summary_metadata', detail: `it is a ${metadata.replace(/_/g, ' ')}` });
      continue;
    }
    // "It is up to them to de-escalate, as others should tell them": a standfirst often ends without its full stop. An og or
    // JSON-LD description without one is as often a CMS's excerpt cut at a word ("... for homeowners by"): it keeps its own end.
    if (source === 'standfirst' && /[\p{L}\p{N}"”’)]$/u.test(text) && text.split(/\s+/).length >= 4) text = `${text}.`;
    let draft = '';
    const sentences = readSentences(text, content.lang, pageWords, content.article === true);
    for (const [i, sentence] of sentences.entries()) {
      if (!sentence.usable || (i === 0 && !canOpen(sentence.text, true, content.lang))) break;
      const next = join(draft, sentence.text);
      if (displayWidth(next) > DESCRIPTION_MAX) {
        if (draft === '') draft = shorten(sentence.text, content.lang, headlineText(content), content.article === true) ?? '';
        break;
      }
      draft = next;
    }
    if (draft === '') {
      refusals.push({ source, rule: 'summary_no_sentence', detail: `it does not open with a sentence that stands on its own ("${summary.slice(0, 80)}")` });
      continue;
    }
    if (displayWidth(draft) < DESCRIPTION_MIN) {
      refusals.push({ source, rule: 'summary_too_short', detail: `it says ${displayWidth(draft)} characters, under ${DESCRIPTION_MIN}` });
      continue;
    }
    if (taken.has(draft.toLowerCase())) {
      refusals.push({ source, rule: 'summary_taken', detail: 'another page of the site has it as its description' });
      continue;
    }
    return { text: draft, source };
  }
  return { refusals };
}
