import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { User } from '../main.tsx';
import { describedBy, ErrorNotice, Field } from './ui.tsx';
import { useForm } from '../lib/use-form.ts';
import { preferences, saveTimeZone } from '../api/preferences.ts';
import { browserTimeZone, formatDate } from '../lib/format.ts';
import '../styles/performance.css';

/** The signed-in user's own name. */
export function ProfileForm({ user, onUser }: { user: User; onUser: (user: User) => void }) {
  const form = useForm({ name: user.name });
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const updated = unwrap(await api.PATCH('/api/v1/auth/me', { body: { name: form.values.name } })) as User;
      onUser(updated);
      return 'Your name is saved.';
    });
  };
  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="h-profile">
      <h2 id="h-profile">Your name</h2>
      {form.done && <p class="notice notice-success" role="status">{form.done}</p>}
      {form.error !== undefined && <ErrorNotice error={form.error} />}
      <Field id="me-name" label="Display name" error={form.errors.name}>
        <input id="me-name" required maxLength={200} autoComplete="name" value={form.values.name} onInput={form.set('name')} {...describedBy('me-name', form.errors.name)} />
      </Field>
      <div class="form-actions"><button type="submit" class="btn btn-primary" disabled={form.busy}>Save name</button></div>
    </form>
  );
}

/** Every IANA zone this browser knows, with the saved one even when it is an alias the list leaves out ("Asia/Calcutta"). */
function timeZones(saved: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...zones, 'UTC', ...(saved ? [saved] : [])])].sort();
}

/** The time zone dates and times are shown in across the app (null: the browser's); Search Console's days stay their own. */
export function TimeZoneForm() {
  const form = useForm({ time_zone: preferences().time_zone ?? '' });
  const [zones] = useState(() => timeZones(form.values.time_zone));
  const [example, setExample] = useState(() => formatDate(new Date().toISOString(), true));
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const saved = await saveTimeZone(form.values.time_zone || null);
      setExample(formatDate(new Date().toISOString(), true));
      return saved.time_zone ? `Your time zone is saved: ${saved.time_zone}.` : `Your time zone is saved: the browser's (${browserTimeZone()}).`;
    });
  };
  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="h-time-zone">
      <h2 id="h-time-zone">Time zone</h2>
      {form.done && <p class="notice notice-success" role="status">{form.done}</p>}
      {form.error !== undefined && <ErrorNotice error={form.error} />}
      <Field id="me-time-zone" label="Show dates and times in" error={form.errors.time_zone} hint={`Now: ${example}. Search Console's and Analytics' days stay as Google reports them.`}>
        <select id="me-time-zone" class="time-zone-select" value={form.values.time_zone} onChange={form.set('time_zone')} {...describedBy('me-time-zone', form.errors.time_zone, true)}>
          <option value="">Browser default ({browserTimeZone()})</option>
          {zones.map((zone) => <option value={zone}>{zone.replace(/_/g, ' ')}</option>)}
        </select>
      </Field>
      <div class="form-actions"><button type="submit" class="btn btn-primary" disabled={form.busy}>Save time zone</button></div>
    </form>
  );
}

/** A new password, with the current one; the user's other sessions end. */
export function PasswordForm() {
  const empty = { current_password: '', new_password: '', repeat: '' };
  const form = useForm(empty);
  const submit = (event: Event) => {
    event.preventDefault();
    if (form.values.new_password !== form.values.repeat) return form.setErrors({ repeat: 'The two passwords differ.' });
    void form.run(async () => {
      const { current_password, new_password } = form.values;
      unwrap(await api.PUT('/api/v1/auth/me/password', { body: { current_password, new_password } }));
      form.setValues(empty);
      return 'Your password is changed. Your other sessions have been signed out.';
    });
  };
  const { errors } = form;
  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="h-password">
      <h2 id="h-password">Change your password</h2>
      {form.done && <p class="notice notice-success" role="status">{form.done}</p>}
      {form.error !== undefined && <ErrorNotice error={form.error} />}
      <div class="form-row">
        <Field id="pw-current" label="Current password" error={errors.current_password}>
          <input id="pw-current" type="password" required autoComplete="current-password" value={form.values.current_password} onInput={form.set('current_password')} {...describedBy('pw-current', errors.current_password)} />
        </Field>
        <Field id="pw-new" label="New password" error={errors.new_password} hint="At least 10 characters">
          <input id="pw-new" type="password" required minLength={10} autoComplete="new-password" value={form.values.new_password} onInput={form.set('new_password')} {...describedBy('pw-new', errors.new_password, true)} />
        </Field>
        <Field id="pw-repeat" label="New password again" error={errors.repeat}>
          <input id="pw-repeat" type="password" required autoComplete="new-password" value={form.values.repeat} onInput={form.set('repeat')} {...describedBy('pw-repeat', errors.repeat)} />
        </Field>
      </div>
      <div class="form-actions"><button type="submit" class="btn btn-primary" disabled={form.busy}>Change password</button></div>
    </form>
  );
}

/** Ends every session of the user, on every device, this one included. */
export function SessionsPanel({ onSignedOut }: { onSignedOut: () => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const everywhere = async () => {
    if (!window.confirm('Sign out on every device, this one included?')) return;
    setBusy(true);
    setError(undefined);
    try {
      unwrap(await api.POST('/api/v1/auth/logout-all'));
      onSignedOut();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <section class="panel" aria-labelledby="h-sessions">
      <h2 id="h-sessions">Sessions</h2>
      <p class="muted">Signed in on a device you no longer use, or one that is not yours? End every session at once.</p>
      {error !== undefined && <ErrorNotice error={error} />}
      <button type="button" class="btn btn-danger" disabled={busy} onClick={everywhere}>Sign out everywhere</button>
    </section>
  );
}
