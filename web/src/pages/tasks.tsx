import { useShownWorkspace } from '../lib/workspaces.ts';
import { CategoryFilter, FilterBar, SiteFilter, useFilters } from '../components/filters.tsx';
import { api, unwrap } from '../api/client.ts';
import { downloadFile } from '../api/download.ts';
import { ExportButton, useExport } from '../components/export-button.tsx';
import { loadSites } from '../components/site-picker.tsx';
import { Async, Badge, Empty, ErrorNotice, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { formatDate, formatRelative, humanize } from '../lib/format.ts';

const STATUSES = ['awaiting_approval', 'queued', 'in_progress', 'completed', 'failed', 'cancelled', 'rolled_back'] as const;
const PAGE_SIZE = 25;

/** Every task, whatever its state: where completed work is found again (to check or roll back). */
export function TasksPage() {
  const { query, setFilter, site, category, page } = useFilters();
  const status = (STATUSES as readonly string[]).includes(query.status ?? '') ? (query.status as (typeof STATUSES)[number]) : undefined;
  const sites = useAsync(loadSites, []);
  const workspace = useShownWorkspace();
  // No site chosen: the top bar's workspace, if one is chosen.
  const filters = { ...(site ? { site_id: site } : workspace ? { workspace_id: workspace.id } : {}), ...(status ? { status } : {}), ...(category ? { category } : {}) };
  const tasks = useAsync(async () => unwrap(await api.GET('/api/v1/tasks', { params: { query: { page, page_size: PAGE_SIZE, ...filters } } })), [site, workspace?.id, status, category, page]);
  // Every task these filters select, not only this page's.
  const exporter = useExport(() => downloadFile('/api/v1/tasks/export', { query: filters }));
  const siteName = (id: string) => sites.data?.find((s) => s.id === id)?.name ?? '';

  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Tasks</span>} subtitle="Everything the agent proposed, approved work and what became of it. Newest first." actions={<><ExportButton exporter={exporter} /><a class="btn" href="/rollbacks">Rollback history</a></>} />
      {exporter.error !== undefined && <ErrorNotice error={exporter.error} />}
      <FilterBar id="task-filters" label="Filter tasks" active={[site, status, category].filter(Boolean).length}>
        <SiteFilter sites={sites.data} value={site} onChange={(v) => setFilter('site', v)} />
        <label>Status
          <select value={status ?? ''} onChange={(e) => setFilter('status', e.currentTarget.value)}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => <option value={s}>{humanize(s)}</option>)}
          </select>
        </label>
        <CategoryFilter value={category ?? ''} onChange={(v) => setFilter('category', v)} />
      </FilterBar>
      <Async state={tasks} label="Loading tasks">
        {(result) => result.total === 0 ? (
          <Empty title={site || status || category ? 'No tasks match these filters' : 'No tasks yet'}>
            <p>{site || status || category ? 'Clear a filter to see the others.' : 'Audit a site: the agent proposes tasks from what it finds.'}</p>
          </Empty>
        ) : (
          <>
            <div class="table-wrap">
              <table class="table tasks-table stacked">
                <caption class="sr-only">Tasks</caption>
                <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Priority</th><th scope="col">Site</th><th scope="col">Proposed</th></tr></thead>
                <tbody>
                  {result.items.map((t) => (
                    <tr>
                      <td data-label="Task"><a class="strong" href={`/tasks/${t.id}`}>{t.title}</a><div class="muted small">{humanize(t.type)}</div></td>
                      <td data-label="Status"><Badge value={t.status} /></td>
                      <td data-label="Priority"><Badge value={t.priority} /></td>
                      <td data-label="Site">{siteName(t.site_id)}</td>
                      <td data-label="Proposed"><span title={formatDate(t.created_at, true)}>{formatRelative(t.created_at)}</span></td>
                    </tr>
                  ))}
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
