import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { TrendChart } from '../components/chart.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, Empty, PageHeader, Score, useAsync } from '../components/ui.tsx';
import { changeTone, formatChange, formatNumber } from '../lib/format.ts';

const PERIODS = [
  { value: '7d', label: '7 days' }, { value: '30d', label: '30 days' }, { value: '90d', label: '90 days' }, { value: '12m', label: '12 months' },
] as const;
type Period = (typeof PERIODS)[number]['value'];
const METRICS = [
  { metric: 'organic_traffic', title: 'Organic traffic', unit: 'clicks a day', color: '#2557d6', sum: true },
  { metric: 'keyword_positions', title: 'Average position', unit: 'lower is better', color: '#7c3aed', invert: true, digits: 1 },
  { metric: 'conversions', title: 'Conversions', unit: 'a day', color: '#047857', sum: true },
  { metric: 'page_views', title: 'Page views', unit: 'a day', color: '#b45309', sum: true },
  { metric: 'bounce_rate', title: 'Bounce rate', unit: '% of sessions', color: '#be123c', digits: 1, percent: true },
] as const;

export function AnalyticsPage() {
  const { query, path, route } = useLocation();
  const period = (PERIODS.some((p) => p.value === query.period) ? query.period : '30d') as Period;
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
              <button type="button" role="radio" aria-checked={period === p.value} onClick={() => route(`${path}?site=${site.id}&period=${p.value}`)}>{p.label}</button>
            ))}
          </div>
          <Dashboard siteId={site.id} period={period} />
        </section>
      )}
    </WithSite>
  );
}

function Dashboard({ siteId, period }: { siteId: string; period: Period }) {
  const dashboard = useAsync(async () => unwrap(await api.GET('/api/v1/analytics/dashboard', { params: { query: { site_id: siteId, period } } })), [siteId, period]);
  const trends = useAsync(async () => Promise.all(METRICS.map(async (m) => unwrap(await api.GET('/api/v1/analytics/trends', { params: { query: { site_id: siteId, period, metric: m.metric } } })))), [siteId, period]);
  return (
    <>
      <Async state={dashboard} label="Loading the dashboard">
        {(d) => {
          const t = d.organic_traffic;
          return (
            <div class="cards">
              <div class="card stat">
                <span class="stat-label">Organic traffic</span>
                <span class="stat-value">{formatNumber(t.current, { compact: true })}</span>
                <span class={`small tone-${changeTone(t.change_percent)}`}>{t.change_percent === null && t.previous > 0 ? 'earlier data partial' : formatChange(t.change_percent)} <span class="muted">vs previous {formatNumber(t.previous, { compact: true })}</span></span>
              </div>
              <div class="card stat">
                <span class="stat-label">Keywords in top 10</span>
                <span class="stat-value">{formatNumber(d.keyword_rankings.top_10)}</span>
                <span class="muted small">{formatNumber(d.keyword_rankings.top_3)} in top 3 · {formatNumber(d.keyword_rankings.total_tracked)} tracked</span>
              </div>
              <div class="card stat">
                <span class="stat-label">Tasks completed</span>
                <span class="stat-value">{formatNumber(d.tasks_completed.current_period)}</span>
                <span class="muted small">{formatNumber(d.tasks_completed.total)} in total</span>
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
              // Bounce rate comes as a share (0.42); people read it as a percentage.
              const points = 'percent' in m ? trend.data_points.map((p) => ({ date: p.date, value: p.value <= 1 ? p.value * 100 : p.value })) : trend.data_points;
              const values = points.map((p) => p.value);
              const total = values.reduce((a, b) => a + b, 0);
              const avg = values.length ? total / values.length : undefined;
              const digits = 'digits' in m ? m.digits : 0;
              const format = (v: number) => `${formatNumber(v, { digits })}${'percent' in m ? '%' : ''}`;
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
