import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ChartKey, type KeyItem } from './chart-key.tsx';
import '../styles/performance.css';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const at = (date: string) => new Date(`${date}T00:00:00Z`);
/** "7 Nov – 4 Dec" (a day's "Tue 15 Sep 2026"): as the rest of the app writes them, "Sep" not "Sept". */
const span = (start: string, end: string) => `${DAY.format(at(start))} – ${DAY.format(at(end))}`.replaceAll('Sept', 'Sep');
const NOTE = { total: 'in total', average: 'on average' } as const;
const day = (date: string) => WEEKDAY.format(at(date)).replace(',', '').replace('Sept', 'Sep');

/** A day with changes on it: a marker at the chart's foot, naming them on hover and focus, linking to the (first) task. */
export type ChartMarker = { date: string; href: string; label: string };

/**
 * A metric by day over a period, with the comparison period's day in the same place drawn
 * dashed beside it (as Search Console draws its comparison). The key above it gives each period's
 * figure (its total or average, as the totals above the chart) and, under the pointer, the day's
 * of both with their dates. Markers (the site's changes) sit at the foot of their day; the page
 * lists them under the chart too.
 */
export function ComparisonChart({ days, label, color, invert = false, format, summary, markers = [], height = 220 }: {
  days: Array<{ date: string; value: number | null; previous?: { date: string; value: number | null } | null; final: boolean }>;
  label: string; color: string; invert?: boolean;
  format: (value: number | null) => string;
  /** The periods' figures, for the key at rest: a count's total, or a rate's or position's average. */
  summary: { current: number | null; previous?: number | null; kind: 'total' | 'average' };
  markers?: ChartMarker[];
  height?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || days.length === 0) return;
    const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const current = days.map((d) => d.value);
    const previous = days.map((d) => d.previous?.value ?? null);
    const hasPrevious = days.some((d) => d.previous);
    const width = () => Math.max(260, el.clientWidth);
    const value = (_: uPlot, v: number | null) => format(v);
    // The markers: links over the plot (uPlot's overlay), placed on their day whenever the chart is drawn.
    const inPeriod = markers.filter((m) => m.date >= days[0]!.date && m.date <= days[days.length - 1]!.date);
    const links = inPeriod.map((m) => {
      const a = document.createElement('a');
      a.className = 'chart-marker';
      a.href = m.href;
      a.setAttribute('aria-label', m.label);
      const tip = document.createElement('span');
      tip.className = 'chart-marker-tip';
      tip.setAttribute('aria-hidden', 'true');
      tip.textContent = m.label;
      a.append(tip);
      return a;
    });
    const place = (u: uPlot) => {
      const plotWidth = u.over.clientWidth;
      inPeriod.forEach((m, i) => {
        const x = u.valToPos(Date.parse(`${m.date}T00:00:00Z`) / 1000, 'x');
        const a = links[i]!;
        a.style.left = `${x}px`;
        // A tip near an edge opens inwards, so it stays on the screen.
        a.classList.toggle('chart-marker-end', x > plotWidth - 140);
        a.classList.toggle('chart-marker-start', x < 140);
      });
    };
    const plot = new uPlot({
      width: width(), height,
      legend: { show: false },
      cursor: { y: false, points: { size: 7 } },
      scales: { x: { time: true }, y: { dir: invert ? -1 : 1 } },
      axes: [
        // Days as the rest of the app writes them ("28 Oct"), not uPlot's US "10/28".
        { stroke: '#4b5563', grid: { show: false }, ticks: { stroke: '#d1d5db' }, font: '12px system-ui, sans-serif', values: (_u, ticks) => ticks.map((t) => DAY.format(new Date(t * 1000))) },
        { stroke: '#4b5563', grid: { stroke: '#eef0f3' }, ticks: { show: false }, size: 56, font: '12px system-ui, sans-serif', values: (_u, ticks) => ticks.map((t) => format(t)) },
      ],
      series: [
        { label: 'Day', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })) },
        { label, stroke: color, width: 2, fill: `${color}14`, value, points: { show: days.length <= 31 } },
        ...(hasPrevious ? [{ label: 'Comparison period', stroke: '#6b7280', width: 1.5, dash: [6, 4], value, points: { show: false } }] : []),
      ],
      hooks: { draw: [place], setCursor: [(u) => setHovered(u.cursor.idx ?? null)] },
    }, [xs, current, ...(hasPrevious ? [previous] : [])], el);
    plot.over.append(...links);
    place(plot);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }));
    resize.observe(el);
    return () => { resize.disconnect(); plot.destroy(); setHovered(null); };
  }, [days, label, color, invert, format, markers, height]);
  return (
    <div class="chart-compare">
      <ChartKey items={keyItems(days, label, color, format, summary, hovered)} hint={hovered === null && days.length > 0 ? 'Hover over or tap a day for its figures.' : undefined} />
      {/* Not hidden from screen readers: the change markers on it are links. */}
      <div class="chart" ref={ref} style={`min-height: ${height}px`} />
    </div>
  );
}

/** The key's lines: the periods and their figures at rest, the day under the pointer and its comparison day while hovering. */
function keyItems(days: Parameters<typeof ComparisonChart>[0]['days'], label: string, color: string, format: (v: number | null) => string,
  summary: Parameters<typeof ComparisonChart>[0]['summary'], hovered: number | null): KeyItem[] {
  if (days.length === 0) return [];
  const previous = days.filter((d) => d.previous).map((d) => d.previous!);
  const comparison = 'Comparison';
  const point = hovered === null ? undefined : days[hovered];
  if (point) {
    return [
      { name: label, color, when: day(point.date), value: format(point.value), note: point.final ? undefined : 'not final yet' },
      ...(point.previous ? [{ name: comparison, color: '#6b7280', dashed: true, when: day(point.previous.date), value: format(point.previous.value) }] : []),
    ];
  }
  return [
    { name: label, color, when: span(days[0]!.date, days[days.length - 1]!.date), value: format(summary.current), note: NOTE[summary.kind] },
    ...(previous.length > 0 && summary.previous !== undefined
      ? [{ name: comparison, color: '#6b7280', dashed: true, when: span(previous[0]!.date, previous[previous.length - 1]!.date), value: format(summary.previous), note: NOTE[summary.kind] }]
      : []),
  ];
}
