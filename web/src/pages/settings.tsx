import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { PasswordForm, ProfileForm, SessionsPanel, TimeZoneForm } from '../components/account.tsx';
import { loadSites } from '../components/site-picker.tsx';
import { Async, Badge, describedBy, ErrorNotice, Field, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { errorMessage, fieldErrors, formatDate, googleRefusal, missingScopes } from '../lib/format.ts';
import type { User } from '../main.tsx';
import { atLeast } from '../lib/workspaces.ts';

export function SettingsPage({ user: signedIn, onUser, onSignedOutEverywhere }: { user: User; onUser: (user: User) => void; onSignedOutEverywhere: () => void }) {
  // Kept here too: the router keeps this page mounted with the props it was first given.
  const [user, setUser] = useState(signedIn);
  const renamed = (updated: User) => {
    setUser(updated);
    onUser(updated);
  };
  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Settings</span>} subtitle={`Signed in as ${user.name} (${user.email}).`} />
      <Google admin={user.role === 'admin'} />
      <p class="muted small">Each site’s connector (manual or WordPress) is on the site’s page, under Connector.</p>
      <ProfileForm user={user} onUser={renamed} />
      <TimeZoneForm />
      <PasswordForm />
      <SessionsPanel onSignedOut={onSignedOutEverywhere} />
      {user.role === 'admin' && <Users />}
      {user.role === 'admin' && <UserList self={user.id} />}
    </section>
  );
}

/** Whether Google is set up on this server: the sign-in methods say (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET both set). */
const loadGoogle = async () => {
  const [connection, methods] = await Promise.all([api.GET('/api/v1/integrations/google').then(unwrap), api.GET('/api/v1/auth/methods').then(unwrap)]);
  return { ...connection, configured: methods.google };
};

function Google({ admin }: { admin: boolean }) {
  const status = useAsync(loadGoogle, []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const connect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // return=app: Google's callback comes back to this page (google=connected, or google_error=why).
      window.location.assign(unwrap(await api.GET('/api/v1/integrations/google/connect', { params: { query: { return: 'app' } } })).authorization_url);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const disconnect = async () => {
    if (!window.confirm('Disconnect Google? Synced data stays; new data stops arriving.')) return;
    setBusy(true);
    try {
      unwrap(await api.DELETE('/api/v1/integrations/google'));
      await status.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  // What the connect round trip came back with, shown once.
  const [outcome] = useState(() => {
    const q = new URLSearchParams(window.location.search);
    return { connected: q.get('google') === 'connected', missing: missingScopes(q.get('missing')).join(', '), error: googleRefusal(q.get('google_error')) };
  });
  useEffect(() => {
    if (outcome.connected || outcome.error) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  return (
    <section class="panel" aria-labelledby="h-google">
      <h2 id="h-google">Google Search Console and Analytics</h2>
      {outcome.connected && <p class="notice notice-success" role="status">Google is connected.{outcome.missing ? ` Not granted: ${outcome.missing}; some data will be missing.` : ' The first sync has started.'}</p>}
      {outcome.error && <p class="notice notice-error" role="alert">Google was not connected: {outcome.error}</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      <Async state={status} label="Loading the Google connection">
        {(g) => g.connected ? (
          <>
            <p><Badge value={g.status} /> {g.email} · connected {formatDate(g.connected_at)}</p>
            <Properties />
            <div class="form-actions"><button type="button" class="btn" disabled={busy} onClick={disconnect}>Disconnect Google</button></div>
          </>
        ) : !g.configured ? <GoogleNotSetUp admin={admin} /> : (
          <>
            <p>{g.status === 'revoked' ? 'Google no longer accepts the connection: connect again.' : 'Connect a Google account to bring in clicks, rankings and visits for your sites. Access is read-only.'}</p>
            <button type="button" class="btn btn-primary" disabled={busy} onClick={connect}>Connect Google</button>
          </>
        )}
      </Async>
    </section>
  );
}

/** Without an OAuth client nothing can connect: an admin is told how to set one up, anyone else who can. */
function GoogleNotSetUp({ admin }: { admin: boolean }) {
  if (!admin) return <p class="notice notice-info">Google is not set up on this server: your administrator has not configured it, so Search Console and Analytics data cannot be brought in yet.</p>;
  const origin = window.location.origin;
  return (
    <div class="notice notice-info">
      <p>Google is not set up on this server. To let users connect Search Console and Analytics (and sign in with Google):</p>
      <ol>
        <li>In the Google Cloud console, create an OAuth client of type “Web application”.</li>
        <li>Add its authorized redirect URIs: <code>{origin}/api/v1/integrations/google/callback</code> and <code>{origin}/api/v1/auth/google/callback</code>.</li>
        <li>Give the client’s ID and secret to whoever runs this installation: they enter them in the service’s settings and restart it (the README says where).</li>
      </ol>
    </div>
  );
}

function Properties() {
  const state = useAsync(async () => {
    const [properties, sites] = await Promise.all([api.GET('/api/v1/integrations/google/search-console/properties').then(unwrap), loadSites()]);
    const details = await Promise.all(sites.map((s) => api.GET('/api/v1/sites/{site_id}', { params: { path: { site_id: s.id } } }).then(unwrap)));
    return { properties: properties.items, sites: details };
  }, []);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | undefined>();
  const link = async (siteId: string, property: string) => {
    try {
      unwrap(await api.PUT('/api/v1/sites/{site_id}', { params: { path: { site_id: siteId } }, body: { gsc_property: property || null } }));
      setMessage({ kind: 'success', text: property ? `Linked ${property}; its data is syncing now.` : 'Property unlinked.' });
      await state.reload();
    } catch (e) {
      setMessage({ kind: 'error', text: errorMessage(e) });
    }
  };
  return (
    <Async state={state} label="Loading Search Console properties">
      {({ properties, sites }) => (
        <>
          {message && <p class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
          <h3>Search Console property of each site</h3>
          {sites.length === 0 ? <p class="muted">Add a site first.</p> : (
            <ul class="plain-list">
              {sites.map((s) => (
                <li class="property-row">
                  <label for={`prop-${s.id}`}>{s.name} <span class="muted small">{s.domain}{!atLeast(s.role, 'admin') && ' · an admin of its workspace links it'}</span></label>
                  <select id={`prop-${s.id}`} value={s.gsc_property ?? ''} disabled={!atLeast(s.role, 'admin')} onChange={(e) => link(s.id, e.currentTarget.value)}>
                    <option value="">Match automatically</option>
                    {properties.map((p) => <option value={p.site_url}>{p.site_url}</option>)}
                  </select>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Async>
  );
}

function Users() {
  const [values, setValues] = useState({ name: '', email: '', password: '', role: 'user' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<string | undefined>();
  const set = (key: keyof typeof values) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setError(undefined);
    setCreated(undefined);
    try {
      const user = unwrap(await api.POST('/api/v1/admin/users', { body: { ...values, role: values.role as 'user' | 'admin' } }));
      setCreated(`${user.email} can now sign in.`);
      window.dispatchEvent(new Event(USERS_CHANGED));
      setValues({ name: '', email: '', password: '', role: 'user' });
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if ((e as ApiError).status === 409) fields.email = (e as ApiError).message;
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(e);
    }
  };
  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="h-users">
      <h2 id="h-users">Add a user</h2>
      <p class="muted">Admins only. The new user signs in with this e-mail and password.</p>
      {created && <p class="notice notice-success" role="status">{created}</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      <div class="form-row">
        <Field id="u-name" label="Name" error={errors.name}><input id="u-name" required value={values.name} onInput={set('name')} {...describedBy('u-name', errors.name)} /></Field>
        <Field id="u-email" label="E-mail" error={errors.email}><input id="u-email" type="email" required value={values.email} onInput={set('email')} autoComplete="off" {...describedBy('u-email', errors.email)} /></Field>
        <Field id="u-password" label="Password" error={errors.password} hint="At least 10 characters"><input id="u-password" type="password" required value={values.password} onInput={set('password')} autoComplete="new-password" {...describedBy('u-password', errors.password, true)} /></Field>
        <Field id="u-role" label="Role"><select id="u-role" value={values.role} onChange={set('role')}><option value="user">User</option><option value="admin">Admin</option></select></Field>
      </div>
      <div class="form-actions"><button type="submit" class="btn btn-primary">Add user</button></div>
    </form>
  );
}

const USERS_CHANGED = 'sos:users-changed';
const USERS_PAGE = 50;

/** Every account, for admins: who can sign in, as what, and how; disable or enable one (not one's own). */
function UserList({ self }: { self: string }) {
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>();
  // The shared workspaces the account just disabled owned alone: nobody can make an owner there or delete them now.
  const [ownerless, setOwnerless] = useState<{ email: string; names: string[] }>();
  const setDisabled = async (u: { id: string; email: string }, disabled: boolean) => {
    if (disabled && !window.confirm(`Disable ${u.email}? It is signed out everywhere at once and cannot sign in until enabled again.`)) return;
    setError(undefined);
    setOwnerless(undefined);
    try {
      const changed = unwrap(await api.PATCH('/api/v1/admin/users/{user_id}', { params: { path: { user_id: u.id } }, body: { disabled } }));
      if (changed.ownerless_workspaces.length > 0) setOwnerless({ email: u.email, names: changed.ownerless_workspaces.map((w) => w.name) });
      await users.reload();
    } catch (e) {
      setError(e);
    }
  };
  const users = useAsync(async () => unwrap(await api.GET('/api/v1/admin/users', { params: { query: { page, page_size: USERS_PAGE } } })), [page]);
  useEffect(() => {
    const reload = () => void users.reload();
    window.addEventListener(USERS_CHANGED, reload);
    return () => window.removeEventListener(USERS_CHANGED, reload);
  }, [users.reload]);
  return (
    <section class="panel" aria-labelledby="h-user-list">
      <h2 id="h-user-list">Users</h2>
      {error !== undefined && <ErrorNotice error={error} />}
      {ownerless && (
        <p class="notice notice-warn" role="status">
          {ownerless.email} was the only active owner of {ownerless.names.join(', ')}. These shared workspaces have no active owner now: their members go on working, but nobody can make a new owner or delete them until the account is enabled again.
        </p>
      )}
      <Async state={users} label="Loading users">
        {(result) => (
          <>
            <div class="table-wrap">
              <table class="table users-table stacked">
                <caption class="sr-only">Every account, oldest first</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Signs in with</th><th scope="col">Since</th><th scope="col">Status</th></tr></thead>
                <tbody>
                  {result.items.map((u) => (
                    <tr>
                      <td data-label="Name" class="strong">{u.name}</td>
                      <td data-label="E-mail">{u.email}</td>
                      <td data-label="Role"><Badge value={u.role === 'admin' ? 'high' : 'muted'} label={u.role} /></td>
                      <td data-label="Signs in with">{u.sign_in.map((m) => (m === 'google' ? 'Google' : 'password')).join(', ') || '—'}</td>
                      <td data-label="Since">{formatDate(u.created_at)}</td>
                      <td data-label="Status">
                        <Badge value={u.disabled ? 'failed' : 'completed'} label={u.disabled ? 'disabled' : 'active'} />{' '}
                        {u.id !== self && (
                          <button type="button" class="btn btn-small" onClick={() => setDisabled(u, !u.disabled)} aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.email}`}>
                            {u.disabled ? 'Enable' : 'Disable'}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={result.page} pageSize={USERS_PAGE} total={result.total} onPage={setPage} />
          </>
        )}
      </Async>
    </section>
  );
}

