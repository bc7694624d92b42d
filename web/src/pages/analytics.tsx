import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { TrendChart } from '../components/chart.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, Empty, PageHeader, Score, useAsync } from '../components/ui.tsx';
import { ANALYTICS_METRICS as METRICS, ANALYTICS_PERIODS as PERIODS, analyticsPeriod, engagementPercent, lastDays } from '../lib/analytics.ts';
import { changeTone, formatChange, formatDate, formatNumber } from '../lib/format.ts';

export function AnalyticsPage() {
  const { query, path, route } = useLocation();
  // 28 days unless the address says otherwise, as on the Performance page (Search Console's default).
  const period = analyticsPeriod(query.period);
  return (
    <WithSite>
      {(site, picker) => (
        <section class="page">
          <PageHeader
            title={<span tabIndex={-1}>Analytics</span>}
            subtitle={`Search performance of ${site.name}, from the Search Console and Analytics data stored for it.`}
            actions={picker}
          />
          <div class="segmented" role="radiogroup" aria-label="Period">
            {PERIODS.map((p) => (
              <button type="button" role="radio" aria-checked={period.value === p.value} onClick={() => route(`${path}?site=${site.id}&period=${p.value}`)}>{p.label}</button>
            ))}
          </div>
          <Dashboard siteId={site.id} period={period} />
        </section>
      )}
    </WithSite>
  );
}

type Period = ReturnType<typeof analyticsPeriod>;

function Dashboard({ siteId, period }: { siteId: string; period: Period }) {
  const api_period = period.api;
  const dashboard = useAsync(async () => Promise.all([
    api.GET('/api/v1/analytics/dashboard', { params: { query: { site_id: siteId, period: api_period } } }).then(unwrap),
    // 28 days (no period of the dashboard's): the clicks of the Performance report's 28 days, the figure that page shows.
    period.value === '28d'
      ? api.GET('/api/v1/analytics/performance', { params: { query: { site_id: siteId, period: '28d', compare: 'previous', dimension: 'query', page: 1, page_size: 1 } } }).then(unwrap)
      : undefined,
  ]), [siteId, period.value]);
  const trends = useAsync(async () => Promise.all(METRICS.map(async (m) => unwrap(await api.GET('/api/v1/analytics/trends', { params: { query: { site_id: siteId, period: api_period, metric: m.metric } } })))), [siteId, api_period]);
  const days = 'days' in period ? period.days : undefined;
  return (
    <>
      <Async state={dashboard} label="Loading the dashboard">
        {([d, report]) => {
          const t = report
            ? { current: report.totals.current.clicks, previous: report.totals.previous?.clicks ?? 0, change_percent: report.comparison?.has_data ? report.totals.change?.clicks ?? null : null, start: report.period.start, end: report.period.end }
            : d.organic_traffic;
          return (
            <div class="cards">
              <div class="card stat">
                <span class="stat-label">{METRICS[0].title}</span>
                <span class="stat-value">{formatNumber(t.current, { compact: true })}</span>
                <span class={`small tone-${changeTone(t.change_percent)}`}>{t.change_percent === null && t.previous > 0 ? 'earlier data partial' : formatChange(t.change_percent)} <span class="muted">vs previous {formatNumber(t.previous, { compact: true })}</span></span>
                <span class="muted small">{formatDate(t.start)} – {formatDate(t.end)}</span>
              </div>
              <div class="card stat">
                <span class="stat-label">Keywords in top 10</span>
                <span class="stat-value">{formatNumber(d.keyword_rankings.top_10)}</span>
                <span class="muted small">{formatNumber(d.keyword_rankings.top_3)} in top 3 · {formatNumber(d.keyword_rankings.total_tracked)} tracked</span>
              </div>
              <div class="card stat">
                <span class="stat-label">Tasks completed</span>
                <span class="stat-value">{formatNumber(d.tasks_completed.current_period)}</span>
                {/* Counted by the API's periods: the 28 days' count is its 30 days'. */}
                <span class="muted small">in the last {period.api === '30d' ? '30 days' : period.label} · {formatNumber(d.tasks_completed.total)} in total</span>
              </div>
              <div class="card stat">
                <span class="stat-label">Health score</span>
                <Score value={d.health_score} size="lg" />
              </div>
            </div>
          );
        }}
      </Async>
      <h2 class="section-title">Trends</h2>
      <Async state={trends} label="Loading trends">
        {(all) => (
          <div class="charts">
            {all.map((trend, i) => {
              const m = METRICS[i]!;
              // The bounce rate (a share, 0.42) is charted as the engagement rate the Performance page shows, in percent.
              const inPeriod = lastDays(trend.data_points, trend.end, days);
              const points = 'engagement' in m ? inPeriod.map((p) => ({ date: p.date, value: engagementPercent(p.value) })) : inPeriod;
              const values = points.map((p) => p.value);
              const total = values.reduce((a, b) => a + b, 0);
              const avg = values.length ? total / values.length : undefined;
              const digits = 'digits' in m ? m.digits : 0;
              const format = (v: number) => `${formatNumber(v, { digits })}${'engagement' in m ? '%' : ''}`;
              return (
                <figure class="card chart-card">
                  <figcaption>
                    <span class="chart-title">{m.title}</span> <span class="muted small">{m.unit}</span>
                  </figcaption>
                  {points.length === 0
                    ? <Empty title="No data for this period"><p class="small">Link a {m.metric === 'organic_traffic' || m.metric === 'keyword_positions' ? 'Search Console' : 'Google Analytics'} property in Settings.</p></Empty>
                    : (
                      <TrendChart
                        points={points} label={m.title} color={m.color} invert={'invert' in m} format={format}
                        // The key at rest: a count's total and daily average; a position's or rate's average over the period.
                        summary={'sum' in m ? { value: formatNumber(total), note: `in total, ${formatNumber(avg)} a day on average` } : { value: format(avg ?? 0), note: 'on average' }}
                      />
                    )}
                </figure>
              );
            })}
          </div>
        )}
      </Async>
    </>
  );
}
