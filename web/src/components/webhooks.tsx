import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { errorMessage, formatDate } from '../lib/format.ts';
import { showProblem } from '../lib/use-form.ts';
import type { Workspace } from '../lib/workspaces.ts';
import { Async, Badge, CopyButton, describedBy, ErrorNotice, Field, Pager, useAsync } from './ui.tsx';

type Webhook = { id: string; url: string; events: string[]; enabled: boolean; description: string; disabled_reason: string | null; last_delivery: { status: string; event_type: string; at: string } | null };
type Message = { kind: 'success' | 'error'; text: string };

/** The event types an endpoint may take, in the words the form shows. */
const EVENTS = [
  ['audit.completed', 'An audit finished'],
  ['proposals.created', 'The agent proposed tasks'],
  ['task.completed', 'A task was carried out'],
  ['task.failed', 'A task failed'],
  ['task.verified', 'A change was verified live'],
  ['task.rolled_back', 'A task was rolled back'],
] as const;
const DELIVERY_TONE: Record<string, string> = { succeeded: 'completed', pending: 'pending', failed: 'failed' };

/**
 * A workspace's webhook endpoints (admins and owners): list, add, enable / disable, test, rotate the secret, delete,
 * delivery log. A new or rotated secret is shown once, in the row of the endpoint it signs for.
 */
export function Webhooks({ workspace: w }: { workspace: Workspace }) {
  const path = { params: { path: { workspace_id: w.id } } };
  const hooks = useAsync(async () => unwrap(await api.GET('/api/v1/workspaces/{workspace_id}/webhooks', path)).items as Webhook[], [w.id]);
  const [message, setMessage] = useState<Message | undefined>();
  const [busy, setBusy] = useState(false);
  const [log, setLog] = useState<Webhook | undefined>();
  const [secret, setSecret] = useState<{ webhookId: string; value: string } | undefined>();

  const act = async (work: () => Promise<unknown>, success: string) => {
    setBusy(true);
    setMessage(undefined);
    setSecret(undefined);
    try {
      await work();
      setMessage({ kind: 'success', text: success });
    } catch (e) {
      setMessage({ kind: 'error', text: errorMessage(e) });
    } finally {
      setBusy(false);
      await hooks.reload();
    }
  };
  const one = (h: Webhook) => ({ params: { path: { workspace_id: w.id, webhook_id: h.id } } });
  const toggle = (h: Webhook) => act(
    () => api.PATCH('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}', { ...one(h), body: { enabled: !h.enabled } }).then(unwrap),
    h.enabled ? `${h.url} is disabled: it receives nothing until enabled.` : `${h.url} is enabled.`,
  );
  const test = (h: Webhook) => act(
    () => api.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/test', one(h)).then(unwrap),
    `A webhook.test event is on its way to ${h.url}: its delivery log shows the answer.`,
  );
  const rotate = (h: Webhook) => {
    if (!window.confirm(`Replace the signing secret of ${h.url}? The old one stops working at once: deliveries signed with it fail to verify until the receiver has the new one.`)) return;
    void act(async () => {
      const rotated = unwrap(await api.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/rotate-secret', one(h)));
      setSecret({ webhookId: h.id, value: rotated.secret });
    }, `${h.url} has a new signing secret: it is shown below it, only now.`);
  };
  const remove = (h: Webhook) => {
    if (!window.confirm(`Delete the webhook to ${h.url} and its delivery log?`)) return;
    if (log?.id === h.id) setLog(undefined);
    void act(() => api.DELETE('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}', one(h)).then(unwrap), `The webhook to ${h.url} is deleted.`);
  };

  return (
    <section class="webhooks" aria-labelledby="h-webhooks">
      <h3 id="h-webhooks">Webhooks</h3>
      <p class="muted small">This workspace's events, POSTed as JSON to your endpoints and signed per Standard Webhooks (see the README's Webhooks section to verify them).</p>
      {message && <p class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
      <Async state={hooks} label="Loading webhooks">
        {(items) => items.length === 0 ? <p class="muted small">No webhooks yet.</p> : (
          <div class="table-wrap">
            <table class="table webhooks-table stacked" aria-labelledby="h-webhooks">
              <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Enabled</th><th scope="col">Last delivery</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {items.map((h) => [
                  <tr>
                    <td data-label="URL" class="url">{h.url}{h.description && <div class="muted small">{h.description}</div>}</td>
                    <td data-label="Events">{h.events.length === 0 ? 'All' : h.events.join(', ')}</td>
                    <td data-label="Enabled">
                      <label class="checkbox">
                        <input type="checkbox" checked={h.enabled} disabled={busy} onChange={() => void toggle(h)} aria-label={`Enabled: ${h.url}`} />
                        {h.enabled ? 'Yes' : 'No'}
                      </label>
                      {h.disabled_reason && <div class="muted small">{h.disabled_reason}</div>}
                    </td>
                    <td data-label="Last delivery">
                      {h.last_delivery ? <span class="last-delivery"><Badge value={DELIVERY_TONE[h.last_delivery.status] ?? h.last_delivery.status} label={h.last_delivery.status} /> <span class="muted small">{h.last_delivery.event_type}, {formatDate(h.last_delivery.at, true)}</span></span> : '—'}
                    </td>
                    <td data-label="">
                      <div class="form-actions">
                        <button type="button" class="btn btn-small" disabled={busy || !h.enabled} onClick={() => void test(h)} aria-label={`Send test event to ${h.url}`}>Send test</button>
                        <button type="button" class="btn btn-small btn-ghost" onClick={() => setLog(log?.id === h.id ? undefined : h)} aria-expanded={log?.id === h.id} aria-label={`Delivery log of ${h.url}`}>Log</button>
                        <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => rotate(h)} aria-label={`Rotate secret of ${h.url}`}>Rotate secret</button>
                        <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={() => remove(h)} aria-label={`Delete the webhook to ${h.url}`}>Delete</button>
                      </div>
                    </td>
                  </tr>,
                  secret?.webhookId === h.id && (
                    <tr class="secret-row">
                      <td colSpan={5}><SecretNotice url={h.url} value={secret.value} /></td>
                    </tr>
                  ),
                ])}
              </tbody>
            </table>
          </div>
        )}
      </Async>
      {log && <DeliveryLog key={log.id} workspace={w} webhook={log} onRefresh={() => hooks.reload()} />}
      <AddWebhook workspace={w} onAdded={async (created) => { setMessage(undefined); await hooks.reload(); setSecret({ webhookId: created.id, value: created.secret }); }} />
    </section>
  );
}

/** A signing secret, shown once beside the endpoint it signs for, to copy. */
function SecretNotice({ url, value }: { url: string; value: string }) {
  return (
    <div class="notice notice-success invite-link" role="status">
      <p>The signing secret of {url}. Keep it with the receiving system: it is shown only now.</p>
      <div class="input-with-button">
        <input readOnly value={value} aria-label="Signing secret" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} />
      </div>
    </div>
  );
}

/** One endpoint's deliveries; Refresh also refreshes the endpoints' Last delivery column, so the two never disagree. */
function DeliveryLog({ workspace: w, webhook: h, onRefresh }: { workspace: Workspace; webhook: Webhook; onRefresh: () => Promise<void> }) {
  const [page, setPage] = useState(1);
  const deliveries = useAsync(async () => unwrap(await api.GET('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries', {
    params: { path: { workspace_id: w.id, webhook_id: h.id }, query: { page, page_size: 20 } },
  })), [w.id, h.id, page]);
  return (
    <section class="delivery-log" aria-labelledby="h-deliveries">
      <div class="panel-head">
        <h4 id="h-deliveries">Deliveries to {h.url}</h4>
        <button type="button" class="btn btn-small" onClick={() => void Promise.all([deliveries.reload(), onRefresh()])}>Refresh</button>
      </div>
      <Async state={deliveries} label="Loading deliveries">
        {(result) => result.items.length === 0 ? <p class="muted small">Nothing sent yet.</p> : (
          <>
            <div class="table-wrap">
              <table class="table deliveries-table stacked" aria-labelledby="h-deliveries">
                <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Sent</th><th scope="col">Next attempt</th></tr></thead>
                <tbody>
                  {result.items.map((d) => (
                    <tr>
                      <td data-label="Event">{d.event_type}</td>
                      <td data-label="Status"><Badge value={DELIVERY_TONE[d.status] ?? d.status} label={d.status} /></td>
                      <td data-label="Attempts">{d.attempts}</td>
                      <td data-label="Last answer">{d.last_status_code ?? '—'}{d.last_error && <div class="muted small">{d.last_error}</div>}</td>
                      <td data-label="Sent">{formatDate(String(d.created_at), true)}</td>
                      <td data-label="Next attempt">{d.status === 'pending' && d.next_attempt_at ? formatDate(String(d.next_attempt_at), true) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={result.page} pageSize={result.page_size} total={result.total} onPage={setPage} />
          </>
        )}
      </Async>
    </section>
  );
}

function AddWebhook({ workspace: w, onAdded }: { workspace: Workspace; onAdded: (created: { id: string; secret: string }) => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const toggle = (type: string, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((e) => e !== type)));
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError(undefined);
    try {
      const created = unwrap(await api.POST('/api/v1/workspaces/{workspace_id}/webhooks', {
        params: { path: { workspace_id: w.id } }, body: { url: url.trim(), events: events as never },
      }));
      setUrl('');
      setEvents([]);
      await onAdded(created);
    } catch (e) {
      showProblem(e, setErrors, setError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="invite-form" onSubmit={submit} aria-labelledby="h-add-webhook">
      <h4 id="h-add-webhook">Add a webhook</h4>
      {error !== undefined && <ErrorNotice error={error} />}
      <Field id="webhook-url" label="Endpoint URL" error={errors.url} hint="https, on a public host.">
        <input id="webhook-url" type="url" required maxLength={2048} value={url} placeholder="https://hooks.example.com/seo" onInput={(e) => setUrl(e.currentTarget.value)} {...describedBy('webhook-url', errors.url, true)} />
      </Field>
      <fieldset class="field">
        <legend>Events (none ticked: all of them)</legend>
        {EVENTS.map(([type, words]) => (
          <label class="checkbox">
            <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.currentTarget.checked)} />
            <span>{words} <code class="muted small">{type}</code></span>
          </label>
        ))}
      </fieldset>
      <div class="form-actions"><button type="submit" class="btn btn-primary" disabled={busy}>{busy ? 'Adding…' : 'Add webhook'}</button></div>
    </form>
  );
}
