import { useState } from 'preact/hooks';
import { changeText, METRICS, tone, type Go, type MetricKey, type Report, type ReportQuery } from '../lib/performance.ts';
import { formatDate } from '../lib/format.ts';
import { downloadFile } from '../api/download.ts';
import { ExportButton, useExport } from './export-button.tsx';
import { Empty, ErrorNotice, Pager } from './ui.tsx';

const COLUMNS: Array<{ key: MetricKey; label: string }> = [
  { key: 'clicks', label: 'Clicks' }, { key: 'impressions', label: 'Impressions' }, { key: 'ctr', label: 'CTR' }, { key: 'position', label: 'Position' },
];

/** The queries or pages behind the totals: sorted by a metric or its change (the API sorts, across every page), searched and paged. */
export function PerformanceTable({ report, state, go }: { report: Report; state: ReportQuery; go: Go }) {
  const [search, setSearch] = useState(state.search ?? '');
  const byChange = (state.sort ?? 'clicks').endsWith('_change');
  const sortKey = (state.sort ?? 'clicks').replace(/_change$/, '') as MetricKey;
  const dir = state.order ?? (state.sort === 'position' ? 'asc' : 'desc');
  const rows = report.rows;
  const noun = rows.dimension === 'query' ? 'queries' : 'pages';
  const sortBy = (key: MetricKey) => {
    const sort = byChange ? `${key}_change` : key;
    const natural = key === 'position' && !byChange ? 'asc' : 'desc';
    go({ sort, order: sortKey === key ? (dir === 'asc' ? 'desc' : 'asc') : natural });
  };
  // The export is what the table shows, every row of it: the same settings without the paging.
  const exporter = useExport(() => {
    const { page: _page, page_size: _size, ...query } = state;
    return downloadFile('/api/v1/analytics/performance/export', { query });
  });
  // The sync keeps fewer days of query rows than of totals: a period that starts before them says so.
  const partial = report.rows_from !== null && report.rows_from > (report.comparison?.start ?? report.period.start);
  return (
    <section class="card report-table" aria-labelledby="h-rows">
      <div class="table-toolbar">
        <div class="segmented" role="radiogroup" aria-label="List">
          <button type="button" role="radio" aria-checked={rows.dimension === 'query'} onClick={() => go({ dimension: 'query', search: undefined })}>Queries</button>
          <button type="button" role="radio" aria-checked={rows.dimension === 'page'} onClick={() => go({ dimension: 'page', search: undefined })}>Pages</button>
        </div>
        {report.comparison && (
          <div class="segmented" role="radiogroup" aria-label="Sort by">
            <button type="button" role="radio" aria-checked={!byChange} onClick={() => go({ sort: sortKey, order: undefined })}>By value</button>
            <button type="button" role="radio" aria-checked={byChange} onClick={() => go({ sort: `${sortKey}_change`, order: 'desc' })}>By change</button>
          </div>
        )}
        <form class="inline-form" role="search" onSubmit={(e) => { e.preventDefault(); go({ search: search.trim() || undefined }); }}>
          <input type="search" aria-label={`Search the ${noun}`} placeholder={`Search ${noun}`} maxLength={200} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          <button type="submit" class="btn btn-small">Search</button>
        </form>
        {rows.total > 0 && <ExportButton exporter={exporter} small />}
      </div>
      {exporter.error !== undefined && <ErrorNotice error={exporter.error} />}
      <h2 id="h-rows" class="sr-only">{rows.dimension === 'query' ? 'Queries' : 'Pages'}</h2>
      {partial && <p class="muted small">Queries and pages are kept from {formatDate(report.rows_from)}: their figures count from that day.</p>}
      {rows.items.length === 0 ? (
        <Empty title={`No ${noun} match`}><p class="small">{state.search ? 'Try a shorter search, or clear it.' : 'Search Console reports no rows for this period and these filters.'}</p></Empty>
      ) : (
        <div class="table-wrap"><table class="table compact stacked">
          <caption class="sr-only">{noun}, sorted by {byChange ? `change in ${sortKey}` : sortKey} ({dir === 'asc' ? 'ascending' : 'descending'})</caption>
          <thead>
            <tr>
              <th scope="col">{rows.dimension === 'query' ? 'Query' : 'Page'}</th>
              {COLUMNS.map((c) => (
                <th scope="col" class="num" aria-sort={sortKey === c.key ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <button type="button" class="sort" onClick={() => sortBy(c.key)}>
                    {c.label}{byChange ? ' change' : ''}<span aria-hidden="true" class="sort-mark">{sortKey === c.key ? (dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.items.map((item) => (
              <tr>
                <td class="key-cell">{rows.dimension === 'page' ? <a href={item.key} rel="noreferrer noopener" target="_blank">{item.key.replace(/^https?:\/\/[^/]+/, '') || '/'}</a> : item.key}</td>
                {COLUMNS.map((c) => {
                  const m = METRICS.find((x) => x.key === c.key)!;
                  return (
                    <td class="num" data-label={c.label}>
                      <span>{m.format(item[c.key])}</span>
                      {item.previous && <span class={`small change tone-${tone(c.key, c.key === 'clicks' || c.key === 'impressions' ? item[c.key] - item.previous[c.key] : item.change?.[c.key])}`}>{changeText(c.key, item, item.previous, item.change)}</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
      <Pager page={rows.page} pageSize={rows.page_size} total={rows.total} onPage={(page) => go({ page })} />
    </section>
  );
}
