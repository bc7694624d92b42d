import { useMemo } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { paths } from '../generated/api';
import { changeTone, formatChange, formatDate, formatNumber } from '../lib/format.ts';
import { METRIC_NAMES, signed } from '../lib/performance.ts';
import { ComparisonChart } from './comparison-chart.tsx';
import { Async, useAsync } from './ui.tsx';
import '../styles/performance.css';

type EngagementQuery = NonNullable<paths['/api/v1/analytics/engagement']['get']['parameters']['query']>;
type Engagement = paths['/api/v1/analytics/engagement']['get']['responses'][200]['content']['application/json'];
type Key = keyof Engagement['totals']['current'];

const percent = (v: number | null) => (v === null ? '—' : `${formatNumber(v * 100, { digits: 1 })}%`);
const count = (v: number | null) => formatNumber(v, { compact: true });
const GA4_METRICS: Array<{ key: Key; title: string; format: (v: number | null) => string }> = [
  { key: 'sessions', title: METRIC_NAMES.sessions, format: count },
  { key: 'page_views', title: METRIC_NAMES.page_views, format: count },
  { key: 'engagement_rate', title: METRIC_NAMES.engagement_rate, format: percent },
  { key: 'key_events', title: METRIC_NAMES.key_events, format: (v) => formatNumber(v, { compact: true, ...(v !== null && !Number.isInteger(v) ? { digits: 1 } : {}) }) },
];
const SESSIONS_COLOR = '#0e7490';

/**
 * GA4's side of the report: sessions, page views, engagement rate and key events for the same period and comparison,
 * with their change, and sessions by day beside the comparison's; or how to connect it. GA4 knows nothing of Search
 * Console's queries, pages, countries and devices: with one of those filters set, it says that its figures are the
 * whole site's.
 */
export function EngagementSection({ query, filtered = false }: { query: EngagementQuery; filtered?: boolean }) {
  const state = useAsync(async () => unwrap(await api.GET('/api/v1/analytics/engagement', { params: { query } })), [JSON.stringify(query)]);
  return (
    <section class="ga4" aria-labelledby="h-ga4">
      <h2 id="h-ga4" class="section-title">Google Analytics</h2>
      <Async state={state} label="Loading Google Analytics">
        {(e) => (e.connected ? <Connected e={e} filtered={filtered} /> : (
          <p class="notice notice-info">
            <span>Google Analytics is not connected for this site. Connect Google in <a href="/settings">Settings</a> (Google Search Console and Analytics) and link the site’s GA4 property: its sessions, page views, engagement and key events then show here beside Search Console’s figures.</span>
          </p>
        ))}
      </Async>
    </section>
  );
}

function Connected({ e, filtered }: { e: Engagement; filtered: boolean }) {
  const days = useMemo(() => e.days.map((d) => ({ date: d.date, final: d.final, value: d.final ? d.sessions : null, previous: d.previous ? { date: d.previous.date, value: d.previous.sessions } : null })), [e]);
  const lastFinal = [...e.days].reverse().find((d) => d.final)?.date;
  return (
    <>
      <p class="muted small">
        Visits from every source, as GA4 counts them, {formatDate(e.period.start)} – {formatDate(e.period.end)}
        {e.comparison && <> compared with {formatDate(e.comparison.start)} – {formatDate(e.comparison.end)}{!e.comparison.has_data && ' (GA4’s data does not reach back that far: its figures are partial)'}</>}.
      </p>
      {filtered && (
        <p class="notice notice-info small ga4-unfiltered">
          <span><strong>Not filtered:</strong> these are the whole site’s Google Analytics figures. The query, page, country and device filters above narrow Search Console’s figures only; GA4 does not report by them.</span>
        </p>
      )}
      <div class="cards ga4-cards" role="group" aria-label="Google Analytics totals">
        {GA4_METRICS.map((m) => {
          const change = e.totals.change?.[m.key];
          return (
            <div class="card stat">
              <span class="stat-label">{m.title}</span>
              <span class="stat-value">{m.format(e.totals.current[m.key])}</span>
              {e.totals.previous && (
                <span class={`small tone-${changeTone(change)}`}>
                  {m.key === 'engagement_rate' ? signed(change, ' pts') : formatChange(change)}{' '}
                  <span class="muted">vs {m.format(e.totals.previous[m.key])}</span>
                </span>
              )}
            </div>
          );
        })}
      </div>
      <figure class="card chart-card">
        <figcaption>
          <span class="chart-title">Sessions by day</span>
          {lastFinal && lastFinal < e.period.end && <span class="muted small"> · days after {formatDate(lastFinal)} are not synced yet</span>}
        </figcaption>
        <ComparisonChart days={days} label="Sessions" color={SESSIONS_COLOR} format={count} height={160} summary={{ current: e.totals.current.sessions, previous: e.totals.previous?.sessions, kind: 'total' }} />
      </figure>
    </>
  );
}
