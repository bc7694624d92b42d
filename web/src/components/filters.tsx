import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { humanize } from '../lib/format.ts';
import { inWorkspace, useShownWorkspace } from '../lib/workspaces.ts';
import type { SiteSummary } from './site-picker.tsx';

export const CATEGORIES = ['seo', 'technical', 'content', 'strategy', 'research'] as const;
export type Category = (typeof CATEGORIES)[number];

/** List filters kept in the address (?site=&category=&page=), so a filtered view can be shared and reloaded. */
export function useFilters() {
  const { query, path, route } = useLocation();
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams({ ...query, [key]: value });
    if (!value) next.delete(key);
    if (key !== 'page') next.delete('page');
    route(`${path}${next.size ? `?${next}` : ''}`);
  };
  const category = (CATEGORIES as readonly string[]).includes(query.category ?? '') ? (query.category as Category) : undefined;
  return { query, setFilter, site: query.site ?? '', category, page: Number(query.page ?? 1) || 1 };
}

/**
 * The sites of the workspace chosen in the top bar (and the one in the address, wherever it is); "all sites" is all of
 * that workspace's (the lists pass it to the API as workspace_id), or every site without one.
 */
export function SiteFilter({ sites, value, onChange }: { sites: SiteSummary[] | undefined; value: string; onChange: (value: string) => void }) {
  const workspace = useShownWorkspace();
  const offered = (inWorkspace(sites, workspace) ?? []).concat(workspace ? (sites ?? []).filter((s) => s.id === value && s.workspace_id !== workspace.id) : []);
  return (
    <label>Site
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{workspace ? `All sites of ${workspace.name}` : 'All sites'}</option>
        {offered.map((s) => <option value={s.id}>{s.name}</option>)}
      </select>
    </label>
  );
}

export function CategoryFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label>Category
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">All categories</option>
        {CATEGORIES.map((c) => <option value={c}>{c === 'seo' ? 'SEO' : humanize(c)}</option>)}
      </select>
    </label>
  );
}

/**
 * A list's filters. On a phone they would fill the first screen, so there they fold behind a "Filters" button
 * (aria-expanded; it says how many are set); wider, the button is hidden and the filters always show.
 */
export function FilterBar({ id, label, active, children }: { id: string; label: string; active: number; children: preact.ComponentChildren }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="btn btn-small filters-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? 'Hide filters' : 'Filters'}{active > 0 ? ` (${active} set)` : ''}
      </button>
      <form id={id} class={open ? 'filters filters-open' : 'filters'} aria-label={label} onSubmit={(e) => e.preventDefault()}>
        {children}
      </form>
    </>
  );
}
