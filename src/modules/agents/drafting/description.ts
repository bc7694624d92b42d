import type { Draft } from '../description-writer.ts';
import { draftFromLead, pageWordsOf } from '../description-writer.ts';
import type { PageContent } from '../page-content.ts';
import { draftFromSummaries, summaryName } from './own-summary.ts';

/**
 * A meta description for a page, as an editor writes one: the page's own summary when it has
 * one that makes a description (own-summary.ts), else the opening of its lead
 * (description-writer.ts). A refusal says why the lead gave none, and why each summary was not used.
 */
export function writeMetaDescription(content: PageContent, taken: ReadonlySet<string>): Draft {
  const own = draftFromSummaries(content, taken, pageWordsOf(content));
  if ('text' in own) return { text: own.text, from: own.source };
  const lead = draftFromLead(content, taken);
  if ('text' in lead || own.refusals.length === 0) return lead;
  const summaries = own.refusals.map((r) => `its ${summaryName(r.source)} was not used: ${r.detail}`).join('; ');
  return { reason: `${lead.reason}; ${summaries}`, ...(lead.rule ? { rule: lead.rule } : {}) };
}
