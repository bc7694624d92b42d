import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { describedBy, ErrorNotice, Field } from '../components/ui.tsx';
import { fieldErrors } from '../lib/format.ts';

/** The page an e-mailed reset link opens (`/reset-password?token=…`): a new password, once. */
export function ResetPasswordPage({ onReset }: { onReset: () => void }) {
  // Read once, then taken out of the address bar, so it stays in no history entry or bookmark.
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  useEffect(() => {
    if (window.location.search) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setError(undefined);
    if (password !== repeat) return setErrors({ repeat: 'The two passwords differ.' });
    setBusy(true);
    try {
      unwrap(await api.POST('/api/v1/auth/password-reset/confirm', { body: { token, password } }));
      onReset();
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      setErrors(fields);
      // A link that no longer works is said above the form, with the way to a new one.
      if (!fields.password) setError(e);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <p class="brand brand-large"><span class="brand-mark" aria-hidden="true">◆</span> Site Optimization</p>
        <h1>Choose a new password</h1>
        {!token ? (
          <p class="notice notice-error" role="alert">This link has no reset token: open the link from the e-mail again, or ask for a new one.</p>
        ) : (
          <>
            <p class="subtitle">Setting it signs your account out everywhere: sign in again with the new password.</p>
            {error !== undefined && <ErrorNotice error={error} />}
            <form onSubmit={submit}>
              <Field id="new-password" label="New password" error={errors.password} hint="At least 10 characters">
                <input id="new-password" type="password" autoComplete="new-password" required minLength={10} value={password}
                  onInput={(e) => setPassword(e.currentTarget.value)} {...describedBy('new-password', errors.password, true)} />
              </Field>
              <Field id="repeat-password" label="New password again" error={errors.repeat}>
                <input id="repeat-password" type="password" autoComplete="new-password" required value={repeat}
                  onInput={(e) => setRepeat(e.currentTarget.value)} {...describedBy('repeat-password', errors.repeat)} />
              </Field>
              <button type="submit" class="btn btn-primary btn-block" disabled={busy}>{busy ? 'Saving…' : 'Set the new password'}</button>
            </form>
          </>
        )}
        <p class="signin-links"><a href="/forgot-password">Ask for a new link</a> · <a href="/">Back to sign in</a></p>
      </div>
    </main>
  );
}
