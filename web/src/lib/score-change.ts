// Why a health score moved against its issue counts ("35 new page issues · 0 fixed" beside a score that rose). The score
// (src/modules/checks/score.ts) is 100 × the product over the checks that fire of (1 − severity weight × √share), share
// being the part of the analysed pages a check affects (1 for a site-wide one): it counts no issues, it weighs checks by
// severity and by the share of the site they touch. A "page issue" (what new and fixed count) is one check on one URL.

export interface ScoreChangeInput {
  score: number | null;
  previousScore: number | null | undefined;
  newIssues: number | null;
  fixedIssues: number | null;
  pagesCrawled: number;
}

const issues = (n: number, kind: string) => `${n} ${kind} ${n === 1 ? 'issue' : 'issues'}`;
const RULE = 'The score weighs each failing check by its severity and by the share of the crawled pages it affects; it does not count issues.';

/** The sentence under "Since the last audit" when the score went the other way than its counts; undefined when they agree. */
export function scoreChangeNote(a: ScoreChangeInput): string | undefined {
  const { score, previousScore: before, newIssues: added, fixedIssues: fixed } = a;
  if (score === null || before === null || before === undefined || added === null || fixed === null || score === before) return undefined;
  const pages = `${a.pagesCrawled} ${a.pagesCrawled === 1 ? 'page' : 'pages'}`;
  if (score > before && added > fixed) {
    // Nothing fixed: every check affects at least the pages it did, so only a larger crawl can have made their shares smaller.
    if (fixed === 0) return `Why the score rose from ${before} with nothing fixed: ${RULE} No issue went away, so each check affects at least the pages it did; this audit analysed more pages (${pages}), and the same checks now touch a smaller share of the site.`;
    return `Why the score rose from ${before} with more new issues than fixed: ${RULE} The ${issues(fixed, 'fixed')} weighed more than the ${added} new (fixed on more severe checks, or new ones on minor checks), or this audit analysed more pages (${pages}), leaving each check a smaller share.`;
  }
  if (score < before && fixed > added) {
    if (added === 0) return `Why the score fell from ${before} with nothing new: ${RULE} No new issue appeared, so this audit analysed fewer pages (${pages}), and the checks still failing touch a larger share of the site.`;
    return `Why the score fell from ${before} with more issues fixed than new: ${RULE} The ${issues(added, 'new')} weighed more than the ${fixed} fixed (on more severe checks), or this audit analysed fewer pages (${pages}), leaving each check a larger share.`;
  }
  return undefined;
}
