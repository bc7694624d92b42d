import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { ComparisonChart } from '../components/comparison-chart.tsx';
import { ChangesList, changeMarkers } from '../components/performance-changes.tsx';
import { FilterChips, Filters, PeriodControls } from '../components/performance-filters.tsx';
import { EngagementSection } from '../components/performance-ga4.tsx';
import { PerformanceTable, type TableRows } from '../components/performance-table.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, Empty, PageHeader, useAsync } from '../components/ui.tsx';
import { formatChange, formatDate } from '../lib/format.ts';
import {
  COMPARE, DEFAULT_PERIOD, FILTER_KEYS, isSegment, METRICS, PERIODS, SEGMENT_DIMENSIONS, SEGMENT_NOUN, segmentName, signed, SORTS, tone,
  type Go, type MetricKey, type PageQuery, type Report, type ReportQuery, type Segments, type SegmentsQuery,
} from '../lib/performance.ts';

const PAGE_SIZE = 25;

/**
 * Search Console's performance report for one site: the period and what it is compared with,
 * the four metrics as totals and a chart of both periods (with the site's changes marked on
 * it), and the queries, pages, countries or devices behind them, sortable by a metric or its
 * change, searchable, filterable (or narrowed to one country or device) and paged; GA4's
 * sessions, page views, engagement and key events for the same period below. The report's
 * settings are kept in the address, so a report can be shared or bookmarked (the charted
 * metric, a view's choice, is not).
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

const oneOf = <T extends string>(values: readonly T[], value: string | undefined, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);
const SEGMENT_KEY = /^[a-z]{1,20}$/;

/** The report's settings, as the address holds them (a value the API would refuse falls back to its default). */
function useReportQuery(siteId: string) {
  const { query, path, route, url } = useLocation();
  const custom = query.start !== undefined && query.end !== undefined;
  const compare = oneOf(COMPARE.map((c) => c.value), query.compare, 'previous');
  const sort = oneOf(SORTS, query.sort, 'clicks');
  const state: PageQuery = {
    site_id: siteId,
    ...(custom ? { start: query.start, end: query.end } : { period: oneOf(PERIODS.map((p) => p.value), query.period, DEFAULT_PERIOD) }),
    compare,
    dimension: oneOf(['query', 'page', 'country', 'device'] as const, query.dimension, 'query'),
    // A change needs a period to change from: without a comparison the table sorts by the metric itself.
    sort: compare === 'none' ? (sort.replace(/_change$/, '') as ReportQuery['sort']) : sort,
    ...(query.order === 'asc' || query.order === 'desc' ? { order: query.order } : {}),
    ...(query.search && !isSegment(query.dimension) ? { search: query.search } : {}),
    page: Math.min(10_000, Math.max(1, Number(query.page) || 1)),
    page_size: PAGE_SIZE,
  };
  // One country or one device narrows the totals; Search Console keeps them apart from the query and page filters,
  // so with one of them set (an address written by hand) the filters are left out.
  const segment = SEGMENT_DIMENSIONS.find((d) => SEGMENT_KEY.test(query[d] ?? ''));
  if (segment) state[segment] = query[segment];
  else for (const key of FILTER_KEYS) if (query[key]) state[key] = query[key];
  /** Goes to the report with these settings changed (back to the table's first page unless one is given). */
  const go: Go = (changes) => {
    const next: Record<string, string> = { site: siteId };
    const merged = { ...state, page: 1, ...changes } as Record<string, unknown>;
    for (const [key, value] of Object.entries(merged)) {
      if (key === 'site_id' || key === 'page_size' || value === undefined || value === '') continue;
      next[key] = String(value);
    }
    route(`${path}?${new URLSearchParams(next)}`);
  };
  return { state, go, url };
}

type View = {
  period: Report['period']; comparison: Report['comparison'];
  totals: Report['totals']; days: Report['days'];
  filtered: boolean; rows: TableRows;
};

/**
 * What the page shows, from as few requests as it needs: the totals and days from the performance report (its filters)
 * or, narrowed to a country or device, from that key's segments; the table from the report (queries, pages) or the
 * segments (countries, devices). A list of one dimension narrowed to a key of the same dimension is one request.
 */
async function loadView(state: PageQuery): Promise<View> {
  const { country: _country, device: _device, dimension, ...report } = state;
  const segment = SEGMENT_DIMENSIONS.find((d) => state[d]);
  const key = segment ? state[segment] : undefined;
  const period = { site_id: state.site_id, period: state.period, start: state.start, end: state.end, compare: state.compare };
  const bySegment = isSegment(dimension);
  const performance = (query: ReportQuery) => api.GET('/api/v1/analytics/performance', { params: { query } }).then(unwrap);
  const segments = (query: SegmentsQuery) =>
    api.GET('/api/v1/analytics/performance/segments', { params: { query } }).then(unwrap);
  const [perf, table, narrowed] = await Promise.all([
    // Queries and pages; or, without a country or device, the totals beside a list of them (one row: the totals are what counts).
    !segment || !bySegment ? performance(bySegment ? { ...report, dimension: 'query', search: undefined, sort: undefined, order: undefined, page: 1, page_size: 1 } : { ...report, dimension }) : undefined,
    bySegment ? segments({ ...period, dimension, sort: state.sort, order: state.order, page: state.page, page_size: state.page_size, ...(segment === dimension && key ? { key } : {}) }) : undefined,
    segment && key && segment !== dimension ? segments({ ...period, dimension: segment, key, page_size: 1 }) : undefined,
  ]);
  const totalsFrom: Report | Segments = segment ? (segment === dimension ? table : narrowed)! : perf!;
  const rowsFrom = bySegment ? table! : perf!;
  return {
    period: totalsFrom.period, comparison: totalsFrom.comparison,
    totals: totalsFrom.totals!, days: totalsFrom.days!,
    filtered: perf?.filtered === true && !segment,
    rows: {
      dimension, items: rowsFrom.rows.items, total: rowsFrom.rows.total, page: rowsFrom.rows.page, page_size: rowsFrom.rows.page_size,
      rowsFrom: rowsFrom.rows_from, from: rowsFrom.comparison?.start ?? rowsFrom.period.start, compared: rowsFrom.comparison !== null,
    },
  };
}

function Report({ siteId }: { siteId: string }) {
  const { state, go, url } = useReportQuery(siteId);
  const view = useAsync(() => loadView(state), [JSON.stringify(state)]);
  const periodOnly = { site_id: siteId, ...(state.start ? { start: state.start, end: state.end } : { period: state.period }) };
  // The changes of the chart's own days (a named period ends at the last day synced, which the report says).
  const span = view.data ? { site_id: siteId, start: view.data.period.start, end: view.data.period.end } : undefined;
  const changes = useAsync(async () => (span ? unwrap(await api.GET('/api/v1/analytics/changes', { params: { query: span } })) : undefined), [JSON.stringify(span)]);
  const markers = useMemo(() => changeMarkers(changes.data?.items ?? []), [changes.data]);
  const [metric, setMetric] = useState<MetricKey>('clicks');
  const segment = SEGMENT_DIMENSIONS.find((d) => state[d]);
  const days = useMemo(() => view.data?.days.map((d) => ({ date: d.date, final: d.final, value: d[metric], previous: d.previous ? { date: d.previous.date, value: d.previous[metric] } : null })) ?? [], [view.data, metric]);
  const hasFilters = segment !== undefined || FILTER_KEYS.some((key) => state[key] !== undefined);
  return (
    <>
      {/* Keyed by the address: after Back, Forward or a site switch, their fields show what the address says. */}
      <PeriodControls key={`p${url}`} state={state} go={go} />
      <Filters key={`f${url}`} state={state} go={go} />
      <FilterChips state={state} go={go} />
      <Async state={view} label="Loading the performance report">
        {(r) => {
          if (!r.days.some((d) => d.final) && r.totals.current.impressions === 0) {
            if (hasFilters) {
              return (
                <Empty title={segment ? `No Search Console data for ${segmentName(segment, state[segment]!)} in this period` : 'Nothing matches these filters in this period'}>
                  <p class="small">Try a longer period, or <button type="button" class="btn btn-small btn-ghost" onClick={() => go({ country: undefined, device: undefined, ...Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])) })}>{segment ? `remove the ${SEGMENT_NOUN[segment].one}` : 'clear the filters'}</button> to see the whole site.</p>
                </Empty>
              );
            }
            return <Empty title="No Search Console data for this period"><p class="small">Connect Google and link the site to a Search Console property in <a href="/settings">Settings</a>; the first sync brings 16 months of totals and 90 days of queries. A site linked today shows its data after that sync.</p></Empty>;
          }
          const m = METRICS.find((x) => x.key === metric)!;
          const lastFinal = [...r.days].reverse().find((d) => d.final)?.date;
          const inPeriod = (changes.data?.items ?? []).filter((c) => c.date >= r.period.start && c.date <= r.period.end);
          return (
            <>
              <p class="muted small">
                {formatDate(r.period.start)} – {formatDate(r.period.end)} ({r.period.days} days)
                {r.comparison && <> compared with {formatDate(r.comparison.start)} – {formatDate(r.comparison.end)}{!r.comparison.has_data && ' (the data does not reach back that far: its figures are partial)'}</>}
                {segment ? ` · narrowed to ${segmentName(segment, state[segment]!)}: the totals and the chart count its searches only` : r.filtered ? ' · filtered: the totals count only the matching queries and pages' : ' · totals for the whole site'}
              </p>
              <div class="cards metric-cards" role="group" aria-label="Totals: pick one to chart">
                {METRICS.map((x) => (
                  <button type="button" class={`card stat metric-card${x.key === metric ? ' metric-card-on' : ''}`} aria-pressed={x.key === metric} onClick={() => setMetric(x.key)} style={`--metric: ${x.color}`}>
                    <span class="stat-label">{x.title}</span>
                    <span class="stat-value">{x.format(r.totals.current[x.key])}</span>
                    {r.totals.previous && (
                      <span class={`small tone-${tone(x.key, r.totals.change?.[x.key])}`}>
                        {x.key === 'clicks' || x.key === 'impressions' ? formatChange(r.totals.change?.[x.key]) : signed(r.totals.change?.[x.key], x.key === 'ctr' ? ' pts' : '')}{' '}
                        <span class="muted">vs {x.format(r.totals.previous[x.key])}</span>
                      </span>
                    )}
                  </button>
                ))}
              </div>
              <figure class="card chart-card">
                <figcaption>
                  <span class="chart-title">{m.title} by day{segment && ` · ${segmentName(segment, state[segment]!)}`}</span>
                  {inPeriod.length > 0 && <span class="muted small">Marks at the foot: the site’s changes.</span>}
                  {lastFinal && lastFinal < r.period.end && <span class="muted small"> · days after {formatDate(lastFinal)} are not reported yet</span>}
                </figcaption>
                <ComparisonChart days={days} label={m.title} color={m.color} invert={m.lowerIsBetter === true} format={m.format} markers={markers}
                  summary={{ current: r.totals.current[metric], previous: r.totals.previous?.[metric], kind: metric === 'clicks' || metric === 'impressions' ? 'total' : 'average' }} />
                <ChangesList items={inPeriod} />
              </figure>
              <PerformanceTable key={`t${url}`} rows={r.rows} state={state} go={go} />
            </>
          );
        }}
      </Async>
      {/* GA4 takes the period and comparison only: with a query, page, country or device filter set, it says its figures are the whole site's. */}
      <EngagementSection query={{ ...periodOnly, compare: state.compare }} filtered={hasFilters} />
    </>
  );
}
