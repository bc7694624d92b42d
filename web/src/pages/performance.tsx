import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { ComparisonChart } from '../components/comparison-chart.tsx';
import { Filters, PeriodControls } from '../components/performance-filters.tsx';
import { PerformanceTable } from '../components/performance-table.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, Empty, PageHeader, useAsync } from '../components/ui.tsx';
import { formatChange, formatDate } from '../lib/format.ts';
import { COMPARE, FILTER_KEYS, METRICS, PERIODS, signed, SORTS, tone, type Go, type MetricKey, type ReportQuery } from '../lib/performance.ts';

const PAGE_SIZE = 25;

/**
 * Search Console's performance report for one site: the period and what it is compared with,
 * the four metrics as totals and a chart of both periods, and the queries or pages behind
 * them, sortable by a metric or its change, searchable, filterable and paged. The report's
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

/** The report's settings, as the address holds them (a value the API would refuse falls back to its default). */
function useReportQuery(siteId: string) {
  const { query, path, route, url } = useLocation();
  const custom = query.start !== undefined && query.end !== undefined;
  const compare = oneOf(COMPARE.map((c) => c.value), query.compare, 'previous');
  const sort = oneOf(SORTS, query.sort, 'clicks');
  const state: ReportQuery = {
    site_id: siteId,
    ...(custom ? { start: query.start, end: query.end } : { period: oneOf(PERIODS.map((p) => p.value), query.period, '28d') }),
    compare,
    dimension: query.dimension === 'page' ? 'page' : 'query',
    // A change needs a period to change from: without a comparison the table sorts by the metric itself.
    sort: compare === 'none' ? (sort.replace(/_change$/, '') as ReportQuery['sort']) : sort,
    ...(query.order === 'asc' || query.order === 'desc' ? { order: query.order } : {}),
    ...(query.search ? { search: query.search } : {}),
    page: Math.min(10_000, Math.max(1, Number(query.page) || 1)),
    page_size: PAGE_SIZE,
  };
  for (const key of FILTER_KEYS) if (query[key]) state[key] = query[key];
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

function Report({ siteId }: { siteId: string }) {
  const { state, go, url } = useReportQuery(siteId);
  const report = useAsync(async () => unwrap(await api.GET('/api/v1/analytics/performance', { params: { query: state } })), [JSON.stringify(state)]);
  const [metric, setMetric] = useState<MetricKey>('clicks');
  return (
    <>
      {/* Keyed by the address: after Back, Forward or a site switch, their fields show what the address says. */}
      <PeriodControls key={`p${url}`} state={state} go={go} />
      <Filters key={`f${url}`} state={state} go={go} />
      <Async state={report} label="Loading the performance report">
        {(r) => {
          if (!r.days.some((d) => d.final) && r.totals.current.impressions === 0) {
            return <Empty title="No Search Console data for this period"><p class="small">Link the site to a Search Console property in <a href="/settings">Settings</a>; the first sync brings 16 months of totals and 90 days of queries. A site linked today shows its data after that sync.</p></Empty>;
          }
          const m = METRICS.find((x) => x.key === metric)!;
          const lastFinal = [...r.days].reverse().find((d) => d.final)?.date;
          return (
            <>
              <p class="muted small">
                {formatDate(r.period.start)} – {formatDate(r.period.end)} ({r.period.days} days)
                {r.comparison && <> compared with {formatDate(r.comparison.start)} – {formatDate(r.comparison.end)}{!r.comparison.has_data && ' (the data does not reach back that far: its figures are partial)'}</>}
                {r.filtered ? ' · filtered: the totals count only the matching queries and pages' : ' · totals for the whole site'}
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
                  <span class="chart-title">{m.title} by day</span>
                  {r.comparison && <span class="muted small">Dashed line: the comparison period.</span>}
                  {lastFinal && lastFinal < r.period.end && <span class="muted small"> · days after {formatDate(lastFinal)} are not reported yet</span>}
                </figcaption>
                <ComparisonChart
                  days={r.days.map((d) => ({ date: d.date, final: d.final, value: d[metric], previous: d.previous ? { date: d.previous.date, value: d.previous[metric] } : null }))}
                  label={m.title} color={m.color} invert={m.lowerIsBetter === true} format={m.format}
                />
              </figure>
              <PerformanceTable key={`t${url}`} report={r} state={state} go={go} />
            </>
          );
        }}
      </Async>
    </>
  );
}
