import type { ComponentChildren } from 'preact';

/** One line of a chart's key: how the line is drawn, what it is (a chart of one line, named by its caption, needs neither), when, and its value. */
export type KeyItem = { name?: string; color?: string; dashed?: boolean; when?: string; value: ComponentChildren; note?: string };

/**
 * A chart's key, under the app's control rather than uPlot's (whose key read "Clicks:" with nothing after it while the
 * pointer was elsewhere): each line names its series and gives a value, the period's figure at rest and the day's
 * under the pointer. Read by screen readers as it is at rest (the charts themselves are pictures).
 */
export function ChartKey({ items, hint }: { items: KeyItem[]; hint?: string }) {
  return (
    <ul class="chart-key">
      {items.map((item) => (
        <li>
          {/* Spaces between the parts, so that they read (and copy) as words: "Clicks 7 Nov – 4 Dec 3,195 in total". */}
          {item.color && <span class={`chart-key-line${item.dashed ? ' chart-key-dashed' : ''}`} style={`--key: ${item.color}`} aria-hidden="true" />}
          {item.name && <><span class="chart-key-name">{item.name}</span>{' '}</>}
          {item.when && <><span class="chart-key-when">{item.when}</span>{' '}</>}
          <strong class="chart-key-value">{item.value}</strong>
          {item.note && <>{' '}<span class="chart-key-note">{item.note}</span></>}
        </li>
      ))}
      {hint && <li class="chart-key-hint" aria-hidden="true">{hint}</li>}
    </ul>
  );
}
