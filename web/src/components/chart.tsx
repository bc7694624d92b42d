import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** One metric over time (uPlot), sized to its container; the figure's caption names it for screen readers. */
export function TrendChart({ points, label, color = '#2557d6', invert = false, range }: {
  /** Days (YYYY-MM-DD) or instants (ISO 8601), one value each. */
  points: Array<{ date: string; value: number }>;
  label: string; color?: string; invert?: boolean;
  /** A fixed value axis (a score's 0-100), else fitted to the values. */
  range?: [number, number];
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || points.length === 0) return;
    const xs = points.map((p) => Date.parse(p.date.length === 10 ? `${p.date}T00:00:00Z` : p.date) / 1000);
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
    }, [xs, ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 180 }));
    resize.observe(el);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [points, label, color, invert, range?.[0], range?.[1]]);
  return <div class="chart" ref={ref} aria-hidden="true" />;
}
