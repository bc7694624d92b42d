import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { errorMessage } from '../lib/format.ts';
import type { Workspace } from '../lib/workspaces.ts';
import { Async, Field, useAsync } from './ui.tsx';

type Settings = { digest: 'off' | 'daily' | 'weekly'; alerts: boolean };

/** The caller's own e-mail from a workspace: the digest of proposals awaiting approval, and alerts. Any member chooses theirs. */
export function EmailSettings({ workspace: w }: { workspace: Workspace }) {
  const path = { params: { path: { workspace_id: w.id } } };
  const settings = useAsync(async () => unwrap(await api.GET('/api/v1/workspaces/{workspace_id}/notifications', path)) as Settings, [w.id]);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const save = async (change: Partial<Settings>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      unwrap(await api.PUT('/api/v1/workspaces/{workspace_id}/notifications', { ...path, body: change }));
      setMessage({ kind: 'success', text: 'Saved.' });
    } catch (e) {
      setMessage({ kind: 'error', text: errorMessage(e) });
    } finally {
      setBusy(false);
      settings.reload();
    }
  };
  return (
    <section class="email-settings" aria-labelledby="h-email">
      <h3 id="h-email">Your notifications from this workspace</h3>
      <Async state={settings} label="Loading your e-mail settings">
        {(s) => (
          <div class="form-row">
            <Field id="digest" label="Proposals awaiting approval">
              <select id="digest" value={s.digest} disabled={busy} onChange={(e) => void save({ digest: e.currentTarget.value as Settings['digest'] })}>
                <option value="weekly">A weekly digest (Mondays)</option>
                <option value="daily">A daily digest</option>
                <option value="off">No digest</option>
              </select>
            </Field>
            <label class="checkbox">
              <input type="checkbox" checked={s.alerts} disabled={busy} onChange={(e) => void save({ alerts: e.currentTarget.checked })} />
              Alert me when an audit finds new critical problems or a site cannot be reached
            </label>
          </div>
        )}
      </Async>
      {message && <p class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
      <p class="muted small">Every message has a one-click unsubscribe link. Without an SMTP server configured, messages are not sent.</p>
    </section>
  );
}
