import { api, unwrap } from '../api/client.ts';
import { FilterBar, SiteFilter, useFilters } from '../components/filters.tsx';
import { loadSites } from '../components/site-picker.tsx';
import { Async, Badge, Empty, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { actorName } from '../components/task-parts.tsx';
import { fieldName } from '../lib/risk.ts';
import { pathOf } from '../lib/diff.ts';
import { formatDate, formatRelative, humanize } from '../lib/format.ts';
import { useShownWorkspace } from '../lib/workspaces.ts';

const PAGE_SIZE = 25;

/** Every rollback of the user's sites, newest first: what was put back, by whom, when, and how it ended. */
export function RollbacksPage() {
  const { setFilter, site, page } = useFilters();
  const sites = useAsync(loadSites, []);
  const workspace = useShownWorkspace();
  const history = useAsync(async () => unwrap(await api.GET('/api/v1/cms/rollback/history', {
    // No site chosen: the top bar's workspace, if one is chosen.
    params: { query: { page, page_size: PAGE_SIZE, ...(site ? { site_id: site } : workspace ? { workspace_id: workspace.id } : {}) } },
  })), [site, workspace?.id, page]);
  const siteName = (id: string) => sites.data?.find((s) => s.id === id)?.name ?? '';

  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Rollback history</span>} subtitle="Every change put back on your sites, newest first, with what was restored and whether the live page shows it." actions={<a class="btn" href="/tasks">All tasks</a>} />
      <FilterBar id="rollback-filters" label="Filter rollbacks" active={site ? 1 : 0}>
        <SiteFilter sites={sites.data} value={site} onChange={(v) => setFilter('site', v)} />
      </FilterBar>
      <Async state={history} label="Loading the rollback history">
        {(result) => result.total === 0 ? (
          <Empty title={site ? 'No rollbacks on this site' : 'Nothing rolled back yet'}>
            <p>A completed task changed through a connector can be rolled back from its page; each rollback is listed here.</p>
          </Empty>
        ) : (
          <>
            <div class="table-wrap">
              <table class="table rollbacks-table stacked">
                <caption class="sr-only">Rollbacks</caption>
                <thead><tr><th scope="col">Task</th><th scope="col">Result</th><th scope="col">What was put back</th><th scope="col">Site</th><th scope="col">When</th></tr></thead>
                <tbody>
                  {result.items.map((r) => {
                    const notLive = (r.checks as Array<{ passed?: boolean }>).filter((c) => c.passed === false).length;
                    const error = r.error as { message?: string } | null;
                    return (
                      <tr>
                        <td data-label="Task"><a class="strong" href={`/tasks/${r.task_id}`}>{r.task_title}</a><div class="muted small">{humanize(r.task_type)} · by {actorName(r.actor)}</div></td>
                        <td data-label="Result">
                          <Badge value={r.status === 'restored' ? 'completed' : r.status === 'failed' ? 'failed' : 'in_progress'} label={r.status} />
                          {error?.message && <div class="muted small">{error.message}</div>}
                          {r.status === 'restored' && notLive > 0 && <div class="muted small">{notLive} check{notLive === 1 ? '' : 's'} not live yet (a page cache?)</div>}
                        </td>
                        <td data-label="What was put back">
                          {r.changes.length === 0 ? <span class="muted">nothing</span> : (
                            <ul class="plain-list">{r.changes.slice(0, 3).map((c) => <li>{fieldName(c.field)} of {pathOf(c.url)}</li>)}</ul>
                          )}
                          {r.changes.length > 3 && <div class="muted small">and {r.changes.length - 3} more</div>}
                        </td>
                        <td data-label="Site">{siteName(r.site_id)}</td>
                        <td data-label="When"><span title={formatDate(r.started_at, true)}>{formatRelative(r.started_at)}</span></td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pager page={result.page} pageSize={PAGE_SIZE} total={result.total} onPage={(p) => setFilter('page', String(p))} />
          </>
        )}
      </Async>
    </section>
  );
}
