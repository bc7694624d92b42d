import { api, unwrap } from '../api/client.ts';
import { describedBy, ErrorNotice, Field } from '../components/ui.tsx';
import { useForm } from '../lib/use-form.ts';

/** Asks for a reset link. The answer never says whether the address has an account. */
export function ForgotPasswordPage() {
  const form = useForm({ email: '' });
  const { errors, error, busy, done: sent } = form;
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => unwrap(await api.POST('/api/v1/auth/password-reset', { body: { email: form.values.email.trim() } })).message);
  };

  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <p class="brand brand-large"><span class="brand-mark" aria-hidden="true">◆</span> Site Optimization</p>
        <h1>Forgot your password?</h1>
        {sent ? (
          <>
            <p class="notice notice-success" role="status">{sent}</p>
            <p class="muted">Check your inbox (and spam folder). Nothing arrived? Ask again in a few minutes, or ask your administrator.</p>
          </>
        ) : (
          <>
            <p class="subtitle">Enter the e-mail address of your account: if it has one, we send it a link to choose a new password.</p>
            {error !== undefined && <ErrorNotice error={error} />}
            <form onSubmit={submit}>
              <Field id="email" label="E-mail" error={errors.email}>
                <input id="email" type="email" autoComplete="username" required value={form.values.email} onInput={form.set('email')} {...describedBy('email', errors.email)} />
              </Field>
              <button type="submit" class="btn btn-primary btn-block" disabled={busy}>{busy ? 'Sending…' : 'Send me a link'}</button>
            </form>
          </>
        )}
        <p class="signin-links"><a href="/">Back to sign in</a></p>
      </div>
    </main>
  );
}
