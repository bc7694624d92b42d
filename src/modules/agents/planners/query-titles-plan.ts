import type { ExpectedClicks } from '../../search-data/expected-clicks.ts';
import { holdsQuery, topicWordsOf } from '../../../lib/query-words.ts';
import { titleForQuery, type QueryPage } from '../query-titles.ts';

/** A query a page's new title could be written around (a quick win, or the top query of a page searchers skip). */
export interface TitleCandidate {
  type: 'prioritize_quick_wins' | 'optimize_title_tag';
  query: string;
  url: string;
  expected: ExpectedClicks;
}

export type TitlePlan =
  | { kind: 'title'; candidate: TitleCandidate; before: string; after: string; kept: string; alsoServes: TitleCandidate[] }
  /** The title already says the query: what is missing is elsewhere (links, the opening). */
  | { kind: 'elsewhere'; candidate: TitleCandidate }
  | { kind: 'refused'; candidate: TitleCandidate; reason: string };

const clicksInWords = (e: ExpectedClicks) => `about +${e.clicks} clicks / 28 days`;

/**
 * One title per page: the candidates of every page, the one worth most expected clicks
 * first. The first whose title can be written wins the page; a later query the winning title
 * already says is served by the same proposal; any other is refused with the reason (the
 * larger gain won, one title cannot read naturally for both). A query the current title
 * already says is never proposed as a title again, and a title that would stop saying a
 * query that brings more clicks now than the new one is expected to add is refused.
 */
export function planTitles(
  candidates: readonly TitleCandidate[],
  pageOf: (url: string) => QueryPage | undefined,
  /** The queries a page brings clicks for now (28 days): a new title must not drop one worth more than it gains. */
  queriesOf: (url: string) => ReadonlyArray<{ query: string; clicks: number }> = () => [],
): TitlePlan[] {
  const plans: TitlePlan[] = [];
  const won = new Map<string, Extract<TitlePlan, { kind: 'title' }>>();
  const sorted = [...candidates].sort((a, b) => b.expected.clicks - a.expected.clicks || a.query.localeCompare(b.query));
  for (const candidate of sorted) {
    const page = pageOf(candidate.url);
    if (!page) {
      plans.push({ kind: 'refused', candidate, reason: `${candidate.url} was not in the latest audit: its title is not known (audit the site)` });
      continue;
    }
    if (topicWordsOf(candidate.query).length === 0) {
      plans.push({ kind: 'refused', candidate, reason: `"${candidate.query}" has no word of a topic to put in a title` });
      continue;
    }
    if (holdsQuery(page.title, candidate.query)) {
      plans.push({ kind: 'elsewhere', candidate });
      continue;
    }
    const winner = won.get(candidate.url);
    // The same query seen twice (the top query of a page searchers skip, and a quick win): the winner's title is for it already.
    if (winner?.candidate.query === candidate.query) continue;
    if (winner && holdsQuery(winner.after, candidate.query)) {
      winner.alsoServes.push(candidate);
      continue;
    }
    // Its own title first: a query no honest title can carry is refused for that, not for losing the page.
    const drafted = titleForQuery(candidate.query, page);
    if ('refused' in drafted) {
      plans.push({ kind: 'refused', candidate, reason: drafted.refused });
      continue;
    }
    if (winner) {
      plans.push({
        kind: 'refused', candidate,
        reason: `the title of ${candidate.url} is proposed for "${winner.candidate.query}" (${clicksInWords(winner.candidate.expected)}), which gains more; one title cannot read naturally for both`,
      });
      continue;
    }
    const lost = queriesOf(candidate.url).find((q) =>
      q.clicks >= candidate.expected.clicks && holdsQuery(page.title, q.query) && !holdsQuery(drafted.title, q.query));
    if (lost) {
      plans.push({ kind: 'refused', candidate, reason: `the new title would no longer say "${lost.query}", which brings ${lost.clicks} clicks in 28 days now, more than "${candidate.query}" is expected to add` });
      continue;
    }
    const plan = { kind: 'title' as const, candidate, before: page.title, after: drafted.title, kept: drafted.kept, alsoServes: [] };
    won.set(candidate.url, plan);
    plans.push(plan);
  }
  // A query the current title says, that the page's new title would no longer say: no brief for links to a title about to change.
  return plans.map((plan) => {
    const winner = plan.kind === 'elsewhere' ? won.get(plan.candidate.url) : undefined;
    return winner && !holdsQuery(winner.after, plan.candidate.query)
      ? { kind: 'refused', candidate: plan.candidate, reason: `the page's new title, proposed for "${winner.candidate.query}", would no longer say it` }
      : plan;
  });
}
