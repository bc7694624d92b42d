import { useState } from 'preact/hooks';
import { COMPARE, FILTER_KEYS, MATCHES, PERIODS, SEGMENT_DIMENSIONS, SEGMENT_NOUN, segmentName, type Go, type PageQuery } from '../lib/performance.ts';
import { readRange } from '../lib/day-input.ts';
import '../styles/performance.css';

/**
 * The period (named, or custom dates: a row of its own, from and to with their labels, that wraps as a block on a phone)
 * and what it is compared with.
 */
export function PeriodControls({ state, go }: { state: PageQuery; go: Go }) {
  const [start, setStart] = useState(state.start ?? '');
  const [end, setEnd] = useState(state.end ?? '');
  const [tried, setTried] = useState(false);
  const custom = state.start !== undefined;
  // The days typed, said back in words (a browser's date field writes them as its locale does: 03/05/2026 is March or May).
  const read = readRange(start, end);
  const problem = 'error' in read && (tried || (start.length >= 8 && end.length >= 8)) ? read.error : undefined;
  return (
    <div class="report-controls">
      <div class="segmented" role="radiogroup" aria-label="Period">
        {PERIODS.map((p) => (
          <button type="button" role="radio" aria-checked={state.period === p.value} onClick={() => go({ period: p.value, start: undefined, end: undefined })}>{p.label}</button>
        ))}
      </div>
      <div class="report-range">
        <form class={`date-range${custom ? ' date-range-on' : ''}`} aria-labelledby="date-range-title" noValidate
          onSubmit={(e) => { e.preventDefault(); setTried(true); if ('start' in read) go({ period: undefined, start: read.start, end: read.end }); }}>
          <span class="date-range-title" id="date-range-title">Custom dates <span class="date-format" id="date-format">(YYYY-MM-DD)</span></span>
          <label class="date-field"><span>From</span><input type="text" inputMode="numeric" autoComplete="off" spellcheck={false} maxLength={10} placeholder="YYYY-MM-DD" value={start} aria-describedby="date-format date-read" aria-invalid={problem?.startsWith('From') ? 'true' : undefined} onInput={(e) => setStart(e.currentTarget.value)} /></label>
          <label class="date-field"><span>To</span><input type="text" inputMode="numeric" autoComplete="off" spellcheck={false} maxLength={10} placeholder="YYYY-MM-DD" value={end} aria-describedby="date-format date-read" aria-invalid={problem && !problem.startsWith('From') ? 'true' : undefined} onInput={(e) => setEnd(e.currentTarget.value)} /></label>
          <button type="submit" class={`btn btn-small${custom ? ' btn-primary' : ''}`}>{custom ? 'Update dates' : 'Apply dates'}</button>
          <p class={`date-read small${problem ? ' field-error' : ' muted'}`} id="date-read" aria-live="polite">{problem ?? ('text' in read ? read.text : '')}</p>
        </form>
        <label class="inline-select report-compare">Compare with{' '}
          <select value={state.compare} onChange={(e) => go({ compare: e.currentTarget.value })}>
            {COMPARE.map((c) => <option value={c.value}>{c.label}</option>)}
          </select>
        </label>
      </div>
    </div>
  );
}

/**
 * Search Console's filters: the query or the page contains, does not contain, or is a text; they narrow the whole report.
 * Search Console reports countries and devices apart from queries and pages: with a country or device chosen they are off.
 */
export function Filters({ state, go }: { state: PageQuery; go: Go }) {
  const segment = SEGMENT_DIMENSIONS.find((d) => state[d]);
  const current = (on: 'query' | 'page') => {
    const match = MATCHES.find((m) => state[`${on}_${m.value}` as keyof PageQuery] !== undefined);
    return { match: match?.value ?? 'contains', text: match ? String(state[`${on}_${match.value}` as keyof PageQuery]) : '' };
  };
  const [query, setQuery] = useState(current('query'));
  const [page, setPage] = useState(current('page'));
  const active = ['query', 'page'].filter((on) => MATCHES.some((m) => state[`${on}_${m.value}` as keyof PageQuery] !== undefined)).length;
  const apply = (e: Event) => {
    e.preventDefault();
    const changes: Partial<Record<keyof PageQuery, string | undefined>> = {};
    for (const [on, value] of [['query', query], ['page', page]] as const) {
      for (const m of MATCHES) changes[`${on}_${m.value}` as keyof PageQuery] = m.value === value.match && value.text.trim() ? value.text.trim() : undefined;
    }
    go(changes);
  };
  const clear = () => go(Object.fromEntries(['query', 'page'].flatMap((on) => MATCHES.map((m) => [`${on}_${m.value}`, undefined]))));
  return (
    <details class="card report-filters" open={active > 0}>
      <summary>Filters{active > 0 ? ` (${active} set)` : ''}</summary>
      <form onSubmit={apply}>
        {segment && (
          <p class="notice notice-info small" id="filters-off">
            Query and page filters do not combine with a {SEGMENT_NOUN[segment].one}: Search Console reports {SEGMENT_NOUN[segment].many} apart from queries and pages. Remove the {SEGMENT_NOUN[segment].one} {segmentName(segment, state[segment]!)} to filter by query or page.
          </p>
        )}
        <fieldset disabled={segment !== undefined} aria-describedby={segment ? 'filters-off' : undefined}>
        <legend class="sr-only">Query and page filters</legend>
        {([['query', 'Query', query, setQuery], ['page', 'Page', page, setPage]] as const).map(([on, label, value, set]) => (
          <div class="filter-row">
            <span class="filter-label" id={`f-${on}`}>{label}</span>
            <select aria-label={`${label}: how it matches`} value={value.match} onChange={(e) => set({ ...value, match: e.currentTarget.value as typeof value.match })}>
              {MATCHES.map((m) => <option value={m.value}>{m.label}</option>)}
            </select>
            <input type="text" aria-label={`${label}: text`} maxLength={200} value={value.text} placeholder={on === 'query' ? 'e.g. roses' : 'e.g. /blog/'} onInput={(e) => set({ ...value, text: e.currentTarget.value })} />
          </div>
        ))}
        <div class="form-actions">
          <button type="submit" class="btn btn-primary btn-small">Apply filters</button>
          {active > 0 && <button type="button" class="btn btn-small btn-ghost" onClick={clear}>Clear filters</button>}
        </div>
        </fieldset>
      </form>
    </details>
  );
}

/** What narrows the report now, each a chip that removes itself: the query and page filters, or a country or device. */
export function FilterChips({ state, go }: { state: PageQuery; go: Go }) {
  const chips: Array<{ text: string; remove: () => void }> = [];
  for (const key of FILTER_KEYS) {
    const value = state[key];
    if (value === undefined) continue;
    const [on, ...how] = key.split('_');
    const match = MATCHES.find((m) => m.value === how.join('_'))!;
    chips.push({ text: `${on === 'query' ? 'Query' : 'Page'} ${match.label} “${value}”`, remove: () => go({ [key]: undefined }) });
  }
  for (const dimension of SEGMENT_DIMENSIONS) {
    const key = state[dimension];
    if (key) chips.push({ text: `${SEGMENT_NOUN[dimension].title}: ${segmentName(dimension, key)}`, remove: () => go({ [dimension]: undefined }) });
  }
  if (chips.length === 0) return null;
  return (
    <ul class="filter-chips" aria-label="Narrowed to">
      {chips.map((chip) => (
        <li class="chip">
          <span class="chip-text">{chip.text}</span>
          <button type="button" class="chip-remove" aria-label={`Remove ${chip.text}`} title="Remove" onClick={chip.remove}><span aria-hidden="true">×</span></button>
        </li>
      ))}
    </ul>
  );
}
