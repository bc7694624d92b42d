import type { paths } from '../generated/api';
import { formatDate } from '../lib/format.ts';
import type { ChartMarker } from './comparison-chart.tsx';
import '../styles/performance.css';

export type Changes = paths['/api/v1/analytics/changes']['get']['responses'][200]['content']['application/json'];
type Change = Changes['items'][number];

const EVENT: Record<Change['event'], string> = { completed: 'completed', verified: 'verified', rolled_back: 'rolled back' };
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** "12 Nov": a change's Search Console day (the chart's), without the year the period already gives. */
const day = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`)).replace('Sept', 'Sep');
const href = (c: Change) => `/tasks/${c.task_id}`;

/** One marker a day: its changes named together, linking to the first one's task. */
export function changeMarkers(items: Change[]): ChartMarker[] {
  const byDay = new Map<string, Change[]>();
  for (const c of items) byDay.set(c.date, [...(byDay.get(c.date) ?? []), c]);
  return [...byDay].map(([date, changes]) => ({
    date, href: href(changes[0]!),
    label: `${day(date)}: ${changes.map((c) => `${c.title} (${EVENT[c.event]})`).join('; ')}`,
  }));
}

/** A task's changes of one day together ("completed, verified"): one line a task a day, in the order they happened. */
function byTaskAndDay(items: Change[]): Array<{ first: Change; events: string[] }> {
  const groups = new Map<string, { first: Change; events: string[] }>();
  for (const c of items) {
    const key = `${c.date} ${c.task_id}`;
    const group = groups.get(key) ?? { first: c, events: [] };
    group.events.push(EVENT[c.event]);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The changes under the chart, each linking to its task: what the markers show, readable without the chart. */
export function ChangesList({ items }: { items: Change[] }) {
  if (items.length === 0) return null;
  return (
    <div class="chart-changes">
      <h3 id="h-changes">Changes in this period</h3>
      <ul aria-labelledby="h-changes">
        {byTaskAndDay(items).map(({ first: c, events }) => (
          <li key={`${c.date}-${c.task_id}`}>
            <time dateTime={c.date} title={formatDate(c.at, true)}>{day(c.date)}</time>
            <span>— <a href={href(c)}>{c.title}</a> <span class="muted">({events.join(', ')})</span></span>
          </li>
        ))}
      </ul>
    </div>
  );
}
