import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../generated/api';
import { humanize } from '../lib/format.ts';
import { FilterBar } from './filters.tsx';

type ListQuery = NonNullable<paths['/api/v1/keywords']['get']['parameters']['query']>;
export type SortKey = NonNullable<ListQuery['sort']>;
type Intent = NonNullable<ListQuery['intent']>;
type Band = NonNullable<ListQuery['position']>;
type Change = NonNullable<ListQuery['change']>;

const INTENTS: Intent[] = ['informational', 'navigational', 'commercial', 'transactional'];
const BANDS: Array<{ value: Band; label: string }> = [
  { value: '1-3', label: 'Top 3 (1–3)' }, { value: '4-10', label: 'Rest of page 1 (4–10)' }, { value: '11-20', label: 'Page 2 (11–20)' },
  { value: '21-100', label: 'Further down (21–100)' }, { value: 'unranked', label: 'Not ranking' },
];
const CHANGES: Array<{ value: Change; label: string }> = [
  { value: 'improved', label: 'Moved up' }, { value: 'declined', label: 'Moved down' }, { value: 'unchanged', label: 'Unchanged' }, { value: 'new', label: 'New (no earlier position)' },
];
const pick = <T extends string>(values: readonly T[], value: string | undefined) => (values as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The Keywords list's state in the address (?site=&sort=&order=&page=&search=&intent=&position=&change=&tag=), so a
 * filtered view can be shared and reloaded; a change of filter or order goes back to the first page.
 */
export function useKeywordQuery(siteId: string) {
  const { query, path, route } = useLocation();
  const set = (changes: Record<string, string | undefined>, replace = false) => {
    const next = new URLSearchParams(query);
    next.set('site', siteId);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    route(`${path}?${next}`, replace);
  };
  const filters = {
    search: query.search?.trim() || undefined,
    intent: pick(INTENTS, query.intent),
    position: pick(BANDS.map((b) => b.value), query.position),
    change: pick(CHANGES.map((c) => c.value), query.change),
    tag: query.tag || undefined,
  };
  const active = Object.values(filters).filter(Boolean).length;
  const clear = () => set({ search: undefined, intent: undefined, position: undefined, change: undefined, tag: undefined });
  return { query, set, filters, active, clear, page: Number(query.page ?? 1) || 1 };
}
export type KeywordFilterValues = ReturnType<typeof useKeywordQuery>['filters'];

/** Search, intent, position band, change and tag: applied by the API before paging (the search as one types, after a pause). */
export function KeywordFilters({ filters, active, tags, set }: {
  filters: KeywordFilterValues; active: number;
  tags: Array<{ tag: string; keywords: number }> | undefined;
  set: (changes: Record<string, string | undefined>, replace?: boolean) => void;
}) {
  const [text, setText] = useState(filters.search ?? '');
  // The address changed otherwise (filters cleared, back): the box follows it.
  useEffect(() => {
    if ((filters.search ?? '') !== text.trim()) setText(filters.search ?? '');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters.search]);
  useEffect(() => {
    if (text.trim() === (filters.search ?? '')) return;
    const timer = setTimeout(() => set({ search: text.trim() || undefined }, true), 350);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  const offered = [...(tags ?? [])];
  if (filters.tag && !offered.some((t) => t.tag === filters.tag)) offered.unshift({ tag: filters.tag, keywords: 0 });
  return (
    <FilterBar id="keyword-filters" label="Filter keywords" active={active}>
      <label>Search
        <input type="search" value={text} maxLength={200} placeholder="Keyword contains…" onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') set({ search: text.trim() || undefined }, true); }} />
      </label>
      <label>Position
        <select value={filters.position ?? ''} onChange={(e) => set({ position: e.currentTarget.value })}>
          <option value="">Any position</option>
          {BANDS.map((b) => <option value={b.value}>{b.label}</option>)}
        </select>
      </label>
      <label>Change
        <select value={filters.change ?? ''} onChange={(e) => set({ change: e.currentTarget.value })}>
          <option value="">Any change</option>
          {CHANGES.map((c) => <option value={c.value}>{c.label}</option>)}
        </select>
      </label>
      <label>Intent
        <select value={filters.intent ?? ''} onChange={(e) => set({ intent: e.currentTarget.value })}>
          <option value="">All intents</option>
          {INTENTS.map((i) => <option value={i}>{humanize(i)}</option>)}
        </select>
      </label>
      <label>Tag
        <select value={filters.tag ?? ''} onChange={(e) => set({ tag: e.currentTarget.value })}>
          <option value="">{offered.length ? 'All tags' : 'No tags yet'}</option>
          {offered.map((t) => <option value={t.tag}>{t.tag}{t.keywords ? ` (${t.keywords})` : ''}</option>)}
        </select>
      </label>
    </FilterBar>
  );
}
