import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { Members } from '../components/members.tsx';
import { EmailSettings } from '../components/email-settings.tsx';
import { Webhooks } from '../components/webhooks.tsx';
import { Async, describedBy, Empty, ErrorNotice, Field, PageHeader, useAsync } from '../components/ui.tsx';
import { fieldErrors, formatNumber } from '../lib/format.ts';
import { atLeast, loadWorkspaces, ROLE_WORDS, workspacesChanged, type Workspace } from '../lib/workspaces.ts';
import type { User } from '../main.tsx';

/** Personal first, then by name. */
const ordered = (items: Workspace[]) => [...items].sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));

export function RoleBadge({ role }: { role: string }) {
  return <span class={`badge badge-${role === 'owner' || role === 'admin' ? 'info' : 'muted'}`}>{role}</span>;
}

export function WorkspacesPage({ user }: { user: User }) {
  const { params } = useRoute();
  const { route } = useLocation();
  const list = useAsync(async () => ordered(await loadWorkspaces()), []);
  const reload = async () => {
    workspacesChanged();
    await list.reload();
  };
  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Workspaces</span>} subtitle="Who works on which sites: one workspace per client or team, each with its members and their roles." />
      <Async state={list} label="Loading your workspaces">
        {(items) => {
          const selected = items.find((w) => w.id === params.id) ?? items.find((w) => !w.personal) ?? items[0];
          return (
            <>
              <div class="table-wrap">
                <table class="table workspaces-table stacked">
                  <caption class="sr-only">Your workspaces, your personal one first</caption>
                  <thead><tr><th scope="col">Workspace</th><th scope="col">Your role</th><th scope="col">Members</th><th scope="col">Sites</th></tr></thead>
                  <tbody>
                    {items.map((w) => (
                      <tr class={w.id === selected?.id ? 'selected' : undefined}>
                        <td data-label="Workspace">
                          <a class="strong" href={`/workspaces/${w.id}`} aria-current={w.id === selected?.id ? 'true' : undefined}>{w.name}</a>
                          {w.personal && <div class="muted small">Personal: yours alone</div>}
                        </td>
                        <td data-label="Your role"><RoleBadge role={w.role} /></td>
                        <td data-label="Members">{formatNumber(w.member_count)}</td>
                        <td data-label="Sites">{w.site_count ? <a href={`/sites?workspace=${w.id}`} aria-label={`${w.site_count} sites of ${w.name}`}>{formatNumber(w.site_count)}</a> : '0'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <CreateWorkspace onCreated={async (id) => { await reload(); route(`/workspaces/${id}`); }} />
              {selected ? (
                <WorkspaceDetail key={selected.id} workspace={selected} user={user} onChanged={reload} onGone={async () => { await reload(); route('/workspaces'); }} />
              ) : <Empty title="No workspace yet" />}
            </>
          );
        }}
      </Async>
    </section>
  );
}

function CreateWorkspace({ onCreated }: { onCreated: (id: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [other, setOther] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setOther(undefined);
    try {
      const created = unwrap(await api.POST('/api/v1/workspaces', { body: { name: name.trim() } }));
      setName('');
      await onCreated(created.id);
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if (fields.name) setError(fields.name);
      else setOther(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={submit}>
      <Field id="new-workspace" label="New workspace" error={error} hint="For a client or a team; you become its owner.">
        <div class="input-with-button">
          <input id="new-workspace" value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} placeholder="e.g. Acme Gardens" {...describedBy('new-workspace', error, true)} />
          <button type="submit" class="btn btn-primary" disabled={busy}>Create</button>
        </div>
      </Field>
      {other !== undefined && <ErrorNotice error={other} />}
    </form>
  );
}

function WorkspaceDetail({ workspace: w, user, onChanged, onGone }: { workspace: Workspace; user: User; onChanged: () => Promise<void>; onGone: () => Promise<void> }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(w.name);
  const [error, setError] = useState<unknown>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const path = { params: { path: { workspace_id: w.id } } };
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const rename = (event: Event) => {
    event.preventDefault();
    void attempt(async () => {
      unwrap(await api.PATCH('/api/v1/workspaces/{workspace_id}', { ...path, body: { name: name.trim() } }));
      setRenaming(false);
      await onChanged();
    });
  };
  const remove = () => attempt(async () => {
    unwrap(await api.DELETE('/api/v1/workspaces/{workspace_id}', path));
    await onGone();
  });

  return (
    <section class="panel workspace-detail" aria-labelledby="h-workspace">
      <div class="panel-head">
        <h2 id="h-workspace">{w.name}</h2>
        {atLeast(w.role, 'admin') && !renaming && <button type="button" class="btn btn-small" onClick={() => setRenaming(true)}>Rename</button>}
      </div>
      <p class="muted">You are <strong>{w.role}</strong>: {ROLE_WORDS[w.role]}. {formatNumber(w.site_count)} site{w.site_count === 1 ? '' : 's'}, {formatNumber(w.member_count)} member{w.member_count === 1 ? '' : 's'}.</p>
      {w.personal && <p class="notice notice-info">Your personal workspace holds the sites you add without naming another. It is yours alone: it cannot be shared, so nobody can be invited to it. Create a workspace for a client or team to work with others.</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      {renaming && (
        <form class="inline-form" onSubmit={rename}>
          <Field id="ws-name" label="Workspace name">
            <div class="input-with-button">
              <input id="ws-name" value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} ref={(el) => el?.focus()} />
              <button type="submit" class="btn btn-primary" disabled={busy}>Save</button>
              <button type="button" class="btn" onClick={() => { setRenaming(false); setName(w.name); }}>Cancel</button>
            </div>
          </Field>
        </form>
      )}
      {!w.personal && <Members workspace={w} user={user} onChanged={onChanged} onLeft={onGone} />}
      <EmailSettings workspace={w} />
      {atLeast(w.role, 'admin') && <Webhooks workspace={w} />}
      {!w.personal && w.role === 'owner' && (
        <section class="danger-zone" aria-labelledby="h-delete">
          <h3 id="h-delete">Delete the workspace</h3>
          <p class="muted small">Only a workspace that holds no site can be deleted: move its sites to another workspace (Edit site) or delete them first. Its members lose access; their accounts stay.</p>
          {w.site_count > 0 ? <p class="small">This workspace still holds {formatNumber(w.site_count)} site{w.site_count === 1 ? '' : 's'}.</p>
            : confirmDelete ? (
              <div class="form-actions" role="group" aria-label="Confirm deletion">
                <button type="button" class="btn btn-danger" disabled={busy} onClick={remove} ref={(el) => el?.focus()}>Delete {w.name}</button>
                <button type="button" class="btn" onClick={() => setConfirmDelete(false)}>Keep it</button>
              </div>
            ) : <button type="button" class="btn btn-danger" onClick={() => setConfirmDelete(true)}>Delete workspace…</button>}
        </section>
      )}
    </section>
  );
}
