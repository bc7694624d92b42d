import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { Async, Empty, useAsync } from './ui.tsx';

export type SiteSummary = { id: string; name: string; domain: string; workspace_id: string };

/** The signed-in user's sites, newest first. */
export const loadSites = async () => unwrap(await api.GET('/api/v1/sites', {})).items;

/** Pages that show one site at a time take it from ?site= (default: the first site). */
export function WithSite({ children }: { children: (site: SiteSummary, picker: preact.ComponentChildren) => preact.ComponentChildren }) {
  const { query, path, route } = useLocation();
  const sites = useAsync(loadSites, []);
  return (
    <Async state={sites} label="Loading your sites">
      {(items) => {
        if (items.length === 0) {
          return <Empty title="No sites yet"><p><a href="/sites">Add your first site</a> to see its data here.</p></Empty>;
        }
        const site = items.find((s) => s.id === query.site) ?? items[0]!;
        const picker = (
          <label class="site-picker">
            <span>Site</span>
            <select value={site.id} onChange={(e) => route(`${path}?site=${e.currentTarget.value}`)}>
              {items.map((s) => <option value={s.id}>{s.name} ({s.domain})</option>)}
            </select>
          </label>
        );
        return children(site, picker);
      }}
    </Async>
  );
}
