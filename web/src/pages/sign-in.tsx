import { useState } from 'preact/hooks';
import { signIn } from '../api/client.ts';
import { describedBy, ErrorNotice, Field } from '../components/ui.tsx';

export function SignInPage({ notice, onSignedIn }: { notice?: string | undefined; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

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
        {notice && !error && <p class="notice notice-info" role="status">{notice}</p>}
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
      </div>
    </main>
  );
}
