import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ChartKey } from './chart-key.tsx';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const instant = (date: string) => new Date(date.length === 10 ? `${date}T00:00:00Z` : date);

/**
 * One metric over time (uPlot), sized to its container; the figure's caption names it for screen readers. With a
 * summary, a key above it gives the period's figure at rest and the day's under the pointer.
 */
export function TrendChart({ points, label, color = '#2557d6', invert = false, range, format, summary }: {
  /** Days (YYYY-MM-DD) or instants (ISO 8601), one value each. */
  points: Array<{ date: string; value: number }>;
  label: string; color?: string; invert?: boolean;
  /** A fixed value axis (a score's 0-100), else fitted to the values. */
  range?: [number, number];
  /** How a day's value reads in the key ("1,234", "42.1%"). */
  format?: (value: number) => string;
  /** The period's figure, for the key at rest: "1,234" and "in total, 41 a day on average". */
  summary?: { value: string; note: string };
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || points.length === 0) return;
    const xs = points.map((p) => instant(p.date).getTime() / 1000);
    const ys = points.map((p) => p.value);
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot({
      width: width(), height: 180, legend: { show: false }, cursor: { y: false },
      scales: { x: { time: true }, y: { dir: invert ? -1 : 1, ...(range ? { range } : {}) } },
      axes: [
        // Days as the rest of the app writes them ("28 Oct"), not uPlot's US "10/28".
        { stroke: '#4b5563', grid: { show: false }, ticks: { stroke: '#d1d5db' }, font: '12px system-ui, sans-serif', values: (_u, ticks) => ticks.map((t) => DAY.format(new Date(t * 1000))) },
        { stroke: '#4b5563', grid: { stroke: '#eef0f3' }, ticks: { show: false }, size: 52, font: '12px system-ui, sans-serif' },
      ],
      // Few points (audits) are marked; a daily series is a line.
      series: [{}, { label, stroke: color, width: 2, fill: `${color}14`, points: { show: points.length <= 40 } }],
      hooks: { setCursor: [(u) => setHovered(u.cursor.idx ?? null)] },
    }, [xs, ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 180 }));
    resize.observe(el);
    return () => { resize.disconnect(); plot.destroy(); setHovered(null); };
  }, [points, label, color, invert, range?.[0], range?.[1]]);
  const point = hovered === null ? undefined : points[hovered];
  const when = (p: { date: string }) => WEEKDAY.format(instant(p.date)).replace(',', '').replace('Sept', 'Sep');
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <>
      {summary && format && first && last && (
        <ChartKey
          items={[point
            ? { when: when(point), value: format(point.value) }
            : { when: `${DAY.format(instant(first.date))} – ${DAY.format(instant(last.date))}`.replaceAll('Sept', 'Sep'), value: summary.value, note: summary.note }]}
        />
      )}
      <div class="chart" ref={ref} aria-hidden="true" />
    </>
  );
}
