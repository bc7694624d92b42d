import { useLocation } from 'preact-iso';
import { humanize } from '../lib/format.ts';
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

export function SiteFilter({ sites, value, onChange }: { sites: SiteSummary[] | undefined; value: string; onChange: (value: string) => void }) {
  return (
    <label>Site
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">All sites</option>
        {(sites ?? []).map((s) => <option value={s.id}>{s.name}</option>)}
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
