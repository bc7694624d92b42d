import { useCurrentWorkspace, useWorkspaces } from '../lib/workspaces.ts';

/**
 * The top bar's workspace switcher: a labelled select (a native control, so a phone shows its own picker). The pages
 * that narrow by workspace (Sites; the site pickers of the others) follow it. Hidden for someone with one workspace.
 */
export function WorkspaceSwitcher() {
  const workspaces = useWorkspaces();
  const [current, setCurrent] = useCurrentWorkspace();
  if (!workspaces || workspaces.length < 2) return null;
  // A remembered workspace the user has since left reads as all of them.
  const value = workspaces.some((w) => w.id === current) ? current : '';
  return (
    <label class="workspace-switcher">
      <span class="sr-only">Current workspace</span>
      <select value={value} onChange={(e) => setCurrent(e.currentTarget.value)}>
        <option value="">All workspaces</option>
        {workspaces.map((w) => <option value={w.id}>{w.name}{w.personal ? ' (personal)' : ''}</option>)}
      </select>
    </label>
  );
}
