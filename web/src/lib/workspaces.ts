// The caller's workspaces and roles, shared by every page that shows or hides what a role allows.
// The API decides (a 403 names the role needed); this only spares a viewer buttons that would fail.
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';
export type Workspace = { id: string; name: string; personal: boolean; role: Role; member_count: number; site_count: number };

/** Least to most: each role can do what the ones before it can (as the API's roles.ts). */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];
export const atLeast = (role: Role | undefined, needed: Role) => role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(needed);

export const ROLE_WORDS: Record<Role, string> = {
  viewer: 'can read everything',
  editor: 'runs audits, approves, cancels, retries and rolls back tasks, tracks keywords',
  admin: 'also changes site settings and connectors, adds sites, invites and manages members',
  owner: 'also manages owners, moves sites to other workspaces and deletes the workspace',
};

// One request for every page that asks at once; cleared whenever a workspace or membership changes.
let cached: Promise<Workspace[]> | undefined;
const listeners = new Set<() => void>();

export function loadWorkspaces(): Promise<Workspace[]> {
  if (!cached) {
    const loading = api.GET('/api/v1/workspaces').then(unwrap).then((r) => r.items as Workspace[]);
    cached = loading;
    loading.catch(() => void (cached === loading && (cached = undefined)));
  }
  return cached;
}

/** After creating, renaming, joining or leaving: every page reading the list loads it again. */
export function workspacesChanged() {
  cached = undefined;
  for (const listener of listeners) listener();
}

/** The caller's workspaces (undefined while loading or when they could not be read). */
export function useWorkspaces(): Workspace[] | undefined {
  const [items, setItems] = useState<Workspace[] | undefined>();
  useEffect(() => {
    let live = true;
    const load = () => void loadWorkspaces().then((w) => live && setItems(w), () => live && setItems(undefined));
    load();
    listeners.add(load);
    return () => {
      live = false;
      listeners.delete(load);
    };
  }, []);
  return items;
}

/**
 * The current workspace, chosen in the top bar's switcher and read by every page that narrows to it ('' for all of
 * them). One value for the whole app, so the switcher and the pages never disagree; kept in this browser.
 */
const CURRENT = 'sos:workspace';
let current: string | undefined;
const currentListeners = new Set<(id: string) => void>();
const readCurrent = () => {
  if (current === undefined) {
    try {
      current = localStorage.getItem(CURRENT) ?? '';
    } catch {
      current = '';
    }
  }
  return current;
};
export function setCurrentWorkspace(next: string) {
  current = next;
  try {
    if (next) localStorage.setItem(CURRENT, next);
    else localStorage.removeItem(CURRENT);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  for (const listener of currentListeners) listener(next);
}
export function useCurrentWorkspace(): [string, (id: string) => void] {
  const [id, setId] = useState(readCurrent);
  useEffect(() => {
    currentListeners.add(setId);
    setId(readCurrent());
    return () => void currentListeners.delete(setId);
  }, []);
  return [id, setCurrentWorkspace];
}

/** The current workspace as the caller's list has it: undefined for all of them, or one the caller has since left. */
export function useShownWorkspace(): Workspace | undefined {
  const workspaces = useWorkspaces();
  const [id] = useCurrentWorkspace();
  return workspaces?.find((w) => w.id === id);
}

/** Sites narrowed to the current workspace (all of them when none is chosen). */
export function inWorkspace<S extends { workspace_id: string }>(sites: S[] | undefined, workspace: Workspace | undefined): S[] | undefined {
  return workspace && sites ? sites.filter((s) => s.workspace_id === workspace.id) : sites;
}

/** The caller's role on each site, from the sites' workspace_id and the workspaces' roles. */
export function useSiteRoles(sites: Array<{ id: string; workspace_id: string }> | undefined) {
  const workspaces = useWorkspaces();
  const roleOf = (siteId: string): Role | undefined => {
    const site = sites?.find((s) => s.id === siteId);
    return site ? workspaces?.find((w) => w.id === site.workspace_id)?.role : undefined;
  };
  return { roleOf, loaded: sites !== undefined && workspaces !== undefined, workspaces };
}
