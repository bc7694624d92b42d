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
const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
/** How the score is computed, in a site owner's words: the share of the site a problem covers, not a count of issues. */
const RULE = 'The score weighs each problem by its severity and by how much of the site it affects, not by the number of issues.';

/** The sentence under "Since the last audit" when the score went the other way than its counts; undefined when they agree. */
export function scoreChangeNote(a: ScoreChangeInput): string | undefined {
  const { score, previousScore: before, newIssues: added, fixedIssues: fixed } = a;
  if (score === null || before === null || before === undefined || added === null || fixed === null || score === before) return undefined;
  const pages = `${a.pagesCrawled} ${a.pagesCrawled === 1 ? 'page' : 'pages'}`;
  if (score > before && added > fixed) {
    const up = `Up ${points(score - before)} from ${before}`;
    // Nothing fixed: every check affects at least the pages it did, so only a larger crawl can have made their shares smaller.
    if (fixed === 0) return `${up} with nothing fixed: this audit analysed more pages (${pages}), so the same problems cover a smaller share of the site. ${RULE}`;
    return `${up} with more new issues than fixed: the ${issues(fixed, 'fixed')} weighed more than the ${added} new (fixed on more severe checks, or new ones on minor checks), or this audit analysed more pages (${pages}), so each problem covers a smaller share of the site. ${RULE}`;
  }
  if (score < before && fixed > added) {
    const down = `Down ${points(before - score)} from ${before}`;
    if (added === 0) return `${down} with nothing new: this audit analysed fewer pages (${pages}), so the problems still open cover a larger share of the site. ${RULE}`;
    return `${down} with more issues fixed than new: the ${issues(added, 'new')} weighed more than the ${fixed} fixed (on more severe checks), or this audit analysed fewer pages (${pages}), so each problem covers a larger share of the site. ${RULE}`;
  }
  return undefined;
}
