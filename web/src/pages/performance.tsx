import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import type { paths } from '../generated/api';
import { ComparisonChart } from '../components/comparison-chart.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, Empty, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { changeTone, formatChange, formatDate, formatNumber } from '../lib/format.ts';

type Query = NonNullable<paths['/api/v1/analytics/performance']['get']['parameters']['query']>;
type Report = paths['/api/v1/analytics/performance']['get']['responses'][200]['content']['application/json'];
type Metrics = { clicks: number; impressions: number; ctr: number | null; position: number | null };
type MetricKey = keyof Metrics;

const PERIODS = [
  { value: '7d', label: '7 days' }, { value: '28d', label: '28 days' }, { value: '90d', label: '3 months' },
  { value: '6m', label: '6 months' }, { value: '12m', label: '12 months' }, { value: '16m', label: '16 months' },
] as const;
const COMPARE = [{ value: 'previous', label: 'Previous period' }, { value: 'year', label: 'Same period last year' }, { value: 'none', label: 'No comparison' }] as const;
const MATCHES = [{ value: 'contains', label: 'contains' }, { value: 'not_contains', label: 'does not contain' }, { value: 'equals', label: 'is exactly' }] as const;
const PAGE_SIZE = 25;

/** The four metrics as Search Console shows them: a count, a share, a place (lower is better). */
const METRICS: Array<{ key: MetricKey; title: string; color: string; lowerIsBetter?: true; format: (v: number | null) => string; change: (c: Report['totals']['change'], key: MetricKey) => string }> = [
  { key: 'clicks', title: 'Clicks', color: '#2557d6', format: (v) => formatNumber(v, { compact: true }), change: (c) => formatChange(c?.clicks) },
  { key: 'impressions', title: 'Impressions', color: '#7c3aed', format: (v) => formatNumber(v, { compact: true }), change: (c) => formatChange(c?.impressions) },
  { key: 'ctr', title: 'Average CTR', color: '#047857', format: (v) => (v === null ? '—' : `${formatNumber(v * 100, { digits: 1 })}%`), change: (c) => points(c?.ctr, ' pts') },
  { key: 'position', title: 'Average position', color: '#b45309', lowerIsBetter: true, format: (v) => formatNumber(v, { digits: 1 }), change: (c) => points(c?.position, '') },
];
/** A difference in points or places, signed; "no earlier data" without one. */
function points(delta: number | null | undefined, unit: string) {
  if (delta === null || delta === undefined) return 'no earlier data';
  return `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatNumber(Math.abs(delta), { digits: 1 })}${unit}`;
}
const tone = (key: MetricKey, delta: number | null | undefined) => changeTone(delta, key === 'position');

/**
 * Search Console's performance report for one site: the period and what it is compared with,
 * the four metrics as totals and a chart of both periods, and the queries or pages behind
 * them, sortable by a metric or its change, searchable, filterable and paged. Everything is
 * kept in the address, so a report can be shared or bookmarked.
 */
export function PerformancePage() {
  return (
    <WithSite>
      {(site, picker) => (
        <section class="page">
          <PageHeader title={<span tabIndex={-1}>Performance</span>} subtitle={`What ${site.name} gets from Google Search: clicks, impressions, click-through rate and position, from Search Console.`} actions={picker} />
          <Report siteId={site.id} />
        </section>
      )}
    </WithSite>
  );
}

/** The report's settings, as the address holds them. */
function useReportQuery(siteId: string) {
  const { query, path, route } = useLocation();
  const custom = query.start !== undefined && query.end !== undefined;
  const state: Query = {
    site_id: siteId,
    ...(custom ? { start: query.start, end: query.end } : { period: (PERIODS.some((p) => p.value === query.period) ? query.period : '28d') as Query['period'] }),
    compare: (COMPARE.some((c) => c.value === query.compare) ? query.compare : 'previous') as Query['compare'],
    dimension: query.dimension === 'page' ? 'page' : 'query',
    // A change needs a period to change from: without a comparison the table sorts by the metric itself.
    sort: ((query.compare === 'none' ? query.sort?.replace(/_change$/, '') : query.sort) ?? 'clicks') as Query['sort'],
    ...(query.order === 'asc' || query.order === 'desc' ? { order: query.order } : {}),
    ...(query.search ? { search: query.search } : {}),
    page: Math.max(1, Number(query.page) || 1),
    page_size: PAGE_SIZE,
  };
  for (const key of ['query_contains', 'query_not_contains', 'query_equals', 'page_contains', 'page_not_contains', 'page_equals'] as const) {
    if (query[key]) state[key] = query[key];
  }
  /** Goes to the report with these settings changed (back to the table's first page unless one is given). */
  const go = (changes: Partial<Record<keyof Query, string | number | undefined>>) => {
    const next: Record<string, string> = { site: siteId };
    const merged = { ...state, page: 1, ...changes } as Record<string, unknown>;
    for (const [key, value] of Object.entries(merged)) {
      if (key === 'site_id' || key === 'page_size' || value === undefined || value === '') continue;
      next[key] = String(value);
    }
    route(`${path}?${new URLSearchParams(next)}`);
  };
  return { state, go };
}

function Report({ siteId }: { siteId: string }) {
  const { state, go } = useReportQuery(siteId);
  const report = useAsync(async () => unwrap(await api.GET('/api/v1/analytics/performance', { params: { query: state } })), [JSON.stringify(state)]);
  const [metric, setMetric] = useState<MetricKey>('clicks');
  return (
    <>
      <PeriodControls state={state} go={go} />
      <Filters state={state} go={go} />
      <Async state={report} label="Loading the performance report">
        {(r) => {
          const synced = r.days.some((d) => d.final);
          if (!synced && r.totals.current.impressions === 0) {
            return <Empty title="No Search Console data for this period"><p class="small">Link the site to a Search Console property in <a href="/settings">Settings</a>; the first sync brings 16 months of data. A site linked today shows its data after that sync.</p></Empty>;
          }
          const m = METRICS.find((x) => x.key === metric)!;
          const lastFinal = [...r.days].reverse().find((d) => d.final)?.date;
          return (
            <>
              <p class="muted small">
                {formatDate(r.period.start)} – {formatDate(r.period.end)} ({r.period.days} days)
                {r.comparison && <> compared with {formatDate(r.comparison.start)} – {formatDate(r.comparison.end)}{!r.comparison.has_data && ' (the data does not reach back that far: its figures are partial)'}</>}
                {r.filtered ? ' · filtered: totals count the matching queries and pages only' : ' · totals are the property\'s own'}
              </p>
              <div class="cards metric-cards" role="group" aria-label="Totals: pick one to chart">
                {METRICS.map((x) => (
                  <button type="button" class={`card stat metric-card${x.key === metric ? ' metric-card-on' : ''}`} aria-pressed={x.key === metric} onClick={() => setMetric(x.key)} style={`--metric: ${x.color}`}>
                    <span class="stat-label">{x.title}</span>
                    <span class="stat-value">{x.format(r.totals.current[x.key])}</span>
                    {r.totals.previous && (
                      <span class={`small tone-${tone(x.key, r.totals.change?.[x.key])}`}>
                        {x.change(r.totals.change, x.key)} <span class="muted">vs {x.format(r.totals.previous[x.key])}</span>
                      </span>
                    )}
                  </button>
                ))}
              </div>
              <figure class="card chart-card">
                <figcaption>
                  <span class="chart-title">{m.title} by day</span>
                  {r.comparison && <span class="muted small"> · dashed: the comparison period</span>}
                  {lastFinal && lastFinal < r.period.end && <span class="muted small"> · days after {formatDate(lastFinal)} are not reported yet</span>}
                </figcaption>
                <ComparisonChart
                  days={r.days.map((d) => ({ date: d.date, final: d.final, value: d[metric], previous: d.previous ? { date: d.previous.date, value: d.previous[metric] } : null }))}
                  label={m.title} color={m.color} invert={m.lowerIsBetter === true} format={m.format}
                />
              </figure>
              <Table report={r} state={state} go={go} />
            </>
          );
        }}
      </Async>
    </>
  );
}

function PeriodControls({ state, go }: { state: Query; go: ReturnType<typeof useReportQuery>['go'] }) {
  const [start, setStart] = useState(state.start ?? '');
  const [end, setEnd] = useState(state.end ?? '');
  return (
    <div class="report-controls">
      <div class="segmented" role="radiogroup" aria-label="Period">
        {PERIODS.map((p) => (
          <button type="button" role="radio" aria-checked={state.period === p.value} onClick={() => go({ period: p.value, start: undefined, end: undefined })}>{p.label}</button>
        ))}
      </div>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); if (start && end) go({ period: undefined, start, end }); }}>
        <label>From <input type="date" value={start} required onInput={(e) => setStart(e.currentTarget.value)} /></label>
        <label>to <input type="date" value={end} required onInput={(e) => setEnd(e.currentTarget.value)} /></label>
        <button type="submit" class={`btn btn-small${state.start ? ' btn-primary' : ''}`}>Custom dates</button>
      </form>
      <label class="inline-select">Compare with{' '}
        <select value={state.compare} onChange={(e) => go({ compare: e.currentTarget.value })}>
          {COMPARE.map((c) => <option value={c.value}>{c.label}</option>)}
        </select>
      </label>
    </div>
  );
}

/** Search Console's filters: the query or the page contains, does not contain, or is a text; they narrow the whole report. */
function Filters({ state, go }: { state: Query; go: ReturnType<typeof useReportQuery>['go'] }) {
  const current = (on: 'query' | 'page') => {
    const match = MATCHES.find((m) => state[`${on}_${m.value}` as keyof Query] !== undefined);
    return { match: match?.value ?? 'contains', text: match ? String(state[`${on}_${match.value}` as keyof Query]) : '' };
  };
  const [query, setQuery] = useState(current('query'));
  const [page, setPage] = useState(current('page'));
  const active = ['query', 'page'].some((on) => MATCHES.some((m) => state[`${on}_${m.value}` as keyof Query] !== undefined));
  const apply = (e: Event) => {
    e.preventDefault();
    const changes: Partial<Record<keyof Query, string | undefined>> = {};
    for (const [on, value] of [['query', query], ['page', page]] as const) {
      for (const m of MATCHES) changes[`${on}_${m.value}` as keyof Query] = m.value === value.match && value.text.trim() ? value.text.trim() : undefined;
    }
    go(changes);
  };
  const clear = () => {
    setQuery({ match: 'contains', text: '' });
    setPage({ match: 'contains', text: '' });
    go(Object.fromEntries(['query', 'page'].flatMap((on) => MATCHES.map((m) => [`${on}_${m.value}`, undefined]))));
  };
  return (
    <details class="card report-filters" open={active}>
      <summary>Filters{active ? ' (on)' : ''}</summary>
      <form onSubmit={apply}>
        {([['query', 'Query', query, setQuery], ['page', 'Page', page, setPage]] as const).map(([on, label, value, set]) => (
          <div class="filter-row">
            <span class="filter-label" id={`f-${on}`}>{label}</span>
            <select aria-labelledby={`f-${on}`} aria-label={`${label}: how it matches`} value={value.match} onChange={(e) => set({ ...value, match: e.currentTarget.value as typeof value.match })}>
              {MATCHES.map((m) => <option value={m.value}>{m.label}</option>)}
            </select>
            <input type="text" aria-label={`${label}: text`} maxLength={200} value={value.text} placeholder={on === 'query' ? 'e.g. roses' : 'e.g. /blog/'} onInput={(e) => set({ ...value, text: e.currentTarget.value })} />
          </div>
        ))}
        <div class="form-actions">
          <button type="submit" class="btn btn-primary btn-small">Apply filters</button>
          {active && <button type="button" class="btn btn-small btn-ghost" onClick={clear}>Clear filters</button>}
        </div>
      </form>
    </details>
  );
}

const COLUMNS: Array<{ key: MetricKey; label: string }> = [
  { key: 'clicks', label: 'Clicks' }, { key: 'impressions', label: 'Impressions' }, { key: 'ctr', label: 'CTR' }, { key: 'position', label: 'Position' },
];

function Table({ report, state, go }: { report: Report; state: Query; go: ReturnType<typeof useReportQuery>['go'] }) {
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
      </div>
      <h2 id="h-rows" class="sr-only">{rows.dimension === 'query' ? 'Queries' : 'Pages'}</h2>
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
                  const delta = item.change?.[c.key];
                  return (
                    <td class="num" data-label={c.label}>
                      <span>{m.format(item[c.key])}</span>
                      {item.previous && <span class={`small change tone-${tone(c.key, delta)}`}>{c.key === 'clicks' || c.key === 'impressions' ? formatChange(delta) : points(delta, c.key === 'ctr' ? ' pts' : '')}</span>}
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
