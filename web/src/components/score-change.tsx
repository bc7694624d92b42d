import { api, unwrap } from '../api/client.ts';
import { scoreChangeNote } from '../lib/score-change.ts';
import { useAsync } from './ui.tsx';

/**
 * Under an audit's "Since the last audit": why the score went the other way than its new and fixed issues, from the
 * score of the audit before it (the site's score history); nothing when they agree or there is no audit before.
 */
export function ScoreChangeNote({ siteId, audit }: { siteId: string; audit: { id: string; score: number | null; new_issues: number | null; fixed_issues: number | null; pages_crawled: number } }) {
  const progress = useAsync(async () => (audit.new_issues === null ? undefined : unwrap(await api.GET('/api/v1/sites/{site_id}/progress', { params: { path: { site_id: siteId } } }))), [siteId, audit.id]);
  const history = progress.data?.score_history.filter((h) => h.score !== null) ?? [];
  const at = history.findIndex((h) => h.audit_id === audit.id);
  const note = at > 0 ? scoreChangeNote({ score: audit.score, previousScore: history[at - 1]!.score, newIssues: audit.new_issues, fixedIssues: audit.fixed_issues, pagesCrawled: audit.pages_crawled }) : undefined;
  return note ? <p class="score-change muted small">{note}</p> : null;
}
