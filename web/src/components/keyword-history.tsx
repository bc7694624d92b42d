import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api, unwrap } from '../api/client.ts';
import type { paths } from '../generated/api';
import { formatDate, formatNumber } from '../lib/format.ts';
import { isolatedDays, positionSeries, worstPosition } from '../lib/position-series.ts';
import { DialogHead, KeywordDialog } from './keyword-dialog.tsx';
import { Async, Empty, useAsync } from './ui.tsx';

type Period = NonNullable<NonNullable<paths['/api/v1/keywords/{keyword_id}/history']['get']['parameters']['query']>['period']>;
type History = paths['/api/v1/keywords/{keyword_id}/history']['get']['responses'][200]['content']['application/json'];
type Day = History['days'][number];

const PERIODS: Array<{ value: Period; label: string }> = [
  { value: '7d', label: '7 days' }, { value: '28d', label: '28 days' }, { value: '3m', label: '3 months' }, { value: '12m', label: '12 months' }, { value: '16m', label: '16 months' },
];
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const POSITION = '#7c3aed';
const CLICKS = '#2557d6';
const IMPRESSIONS = '#b45309';
const MARKER = '#be123c';
/** A page's address without its site: "/guides/roses/". */
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '') || '/';

/**
 * One keyword's rank history in a dialog: its position by day, clicks and impressions, the days its page changed, the
 * totals; and, for an editor, the way to stop tracking it (at the dialog's foot, away from the list's everyday actions).
 */
export function KeywordHistory({ keyword, onClose, onRemove }: { keyword: { id: string; keyword: string }; onClose: () => void; onRemove?: () => void }) {
  const [period, setPeriod] = useState<Period>('28d');
  const history = useAsync(async () => unwrap(await api.GET('/api/v1/keywords/{keyword_id}/history', { params: { path: { keyword_id: keyword.id }, query: { period } } })), [keyword.id, period]);
  const headingId = `history-title-${keyword.id}`;
  return (
    <KeywordDialog labelledBy={headingId} onClose={onClose} wide>
      <DialogHead id={headingId} title={<>Rank history of “{keyword.keyword}”</>} onClose={onClose} />
      <div class="segmented" role="radiogroup" aria-label="Period">
        {PERIODS.map((p) => <button type="button" role="radio" aria-checked={period === p.value} onClick={() => setPeriod(p.value)}>{p.label}</button>)}
      </div>
      <Async state={history} label="Loading the rank history">
        {(h) => <HistoryBody history={h} />}
      </Async>
      {onRemove && (
        <div class="kw-remove">
          <p class="muted small">No longer of interest? Stop tracking it: it leaves the list (you are asked first).</p>
          <button type="button" class="btn btn-small btn-danger-quiet" onClick={onRemove} aria-label={`Stop tracking ${keyword.keyword}`}>Stop tracking…</button>
        </div>
      )}
    </KeywordDialog>
  );
}

function HistoryBody({ history: h }: { history: History }) {
  const ranked = h.days.filter((d) => d.position !== null);
  const seen = h.last_seen ? `Search Console last reported it on ${formatDate(h.last_seen)}.` : 'Search Console has not reported this query yet.';
  const lastSeen = h.last_seen ? `last reported on ${formatDate(h.last_seen)}` : 'not reported yet';
  return (
    <>
      <p class="kw-period muted small">
        {formatDate(h.period.start)} to {formatDate(h.period.end)} ({formatNumber(h.period.days)} days). {h.data_through ? <>Search Console’s data runs to {formatDate(h.data_through)}; this query was {lastSeen}.</> : 'No Search Console data is synced for this site yet.'}
      </p>
      {h.source === 'manual' && <p class="notice notice-info">Added by hand: its position comes from Search Console. {seen}</p>}
      <div class="cards kw-totals">
        <div class="card stat"><span class="stat-label">Clicks</span><span class="stat-value">{formatNumber(h.totals.clicks)}</span></div>
        <div class="card stat"><span class="stat-label">Impressions</span><span class="stat-value">{formatNumber(h.totals.impressions, { compact: true })}</span></div>
        <div class="card stat"><span class="stat-label">Average position <span class="muted small">(weighted by impressions)</span></span><span class="stat-value">{formatNumber(h.totals.position, { digits: 1 })}</span></div>
        <div class="card stat"><span class="stat-label">Best position</span><span class="stat-value">{formatNumber(h.totals.best_position, { digits: 1 })}</span></div>
      </div>
      {ranked.length === 0 ? (
        <Empty title="No position in this period">
          <p>{h.last_seen ? 'Search Console reported no impression for this query in these days. Choose a longer period.' : 'It shows here once Search Console reports the query for this site (its data comes a few days late).'}</p>
        </Empty>
      ) : (
        <>
          <HistoryCharts history={h} />
          <PageChanges history={h} />
          <DaysTable days={h.days} />
        </>
      )}
    </>
  );
}

const xAxis: uPlot.Axis = {
  // Days as the rest of the app writes them ("28 Oct"), not uPlot's US "10/28".
  stroke: '#4b5563', grid: { show: false }, ticks: { stroke: '#d1d5db' }, font: '12px system-ui, sans-serif', values: (_u, ticks) => ticks.map((t) => DAY.format(new Date(t * 1000)).replace('Sept', 'Sep')),
};
const yAxis = (scale: string, extra: Partial<uPlot.Axis> = {}): uPlot.Axis => ({
  scale, stroke: '#4b5563', grid: { stroke: '#eef0f3' }, ticks: { show: false }, size: 48, font: '12px system-ui, sans-serif',
  labelSize: 20, labelFont: '600 12px system-ui, sans-serif', ...extra,
});
/** The same axis on the right, unlabelled and without grid: every chart's plot spans the same width, so the days line up. */
const rightAxis = ({ label: _label, ...left }: uPlot.Axis): uPlot.Axis => ({ ...left, side: 1, grid: { show: false } });
const counts = (_u: uPlot, ticks: number[]) => ticks.map((t) => formatNumber(t, { compact: true }));
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

/**
 * The position by day (the axis upside down: 1 at the top, as a ranking reads) with a dashed line on each day another page
 * took over; under it clicks by day and impressions by day, each in a small chart of its own with its own labelled axis
 * (on one scale, or on two over each other, the two lines lay on top of each other: a few clicks against thousands of
 * impressions). The cursor of one follows the others and the line under them says the day's figures and page.
 */
function HistoryCharts({ history: h }: { history: History }) {
  const positionRef = useRef<HTMLDivElement>(null);
  const clicksRef = useRef<HTMLDivElement>(null);
  const impressionsRef = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<Day | undefined>();
  useEffect(() => {
    const positionEl = positionRef.current;
    const clicksEl = clicksRef.current;
    const impressionsEl = impressionsRef.current;
    if (!positionEl || !clicksEl || !impressionsEl) return;
    const xs = h.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const changes = h.page_changes.map((c) => Date.parse(`${c.date}T00:00:00Z`) / 1000);
    const cursor = (): uPlot.Cursor => ({ y: false, points: { size: 7 }, sync: { key: `keyword-${h.keyword_id}` } });
    const onCursor = (u: uPlot) => setHovered(u.cursor.idx === null || u.cursor.idx === undefined ? undefined : h.days[u.cursor.idx]);
    const dots = h.days.length <= 31;
    const markers = (u: uPlot) => {
      const { ctx, bbox } = u;
      ctx.save();
      ctx.strokeStyle = MARKER;
      ctx.fillStyle = MARKER;
      ctx.lineWidth = 1.5 * uPlot.pxRatio;
      ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
      for (const at of changes) {
        const x = Math.round(u.valToPos(at, 'x', true));
        ctx.beginPath();
        ctx.moveTo(x, bbox.top);
        ctx.lineTo(x, bbox.top + bbox.height);
        ctx.stroke();
        const s = 5 * uPlot.pxRatio;
        ctx.beginPath();
        ctx.moveTo(x - s, bbox.top);
        ctx.lineTo(x + s, bbox.top);
        ctx.lineTo(x, bbox.top + s * 1.4);
        ctx.closePath();
        ctx.fill();
      }
      ctx.restore();
    };
    const width = (el: HTMLElement) => Math.max(240, el.clientWidth);
    // A day without impressions has no position: a gap in the line, not a 0 nor a line across it.
    const positions = positionSeries(h.days);
    const worst = worstPosition(positions);
    // 1 always at the top, then round steps down to the worst day.
    const step = [1, 2, 5, 10, 20, 25, 50].find((n) => worst / n <= 5) ?? 100;
    // (To the step after the worst day: a day at 17 drawn on the chart's bottom edge under a last gridline at 15 read as off it.)
    const bottom = Math.max(step, Math.ceil(worst / step) * step);
    const splits = () => [1, ...Array.from({ length: bottom / step }, (_, i) => (i + 1) * step).filter((t) => t > 1)];
    const positionAxis = yAxis('y', { label: 'Position', splits, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => formatNumber(t)) });
    const POSITION_HEIGHT = 180;
    const COUNT_HEIGHT = 120;
    const position = new uPlot({
      width: width(positionEl), height: POSITION_HEIGHT, legend: { show: false }, cursor: cursor(),
      scales: { x: { time: true }, y: { dir: -1, range: () => [1, bottom] } },
      axes: [xAxis, positionAxis, rightAxis(positionAxis)],
      // A long period draws no dots, except for a day ranked alone between gaps (a line of one point shows nothing).
      series: [{}, { label: 'Position', stroke: POSITION, width: 2, spanGaps: false, points: { show: dots, ...(dots ? {} : { filter: isolatedDays(positions) }) } }],
      hooks: { draw: [markers], setCursor: [onCursor] },
    }, [xs, positions], positionEl);
    // Clicks and impressions: a count from 0, each on its own scale and axis.
    const countChart = (el: HTMLElement, label: string, color: string, values: number[]) => {
      const axis = yAxis('n', { label, incrs: COUNT_STEPS, values: counts });
      return new uPlot({
        width: width(el), height: COUNT_HEIGHT, legend: { show: false }, cursor: cursor(),
        scales: { x: { time: true }, n: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [xAxis, axis, rightAxis(axis)],
        series: [{}, { label, scale: 'n', stroke: color, width: 2, fill: `${color}14`, points: { show: dots } }],
        hooks: { draw: [markers], setCursor: [onCursor] },
      }, [xs, values], el);
    };
    const clicks = countChart(clicksEl, 'Clicks', CLICKS, h.days.map((d) => d.clicks));
    const impressions = countChart(impressionsEl, 'Impressions', IMPRESSIONS, h.days.map((d) => d.impressions));
    const resize = new ResizeObserver(() => {
      position.setSize({ width: width(positionEl), height: POSITION_HEIGHT });
      clicks.setSize({ width: width(clicksEl), height: COUNT_HEIGHT });
      impressions.setSize({ width: width(impressionsEl), height: COUNT_HEIGHT });
    });
    resize.observe(positionEl);
    return () => { resize.disconnect(); position.destroy(); clicks.destroy(); impressions.destroy(); };
  }, [h]);
  const most = (key: 'clicks' | 'impressions') => Math.max(0, ...h.days.map((d) => d[key]));
  return (
    <div class="kw-charts">
      <figure class="chart-card kw-chart">
        <figcaption>
          <span class="chart-title">Position by day</span> <span class="muted small">lower is better: 1 is the top of Google’s results</span>
          {h.page_changes.length > 0 && <span class="chart-summary"><span class="kw-key kw-key-marker" aria-hidden="true" /> the day another page took over</span>}
        </figcaption>
        <div class="chart kw-chart-position" ref={positionRef} aria-hidden="true" />
      </figure>
      {([['clicks', 'Clicks', clicksRef], ['impressions', 'Impressions', impressionsRef]] as const).map(([key, name, ref]) => (
        <figure class="chart-card kw-chart kw-chart-count" key={key}>
          <figcaption>
            <span class="chart-title">{name} by day</span> <span class="muted small">{formatNumber(h.totals[key])} in these days, at most {formatNumber(most(key))} a day</span>
          </figcaption>
          <div class={`chart kw-chart-${key}`} ref={ref} aria-hidden="true" />
        </figure>
      ))}
      <p class="kw-readout small" aria-hidden="true">
        {hovered
          ? <><strong>{formatDate(hovered.date)}</strong>: {hovered.position === null || hovered.impressions === 0 ? 'no position (no impressions)' : `position ${formatNumber(hovered.position, { digits: 1 })}`}, {formatNumber(hovered.clicks)} clicks, {formatNumber(hovered.impressions)} impressions{hovered.page && <>, <span class="url">{pathOf(hovered.page)}</span></>}</>
          : <span class="muted">Point at a chart to see a day’s figures and its page.</span>}
      </p>
    </div>
  );
}

function PageChanges({ history: h }: { history: History }) {
  const first = h.days.find((d) => d.page !== null)?.page;
  return (
    <section class="kw-page-changes" aria-labelledby={`changes-${h.keyword_id}`}>
      <h3 id={`changes-${h.keyword_id}`}>Ranking page</h3>
      {h.page_changes.length === 0
        ? <p class="small">{first ? <>The same page all along: <a class="url" href={first} target="_blank" rel="noopener noreferrer">{pathOf(first)}</a></> : 'No page reported in this period.'}</p>
        : (
          <ol class="plain-list kw-changes">
            {first && <li class="small"><span class="muted">From {formatDate(h.days.find((d) => d.page !== null)!.date)}:</span> <a class="url" href={first} target="_blank" rel="noopener noreferrer">{pathOf(first)}</a></li>}
            {h.page_changes.map((c) => (
              <li class="small">
                <span class="muted">{formatDate(c.date)}:</span> <span class="url">{pathOf(c.from)}</span> → <a class="url" href={c.to} target="_blank" rel="noopener noreferrer">{pathOf(c.to)}</a>
              </li>
            ))}
          </ol>
        )}
    </section>
  );
}

/** Every day's figures as a table, folded (a long period has hundreds of rows): the charts' data for a screen reader, or to read exactly. */
function DaysTable({ days }: { days: Day[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="kw-days" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>The days as a table</summary>
      {open && (
        <div class="table-wrap">
          <table class="table compact">
            <caption class="sr-only">Position, clicks, impressions and page by day, newest first</caption>
            <thead><tr><th scope="col">Day</th><th scope="col" class="num">Position</th><th scope="col" class="num">Clicks</th><th scope="col" class="num">Impressions</th><th scope="col">Page</th></tr></thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr>
                  <td>{formatDate(d.date)}</td>
                  <td class="num">{d.position === null ? <span class="muted">—</span> : formatNumber(d.position, { digits: 1 })}</td>
                  <td class="num">{formatNumber(d.clicks)}</td>
                  <td class="num">{formatNumber(d.impressions)}</td>
                  <td class="url">{d.page ? pathOf(d.page) : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
