import { useEffect, useState } from 'preact/hooks';
import { api, signIn } from '../api/client.ts';
import { describedBy, ErrorNotice, Field } from '../components/ui.tsx';
import { googleRefusal } from '../lib/format.ts';

/** Where Google sign-in starts for the app: its callback sets the session cookie and comes back here. */
const GOOGLE_START = '/api/v1/auth/google/start?return=app';

export function SignInPage({ notice, onSignedIn }: { notice?: string | undefined; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [google, setGoogle] = useState(false);
  // A Google sign-in that came back refused says why (signin_error), once.
  const [refused] = useState(() => googleRefusal(new URLSearchParams(window.location.search).get('signin_error')));
  useEffect(() => {
    if (refused) window.history.replaceState(null, '', window.location.pathname);
    void api.GET('/api/v1/auth/methods').then(({ data }) => setGoogle(data?.google === true), () => setGoogle(false));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(email.trim(), password);
      await onSignedIn();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <p class="brand brand-large"><span class="brand-mark" aria-hidden="true">◆</span> Site Optimization</p>
        <h1>Sign in</h1>
        <p class="subtitle">Audits, approvals and search performance for your sites.</p>
        {notice && !error && !refused && <p class="notice notice-info" role="status">{notice}</p>}
        {refused && !error && <p class="notice notice-error" role="alert">Google sign-in did not complete: {refused}</p>}
        {error !== undefined && <ErrorNotice error={error} />}
        <form onSubmit={submit} noValidate={false}>
          <Field id="email" label="E-mail">
            <input id="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} {...describedBy('email')} />
          </Field>
          <Field id="password" label="Password">
            <input id="password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          </Field>
          <button type="submit" class="btn btn-primary btn-block" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        </form>
        <p class="signin-links"><a href="/forgot-password">Forgot password?</a></p>
        {google && (
          <>
            <p class="signin-or" aria-hidden="true">or</p>
            <a class="btn btn-block btn-google" href={GOOGLE_START}>Sign in with Google</a>
          </>
        )}
      </div>
    </main>
  );
}
