import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { adoptNewAccount, api, unwrap, type ApiError } from '../api/client.ts';
import { describedBy, Field, PageHeader } from '../components/ui.tsx';
import { errorMessage, fieldErrors, formatDate } from '../lib/format.ts';
import { workspacesChanged } from '../lib/workspaces.ts';
import type { User } from '../main.tsx';
import { SignInPage } from './sign-in.tsx';

const PASSWORD_MIN = 10;

/** An accept that failed, in words: who should do what next. */
function refusal(e: unknown, signedIn: boolean): string {
  const status = (e as ApiError).status;
  if (status === 403) return `${errorMessage(e)} This invitation was sent to another e-mail address than the one you are signed in with: sign out, then open the link again and sign in with the invited address (or create its account).`;
  if (status === 409) return `${errorMessage(e)} An invitation works once and for 7 days: ask the person who invited you for a new link.`;
  if (status === 404) return 'This invitation link is not valid: check that it was copied whole, or ask for a new one.';
  if (status === 401 && !signedIn) return 'Sign in, or create your account below, to accept this invitation.';
  return errorMessage(e);
}

type Preview = { workspace_name: string; invited_by: string | null; email: string; role: string; status: string; expires_at: string };

/** What the link offers, read before accepting (GET /invitations/{token}: the link is the key); undefined while it loads or when it failed. */
function useInvitation(token: string | undefined) {
  const [preview, setPreview] = useState<Preview | undefined>();
  useEffect(() => {
    if (!token) return;
    api.GET('/api/v1/invitations/{token}', { params: { path: { token } } })
      .then((res) => setPreview(unwrap(res) as Preview)).catch(() => setPreview(undefined));
  }, [token]);
  return preview;
}

/** "Ana invited nia@client.com to Acme Gardens as an editor", and whether the link still works. */
function InvitationSummary({ preview }: { preview: Preview | undefined }) {
  if (!preview) return null;
  const role = /^[aeiou]/.test(preview.role) ? `an ${preview.role}` : `a ${preview.role}`;
  return (
    <div class="invitation-summary">
      <p><strong>{preview.invited_by ?? 'A member'}</strong> invited <strong>{preview.email}</strong> to <strong>{preview.workspace_name}</strong> as {role}.</p>
      {preview.status === 'pending'
        ? <p class="muted small">The link works once, until {formatDate(preview.expires_at, true)}.</p>
        : <p class="notice notice-error" role="alert">This invitation is {preview.status === 'accepted' ? 'already used' : preview.status}: ask for a new link.</p>}
    </div>
  );
}

/** /invitations/:token for a signed-in user: one button to join. */
export function AcceptPage({ user }: { user: User }) {
  const { params } = useRoute();
  const { route } = useLocation();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const preview = useInvitation(params.token);
  const join = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const accepted = unwrap(await api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token: params.token! } }, body: null }));
      workspacesChanged();
      route(`/workspaces/${accepted.workspace.id}`);
    } catch (e) {
      setError(refusal(e, true));
      setBusy(false);
    }
  };
  return (
    <section class="page accept">
      <PageHeader title={<span tabIndex={-1}>Join a workspace</span>} subtitle="You have been invited to a workspace. Joining gives you its sites, with the role the invitation names." />
      <div class="panel">
        <InvitationSummary preview={preview} />
        <p class="muted small">You are signed in as {user.name} ({user.email}). The invitation must have been sent to this address.</p>
        {error && <p class="notice notice-error" role="alert">{error}</p>}
        <div class="form-actions"><button type="button" class="btn btn-primary" disabled={busy} onClick={join}>{busy ? 'Joining…' : 'Join the workspace'}</button></div>
      </div>
    </section>
  );
}

/** /invitations/:token signed out: create the account the invitation is for, or sign in and come back here. */
export function AcceptSignedOutPage({ onSignedIn }: { onSignedIn: (then?: string) => Promise<void> }) {
  const { params } = useRoute();
  const [mode, setMode] = useState<'create' | 'sign-in'>('create');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState(false);
  const [busy, setBusy] = useState(false);
  const preview = useInvitation(params.token);

  if (mode === 'sign-in') {
    // Signed in, the app shows this address again, now as the "Join" page.
    return <SignInPage notice="Sign in with the address the invitation was sent to; you come back here to join." onSignedIn={() => onSignedIn()} />;
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setError(undefined);
    if (password.length < PASSWORD_MIN) {
      setErrors({ password: `Use at least ${PASSWORD_MIN} characters.` });
      return;
    }
    setBusy(true);
    try {
      const accepted = unwrap(await api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token: params.token! } }, body: { name: name.trim(), password } }));
      setCreated(true);
      if (await adoptNewAccount(accepted, password)) {
        workspacesChanged();
        await onSignedIn(`/workspaces/${accepted.workspace.id}`);
        return;
      }
      setError('Your account is made and you are a member of the workspace, but signing you in did not complete. Sign in with the invited e-mail address and the password you just chose.');
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(refusal(e, false));
    }
    setBusy(false);
  };

  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <p class="brand brand-large"><span class="brand-mark" aria-hidden="true">◆</span> Site Optimization</p>
        <h1>Join a workspace</h1>
        <p class="subtitle">You have been invited to work on a team's sites. Create your account to accept: it is made for the e-mail address the invitation was sent to.</p>
        <InvitationSummary preview={preview} />
        {error && <p class="notice notice-error" role="alert">{error}</p>}
        {created && error ? (
          <button type="button" class="btn btn-primary btn-block" onClick={() => setMode('sign-in')}>Sign in</button>
        ) : (
          <form onSubmit={submit}>
            <Field id="accept-name" label="Your name" error={errors.name}>
              <input id="accept-name" required maxLength={200} autoComplete="name" value={name} onInput={(e) => setName(e.currentTarget.value)} {...describedBy('accept-name', errors.name)} />
            </Field>
            <Field id="accept-password" label="Choose a password" error={errors.password} hint={`At least ${PASSWORD_MIN} characters`}>
              <input id="accept-password" type="password" required autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} {...describedBy('accept-password', errors.password, true)} />
            </Field>
            <button type="submit" class="btn btn-primary btn-block" disabled={busy}>{busy ? 'Creating your account…' : 'Create account and join'}</button>
          </form>
        )}
        <p class="signin-or">I already have an account</p>
        <button type="button" class="btn btn-block" onClick={() => setMode('sign-in')}>Sign in to accept</button>
      </div>
    </main>
  );
}
