import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { formatDate } from '../lib/format.ts';
import { showProblem } from '../lib/use-form.ts';
import { Async, describedBy, ErrorNotice, Field, useAsync } from './ui.tsx';

/** How approved tasks reach the site: manual deliverables, or WordPress with credentials checked on save. */
export function ConnectorForm({ siteId, canEdit = true }: { siteId: string; canEdit?: boolean }) {
  const state = useAsync(async () => unwrap(await api.GET('/api/v1/sites/{site_id}/connector', { params: { path: { site_id: siteId } } })), [siteId]);
  // The confirmation lives here: saving reloads the connector, which starts a fresh editor.
  const [saved, setSaved] = useState<string | undefined>();
  return (
    <Async state={state} label="Loading the connector">
      {(c) => !canEdit ? (
        <section class="panel" aria-labelledby="connector-title">
          <h2 id="connector-title">How approved changes reach the site</h2>
          <p><ConnectorSummary current={c} /></p>
          <p class="muted small">An admin or owner of the site's workspace changes the connector.</p>
        </section>
      ) : (
        <Editor key={c.updated_at ?? 'new'} siteId={siteId} current={c} saved={saved}
          onSaving={() => setSaved(undefined)} onSaved={(message) => { setSaved(message); void state.reload(); }} />
      )}
    </Async>
  );
}

type Connector = { type: 'manual' | 'wordpress'; base_url: string | null; username: string | null; has_credentials: boolean; seo_plugins: string[]; verified_at: string | null };

function Editor({ siteId, current, saved, onSaving, onSaved }: { siteId: string; current: Connector; saved: string | undefined; onSaving: () => void; onSaved: (message: string) => void }) {
  const [type, setType] = useState(current.type);
  const [baseUrl, setBaseUrl] = useState(current.base_url ?? '');
  const [username, setUsername] = useState(current.username ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError(undefined);
    onSaving();
    try {
      const body = type === 'manual' ? { type } : { type, base_url: baseUrl.trim(), username: username.trim(), application_password: password };
      unwrap(await api.PUT('/api/v1/sites/{site_id}/connector', { params: { path: { site_id: siteId } }, body }));
      onSaved(type === 'wordpress' ? 'Saved. The credentials work.' : 'Saved.');
    } catch (e) {
      showProblem(e, setErrors, setError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="connector-title">
      <h2 id="connector-title">How approved changes reach the site</h2>
      <p class="muted"><ConnectorSummary current={current} /></p>
      {saved && <p class="notice notice-success" role="status">{saved}</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      <fieldset class="radio-row">
        <legend>Connector</legend>
        <label><input type="radio" name="connector" value="manual" checked={type === 'manual'} onChange={() => setType('manual')} /> Manual instructions</label>
        <label><input type="radio" name="connector" value="wordpress" checked={type === 'wordpress'} onChange={() => setType('wordpress')} /> WordPress</label>
      </fieldset>
      {type === 'wordpress' && (
        <div class="form-row">
          <Field id="wp-url" label="WordPress address" error={errors.base_url} hint="e.g. https://www.example.com">
            <input id="wp-url" required value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} inputMode="url" {...describedBy('wp-url', errors.base_url, true)} />
          </Field>
          <Field id="wp-user" label="User name" error={errors.username}>
            <input id="wp-user" required value={username} autoComplete="off" onInput={(e) => setUsername(e.currentTarget.value)} {...describedBy('wp-user', errors.username)} />
          </Field>
          <Field id="wp-password" label="Application password" error={errors.application_password} hint={current.has_credentials ? 'Stored and sealed; enter it again to change the connection.' : 'WordPress: Users → Profile → Application Passwords'}>
            <input id="wp-password" type="password" required autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} {...describedBy('wp-password', errors.application_password, true)} />
          </Field>
        </div>
      )}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>{busy ? (type === 'wordpress' ? 'Checking the credentials…' : 'Saving…') : 'Save connector'}</button>
      </div>
    </form>
  );
}

function ConnectorSummary({ current }: { current: Connector }) {
  return current.type === 'wordpress'
    ? <>Connected to WordPress at {current.base_url}{current.verified_at && <> · checked {formatDate(current.verified_at, true)}</>}{current.seo_plugins.length > 0 && <> · SEO plugin: {current.seo_plugins.join(', ')}</>}</>
    : <>Manual: each approved task produces exact instructions for you or your developer to apply.</>;
}
