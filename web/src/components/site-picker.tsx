import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client.ts';
import { useShownWorkspace } from '../lib/workspaces.ts';
import { Async, Empty, useAsync } from './ui.tsx';

export type SiteSummary = { id: string; name: string; domain: string; workspace_id: string };

/** The signed-in user's sites, newest first. */
export const loadSites = async () => unwrap(await api.GET('/api/v1/sites', {})).items;

/**
 * Pages that show one site at a time take it from ?site= (default: the first site of the workspace chosen in the top
 * bar); the picker offers that workspace's sites.
 */
export function WithSite({ children }: { children: (site: SiteSummary, picker: preact.ComponentChildren) => preact.ComponentChildren }) {
  const { query, path, route } = useLocation();
  const sites = useAsync(loadSites, []);
  const workspace = useShownWorkspace();
  return (
    <Async state={sites} label="Loading your sites">
      {(all) => {
        const named = all.find((s) => s.id === query.site);
        const items = all.filter((s) => s === named || !workspace || s.workspace_id === workspace.id);
        if (items.length === 0) {
          return workspace && all.length
            ? <Empty title={`No sites in ${workspace.name} yet`}><p>Choose another workspace at the top, or <a href="/sites">add a site</a>.</p></Empty>
            : <Empty title="No sites yet"><p><a href="/sites">Add your first site</a> to see its data here.</p></Empty>;
        }
        const site = named ?? items[0]!;
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
