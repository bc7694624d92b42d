import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { errorMessage, fieldErrors, formatDate } from '../lib/format.ts';
import { atLeast, ROLES, type Role, type Workspace } from '../lib/workspaces.ts';
import type { User } from '../main.tsx';
import { Async, Badge, CopyButton, describedBy, ErrorNotice, Field, useAsync } from './ui.tsx';

type Member = { user_id: string; email: string; name: string; role: Role; joined_at: string };
/** A status line; a resent invitation's new link comes with it, to copy (it is shown only now). */
type Message = { kind: 'success' | 'error'; text: string; link?: string };

/** Whom the caller may change or remove: an admin anyone but owners, an owner anyone (as the API's roles). */
const canManage = (mine: Role, theirs: Role) => atLeast(mine, 'admin') && (theirs !== 'owner' || mine === 'owner');
/** The roles the caller may give: owner only by an owner. */
const grantable = (mine: Role) => ROLES.filter((r) => r !== 'owner' || mine === 'owner');

/** A shared workspace's members (role select, remove, leave), its invitations and the invite form, as far as the caller's role allows. */
export function Members({ workspace: w, user, onChanged, onLeft }: { workspace: Workspace; user: User; onChanged: () => Promise<void>; onLeft: () => Promise<void> }) {
  const path = { params: { path: { workspace_id: w.id } } };
  const members = useAsync(async () => unwrap(await api.GET('/api/v1/workspaces/{workspace_id}/members', path)).items as Member[], [w.id]);
  const isAdmin = atLeast(w.role, 'admin');
  const invitations = useAsync(async () => (isAdmin ? unwrap(await api.GET('/api/v1/workspaces/{workspace_id}/invitations', path)).items : []), [w.id, isAdmin]);
  const [message, setMessage] = useState<Message | undefined>();
  const [busy, setBusy] = useState(false);

  const act = async <T,>(work: () => Promise<T>, success: string | ((done: T) => Message), after: () => Promise<void> = onChanged) => {
    setBusy(true);
    setMessage(undefined);
    try {
      const done = await work();
      setMessage(typeof success === 'string' ? { kind: 'success', text: success } : success(done));
      await Promise.all([members.reload(), after()]);
    } catch (e) {
      // A 403 names the role needed; a 409 says why (the last owner cannot leave).
      setMessage({ kind: 'error', text: errorMessage(e) });
      await members.reload();
    } finally {
      setBusy(false);
    }
  };
  const member = (m: Member) => ({ params: { path: { workspace_id: w.id, user_id: m.user_id } } });
  const setRole = (m: Member, role: Role) => act(() => api.PATCH('/api/v1/workspaces/{workspace_id}/members/{user_id}', { ...member(m), body: { role } }).then(unwrap), `${m.name} is now ${role}.`);
  const remove = (m: Member) => {
    const self = m.user_id === user.id;
    if (!window.confirm(self ? `Leave ${w.name}? You lose access to its sites.` : `Remove ${m.name} from ${w.name}?`)) return;
    void act(() => api.DELETE('/api/v1/workspaces/{workspace_id}/members/{user_id}', member(m)).then(unwrap), self ? `You left ${w.name}.` : `${m.name} was removed.`, self ? onLeft : onChanged);
  };
  const revoke = (id: string, email: string) => act(
    () => api.DELETE('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}', { params: { path: { workspace_id: w.id, invitation_id: id } } }).then(unwrap),
    `The invitation to ${email} is revoked: its link no longer works.`, invitations.reload,
  );
  const resend = (id: string, email: string) => act(
    () => api.POST('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}/resend', { params: { path: { workspace_id: w.id, invitation_id: id } } }).then(unwrap),
    (renewed) => ({ kind: 'success', text: `A new link was e-mailed to ${email}, valid for 7 days; the old link no longer works.`, link: renewed.link }),
    invitations.reload,
  );
  // The API refuses to let the last owner leave (a workspace always has an owner): say so instead of offering it.
  const lastOwner = (items: Member[]) => w.role === 'owner' && items.filter((m) => m.role === 'owner').length === 1;

  return (
    <>
      <h3 id="h-members">Members</h3>
      {message && (
        <div class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          <p>{message.text}</p>
          {message.link && (
            <div class="input-with-button">
              <input readOnly value={message.link} aria-label="New invitation link" onFocus={(e) => e.currentTarget.select()} />
              <CopyButton text={message.link} />
            </div>
          )}
        </div>
      )}
      <Async state={members} label="Loading members">
        {(items) => (
          <div class="table-wrap">
            <table class="table members-table stacked" aria-labelledby="h-members">
              <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {items.map((m) => {
                  const self = m.user_id === user.id;
                  const manage = !self && canManage(w.role, m.role);
                  return (
                    <tr>
                      <td data-label="Name" class="strong">{m.name}{self && <span class="muted small"> (you)</span>}</td>
                      <td data-label="E-mail" class="url">{m.email}</td>
                      <td data-label="Role">
                        {manage ? (
                          <select value={m.role} disabled={busy} aria-label={`Role of ${m.name}`} onChange={(e) => void setRole(m, e.currentTarget.value as Role)}>
                            {grantable(w.role).map((r) => <option value={r}>{r}</option>)}
                          </select>
                        ) : m.role}
                      </td>
                      <td data-label="">
                        {self && lastOwner(items) ? <span class="muted small">The only owner cannot leave: make another member owner first.</span>
                          : self ? <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => remove(m)}>Leave</button>
                          : manage ? <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => remove(m)} aria-label={`Remove ${m.name}`}>Remove</button> : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Async>
      {isAdmin ? (
        <>
          <h3 id="h-invitations">Invitations</h3>
          <Async state={invitations} label="Loading invitations">
            {(items) => items.length === 0 ? <p class="muted small">No invitations yet.</p> : (
              <div class="table-wrap">
                <table class="table invitations-table stacked" aria-labelledby="h-invitations">
                  <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                  <tbody>
                    {items.map((i) => (
                      <tr>
                        <td data-label="E-mail" class="url">{i.email}</td>
                        <td data-label="Role">{i.role}</td>
                        <td data-label="Status"><Badge value={i.status === 'accepted' ? 'completed' : i.status === 'expired' ? 'cancelled' : i.status} label={i.status} /></td>
                        <td data-label="Expires">{i.status === 'pending' ? formatDate(i.expires_at, true) : '—'}</td>
                        <td data-label="">
                          {(i.status === 'pending' || i.status === 'expired') && (
                            <div class="row-actions">
                              <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => void resend(i.id, i.email)} aria-label={`Resend the invitation to ${i.email}`}>Resend</button>
                              {i.status === 'pending' && <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => void revoke(i.id, i.email)} aria-label={`Revoke the invitation to ${i.email}`}>Revoke</button>}
                            </div>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Async>
          <InviteForm workspace={w} onInvited={() => invitations.reload()} />
        </>
      ) : <p class="muted small">An admin or owner of this workspace invites members and changes their roles.</p>}
    </>
  );
}

function InviteForm({ workspace: w, onInvited }: { workspace: Workspace; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<{ url: string; email: string } | undefined>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError(undefined);
    setLink(undefined);
    try {
      const created = unwrap(await api.POST('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: w.id } }, body: { email: email.trim(), role } }));
      setLink({ url: created.link, email: created.email });
      setEmail('');
      await onInvited();
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if ((e as ApiError).status === 409 && !fields.email) fields.email = errorMessage(e);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="invite-form" onSubmit={submit} aria-labelledby="h-invite">
      <h3 id="h-invite">Invite someone</h3>
      {link && (
        <div class="notice notice-success invite-link" role="status">
          <p>We e-mailed {link.email} an invitation. Its link (to copy, if you prefer to send it yourself) works once, is valid for 7 days, and is shown only now.</p>
          <div class="input-with-button">
            <input readOnly value={link.url} aria-label="Invitation link" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={link.url} />
          </div>
        </div>
      )}
      {error !== undefined && <ErrorNotice error={error} />}
      <div class="form-row">
        <Field id="invite-email" label="E-mail" error={errors.email}>
          <input id="invite-email" type="email" required value={email} autoComplete="off" onInput={(e) => setEmail(e.currentTarget.value)} {...describedBy('invite-email', errors.email)} />
        </Field>
        <Field id="invite-role" label="Role" error={errors.role}>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {grantable(w.role).map((r) => <option value={r}>{r}</option>)}
          </select>
        </Field>
      </div>
      <div class="form-actions"><button type="submit" class="btn btn-primary" disabled={busy}>{busy ? 'Inviting…' : 'Invite'}</button></div>
    </form>
  );
}
