import { useState } from 'preact/hooks';
import { changeText, FILTER_KEYS, isSegment, METRICS, SEGMENT_NOUN, segmentName, tone, type Dimension, type Go, type MetricKey, type PageQuery, type Report } from '../lib/performance.ts';
import { formatDate } from '../lib/format.ts';
import { downloadFile } from '../api/download.ts';
import { ExportButton, useExport } from './export-button.tsx';
import { Empty, ErrorNotice, Pager } from './ui.tsx';
import '../styles/performance.css';

const COLUMNS: Array<{ key: MetricKey; label: string }> = [
  { key: 'clicks', label: 'Clicks' }, { key: 'impressions', label: 'Impressions' }, { key: 'ctr', label: 'CTR' }, { key: 'position', label: 'Position' },
];
const LISTS: Array<{ value: Dimension; label: string }> = [{ value: 'query', label: 'Queries' }, { value: 'page', label: 'Pages' }, { value: 'country', label: 'Countries' }, { value: 'device', label: 'Devices' }];
const NOUN: Record<Dimension, { many: string; title: string }> = {
  query: { many: 'queries', title: 'Query' }, page: { many: 'pages', title: 'Page' },
  country: { many: 'countries', title: 'Country' }, device: { many: 'devices', title: 'Device' },
};

/** The rows of one list: the performance report's queries or pages, or the segments' countries or devices (the same shape). */
export type TableRows = {
  dimension: Dimension;
  items: Report['rows']['items'];
  total: number; page: number; page_size: number;
  /** The first day this list's rows are kept from (null: none yet). */
  rowsFrom: string | null;
  /** The first day the report reads (the comparison's when there is one). */
  from: string;
  compared: boolean;
};

/**
 * The queries, pages, countries or devices behind the totals: sorted by a metric or its change (the API sorts, across
 * every page) and paged; queries and pages searched and exported; a country or device picked to narrow the totals and
 * the chart to it (not beside query and page filters: Search Console reports them apart).
 */
export function PerformanceTable({ rows, state, go }: { rows: TableRows; state: PageQuery; go: Go }) {
  const [search, setSearch] = useState(state.search ?? '');
  const byChange = (state.sort ?? 'clicks').endsWith('_change');
  const sortKey = (state.sort ?? 'clicks').replace(/_change$/, '') as MetricKey;
  const dir = state.order ?? (state.sort === 'position' ? 'asc' : 'desc');
  const dimension = rows.dimension;
  const segment = isSegment(dimension) ? dimension : undefined;
  const noun = NOUN[dimension].many;
  const filtered = FILTER_KEYS.some((key) => state[key] !== undefined);
  const sortBy = (key: MetricKey) => {
    const sort = byChange ? `${key}_change` : key;
    const natural = key === 'position' && !byChange ? 'asc' : 'desc';
    go({ sort, order: sortKey === key ? (dir === 'asc' ? 'desc' : 'asc') : natural });
  };
  // The export is what the table shows, every row of it: the same settings without the paging (queries and pages only).
  const exporter = useExport(() => {
    const { page: _page, page_size: _size, country: _country, device: _device, ...query } = state;
    return downloadFile('/api/v1/analytics/performance/export', { query: { ...query, dimension: query.dimension === 'page' ? 'page' : 'query' } });
  });
  // The sync keeps fewer days of query rows than of totals: a period that starts before them says so.
  const partial = rows.rowsFrom !== null && rows.rowsFrom > rows.from;
  const other = segment ? undefined : (['country', 'device'] as const).find((d) => state[d]);
  return (
    <section class="card report-table" aria-labelledby="h-rows">
      <div class="table-toolbar">
        <div class="segmented" role="radiogroup" aria-label="List">
          {LISTS.map((list) => (
            <button type="button" role="radio" aria-checked={dimension === list.value} onClick={() => go({ dimension: list.value, search: undefined })}>{list.label}</button>
          ))}
        </div>
        {rows.compared && (
          <div class="segmented" role="radiogroup" aria-label="Sort by">
            <button type="button" role="radio" aria-checked={!byChange} onClick={() => go({ sort: sortKey, order: undefined })}>By value</button>
            <button type="button" role="radio" aria-checked={byChange} onClick={() => go({ sort: `${sortKey}_change`, order: 'desc' })}>By change</button>
          </div>
        )}
        {!segment && (
          <form class="inline-form" role="search" onSubmit={(e) => { e.preventDefault(); go({ search: search.trim() || undefined }); }}>
            <input type="search" aria-label={`Search the ${noun}`} placeholder={`Search ${noun}`} maxLength={200} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
            <button type="submit" class="btn btn-small">Search</button>
          </form>
        )}
        {/* Countries and devices have no export: the button is for the queries and pages. */}
        {!segment && rows.total > 0 && <ExportButton exporter={exporter} />}
      </div>
      {exporter.error !== undefined && <ErrorNotice error={exporter.error} />}
      <h2 id="h-rows" class="sr-only">{LISTS.find((l) => l.value === dimension)!.label}</h2>
      {segment && (filtered
        ? <p class="muted small table-note">These are the whole site’s {noun}: Search Console reports them apart from queries and pages, so the query and page filters do not apply here. Clear those filters to narrow the report to one {SEGMENT_NOUN[segment].one}.</p>
        : <p class="muted small table-note">Pick a {SEGMENT_NOUN[segment].one} to narrow the totals and the chart to it.</p>)}
      {other && <p class="muted small table-note">These are the whole site’s {noun}: Search Console does not split them by {SEGMENT_NOUN[other].one}.</p>}
      {partial && <p class="muted small">{segment ? `${NOUN[dimension].title} figures` : 'Queries and pages'} are kept from {formatDate(rows.rowsFrom)}: their figures count from that day.</p>}
      {rows.items.length === 0 ? (
        <Empty title={`No ${noun} match`}>
          {state.search
            ? <p class="small">Nothing matches “{state.search}”. Try a shorter search, or <button type="button" class="btn btn-small btn-ghost" onClick={() => { setSearch(''); go({ search: undefined }); }}>clear the search</button></p>
            : filtered && !segment
              ? <p class="small">Search Console reports no {noun} for these filters in this period. Loosen them, or <button type="button" class="btn btn-small btn-ghost" onClick={() => go(Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])))}>clear the filters</button></p>
              : <p class="small">Search Console reports no {noun} for this period. Try a longer period; a site linked recently shows them after its first sync.</p>}
        </Empty>
      ) : (
        <div class="table-wrap"><table class="table compact stacked">
          <caption class="sr-only">{noun}, sorted by {byChange ? `change in ${sortKey}` : sortKey} ({dir === 'asc' ? 'ascending' : 'descending'})</caption>
          <thead>
            <tr>
              <th scope="col">{NOUN[dimension].title}</th>
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
                <td class="key-cell">
                  {dimension === 'page' ? <a href={item.key} rel="noreferrer noopener" target="_blank">{item.key.replace(/^https?:\/\/[^/]+/, '') || '/'}</a>
                    : !segment ? item.key
                      : filtered ? segmentName(segment, item.key)
                        : (
                          <button type="button" class="segment-pick" aria-pressed={state[segment] === item.key}
                            aria-label={`Narrow the totals and chart to ${segmentName(segment, item.key)}`}
                            onClick={() => go({ [segment]: item.key, [segment === 'country' ? 'device' : 'country']: undefined, ...Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])), page: rows.page })}>
                            {segmentName(segment, item.key)}
                          </button>
                        )}
                </td>
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
