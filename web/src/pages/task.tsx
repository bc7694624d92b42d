import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { DiffView } from '../components/diff.tsx';
import { TaskHistory } from '../components/task-history.tsx';
import { Evidence, ExpectedClicks, KeyValues, PlannedWork, RejectReason, TargetLine } from '../components/task-parts.tsx';
import { fieldName, riskOf } from '../lib/risk.ts';
import { Async, Badge, CopyButton, ErrorNotice, PageHeader, useAsync, usePolling } from '../components/ui.tsx';
import { changesOf, diffExcerpts, pageCount, pathOf } from '../lib/diff.ts';
import { errorMessage, formatDate, formatNumber, humanize } from '../lib/format.ts';
import { atLeast } from '../lib/workspaces.ts';

const MOVING = ['queued', 'in_progress'];

export function TaskPage() {
  const { params } = useRoute();
  const taskId = params.id!;
  const task = useAsync(async () => unwrap(await api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } })), [taskId]);
  const verification = useAsync(async () => {
    try {
      return unwrap(await api.GET('/api/v1/verification/tasks/{task_id}/verification-status', { params: { path: { task_id: taskId } } }));
    } catch (e) {
      if ((e as ApiError).status === 404 || (e as ApiError).status === 409) return null;
      throw e;
    }
  }, [taskId]);
  // The caller's role on the task's site (the site answers it): below editor, no buttons that would answer 403.
  const siteId = task.data?.site_id;
  const site = useAsync(async () => (siteId ? unwrap(await api.GET('/api/v1/sites/{site_id}', { params: { path: { site_id: siteId } } })) : undefined), [siteId]);
  const canAct = atLeast(site.data?.role, 'editor');
  const moving = MOVING.includes(task.data?.status ?? '') || (task.data?.status === 'completed' && verification.data?.status === 'pending' && (verification.data?.checks.length ?? 0) === 0);
  usePolling(() => { void task.reload(); void verification.reload(); }, 1500, moving);

  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | undefined>();
  const [confirming, setConfirming] = useState<'rollback' | 'force' | undefined>();
  const [conflict, setConflict] = useState<string | undefined>();

  const [rejecting, setRejecting] = useState(false);
  const run = async (action: 'approve' | 'cancel' | 'retry' | 'rollback', force = false, reason?: string) => {
    setBusy(true);
    setMessage(undefined);
    try {
      const path = { params: { path: { task_id: taskId } } };
      // Each action answers its own status, so each response is unwrapped on its own.
      const result = action === 'approve' ? unwrap(await api.POST('/api/v1/tasks/{task_id}/approve', path))
        : action === 'cancel' ? unwrap(await api.POST('/api/v1/tasks/{task_id}/cancel', { ...path, body: reason?.trim() ? { reason: reason.trim() } : null }))
        : action === 'retry' ? unwrap(await api.POST('/api/v1/tasks/{task_id}/retry', path))
        : unwrap(await api.POST('/api/v1/tasks/{task_id}/rollback', { params: { path: { task_id: taskId }, query: force ? { force: true } : {} } }));
      // A brief approved is handed over, not queued for the site: say so.
      setMessage({ kind: 'success', text: action === 'approve' && task.data?.outcome === 'brief' ? 'Approved: the brief is being handed over to you.' : result.message });
      setConfirming(undefined);
      setConflict(undefined);
      setRejecting(false);
    } catch (e) {
      if (action === 'rollback' && (e as ApiError).status === 409 && !force && /after the task ran|edited since|force=true/i.test(errorMessage(e))) {
        setConflict(errorMessage(e));
        setConfirming('force');
      } else {
        setMessage({ kind: 'error', text: errorMessage(e) });
        setConfirming(undefined);
      }
    } finally {
      setBusy(false);
      await Promise.all([task.reload(), verification.reload()]);
    }
  };

  return (
    <Async state={task} label="Loading the task">
      {(t) => {
        const deliverablesOf = (Array.isArray(t.deliverables) ? t.deliverables : []) as Array<Record<string, unknown>>;
        // Carried out by a connector: the change reads as what was done.
        const changes = changesOf(t.configuration, { done: (t.status === 'completed' || t.status === 'rolled_back') && deliverablesOf.some((d) => d.connector !== 'manual') });
        // Pages each with a value of their own are shown above (the changes, or the briefs); a list of pages without is configuration.
        const pagesShown = pageCount(t.configuration) > 1;
        const risk = riskOf(t);
        const deliverables = (Array.isArray(t.deliverables) ? t.deliverables : t.deliverables ? [t.deliverables] : []) as Array<Record<string, unknown>>;
        const rollback = t.rollback as { status?: string; finished_at?: string; changes?: unknown[]; checks?: unknown[] } | null;
        // Completed, but nothing was written to the site: a person carries it out (a brief, or the manual connector's exact change).
        const handedOver = t.status === 'completed' && !t.can_roll_back && deliverables.every((d) => d.connector === 'manual');
        return (
          <section class="page">
            <p class="breadcrumb"><a href={`/tasks?site=${t.site_id}`}>Tasks</a> <span aria-hidden="true">/</span> {humanize(t.type)}</p>
            <PageHeader
              title={<span tabIndex={-1}>{t.title}</span>}
              subtitle={<><Badge value={t.status} label={handedOver ? (t.outcome === 'brief' ? 'brief ready' : 'ready to make by hand') : undefined} /> <Badge value={t.priority} label={`${t.priority} priority`} /> {humanize(t.type)} · {t.category === 'seo' ? 'SEO' : humanize(t.category)}</>}
              actions={canAct && (
                <>
                  {t.status === 'awaiting_approval' && <button type="button" class="btn btn-primary" disabled={busy} onClick={() => run('approve')}>Approve</button>}
                  {t.status === 'awaiting_approval' && <button type="button" class="btn" disabled={busy} onClick={() => setRejecting(true)}>Reject…</button>}
                  {t.status === 'queued' && <button type="button" class="btn" disabled={busy} onClick={() => setRejecting(true)}>Cancel before it runs…</button>}
                  {t.can_retry && <button type="button" class="btn btn-primary" disabled={busy} onClick={() => run('retry')}>Try again</button>}
                  {t.can_roll_back && <button type="button" class="btn btn-danger" disabled={busy} onClick={() => setConfirming('rollback')}>Roll back</button>}
                </>
              )}
            />
            {site.data && !canAct && (t.status === 'awaiting_approval' || t.status === 'queued' || t.can_retry || t.can_roll_back) && (
              <p class="notice notice-info">You can view this task (you are {site.data.role} in the site's workspace); an editor or above can approve, cancel, retry or roll it back.</p>
            )}
            {message && <p class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
            {rejecting && (t.status === 'awaiting_approval' || t.status === 'queued') && (
              <RejectReason count={1} busy={busy} verb={t.status === 'queued' ? 'cancel' : 'reject'} onReject={(reason) => run('cancel', false, reason)} onKeep={() => setRejecting(false)} />
            )}
            {confirming && (
              <div class="panel confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
                <h2 id="confirm-title">{confirming === 'force' ? 'The page was edited since this task ran' : 'Roll back this change?'}</h2>
                <p id="confirm-text">{confirming === 'force' ? `${conflict} Restoring anyway overwrites those later edits with the values from before the task.` : 'Every value this task changed is put back as it was before. The site changes at once.'}</p>
                <div class="form-actions">
                  <button type="button" class="btn btn-danger" disabled={busy} onClick={() => run('rollback', confirming === 'force')} ref={(el) => el?.focus()}>{confirming === 'force' ? 'Restore anyway' : 'Roll back'}</button>
                  <button type="button" class="btn" disabled={busy} onClick={() => { setConfirming(undefined); setConflict(undefined); }}>Keep the change</button>
                </div>
              </div>
            )}
            {t.status === 'failed' && t.error !== null && t.error !== undefined && (
              // One paragraph, the title then the message, read left to right (as flex items of the notice they were pushed to
              // its two ends); on a phone the message starts on the line under the title.
              <div class="notice notice-error task-failed" role="alert">
                <p><strong class="notice-title">Execution failed:</strong> {typeof t.error === 'string' ? t.error : String((t.error as { message?: string }).message ?? JSON.stringify(t.error))}
                  {t.can_retry && <> The site is as it was before: you can try again.</>}</p>
              </div>
            )}

            <div class="task-layout">
              <div class="task-main">
                <section class="panel" aria-labelledby="h-change">
                  <h2 id="h-change">{t.outcome === 'brief' ? (handedOver ? 'The brief, ready for you to carry out' : 'The brief') : handedOver ? 'The change to make' : t.status === 'completed' ? 'What changed' : t.status === 'rolled_back' ? 'What was changed (rolled back since)' : t.status === 'awaiting_approval' || t.status === 'queued' ? 'What will change' : 'The change'}</h2>
                  <TargetLine target={t.target} />
                  {changes.length ? changes.map((c) => <DiffView change={c} />)
                    : <PlannedWork configuration={t.configuration} limit={Infinity} fallback={<p class="muted">No direct edit: see the deliverables.</p>} />}
                  <p class="small"><strong>Why:</strong> {t.description}</p>
                  <ExpectedClicks worth={t.expected_clicks} explain />
                  <p class="small"><strong>Risk ({risk.label}):</strong> {risk.text}</p>
                </section>
                <section class="panel" aria-labelledby="h-evidence">
                  <h2 id="h-evidence">Evidence</h2>
                  <Evidence evidence={t.evidence} />
                </section>
                <section class="panel" aria-labelledby="h-deliverables">
                  <h2 id="h-deliverables">Deliverables</h2>
                  {deliverables.length === 0 ? <p class="muted">Produced when the task runs.</p> : deliverables.map((d) => <Deliverable d={d} />)}
                </section>
                <details class="panel technical">
                  <summary><h2>Task configuration</h2></summary>
                  <p class="muted small">The task's configuration as the agent wrote it (the API's <code>configuration</code>).</p>
                  <KeyValues value={t.configuration} skip={['before', 'after', ...(pagesShown ? ['pages'] : [])]} />
                </details>
              </div>
              <aside class="task-side">
                <section class="panel" aria-labelledby="h-verify">
                  <h2 id="h-verify">Verification</h2>
                  <Async state={verification} label="Loading verification">
                    {(v) => !v ? <p class="muted">Checked on the live site after the task runs.</p> : (
                      <>
                        {t.status === 'rolled_back' && <p class="notice notice-info small">These checks were of the change, which has been rolled back: the live page shows the values from before it again (see Rollback).</p>}
                        <p><Badge value={v.status} label={t.status === 'rolled_back' ? `${humanize(v.status)} before the rollback` : undefined} /> {v.checked_at ? <span class="muted small">checked {formatDate(v.checked_at, true)}</span> : <span class="muted small">{v.status === 'not_applicable' ? 'nothing on the site to check' : 'not checked yet'}</span>}</p>
                        {v.checks.length > 0 && (
                          <ul class="checks">
                            {checkLines(v.checks as Array<Record<string, unknown>>).map((line) => (
                              <li class={line.passed ? 'tone-good' : 'tone-bad'}>
                                <span aria-hidden="true">{line.passed ? '✓' : '✗'}</span> {line.what}{line.where && <span class="muted small"> {line.where}</span>}: <span class="small">{line.outcome}</span>
                              </li>
                            ))}
                          </ul>
                        )}
                        {v.impact && (
                          <div class="impact">
                            <h3>Impact{v.impact.query ? <> for “{v.impact.query}”</> : null} ({v.impact.window_days} days before vs after)</h3>
                            <p class="small">
                              <strong>{v.impact.realised_clicks_28d >= 0 ? '+' : '−'}{formatNumber(Math.abs(v.impact.realised_clicks_28d))} clicks / 28 days</strong> so far
                              {v.impact.expected_clicks && <span class="muted"> · expected about +{formatNumber(v.impact.expected_clicks.clicks)} ({formatNumber(v.impact.expected_clicks.low)}–{formatNumber(v.impact.expected_clicks.high)})</span>}
                            </p>
                            <table class="table compact">
                              <thead><tr><th scope="col">Metric</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
                              <tbody>
                                <tr><th scope="row">Clicks</th><td>{formatNumber(v.impact.before.clicks)}</td><td>{formatNumber(v.impact.after.clicks)}</td></tr>
                                <tr><th scope="row">Impressions</th><td>{formatNumber(v.impact.before.impressions)}</td><td>{formatNumber(v.impact.after.impressions)}</td></tr>
                                <tr><th scope="row">Position</th><td>{formatNumber(v.impact.before.position, { digits: 1 })}</td><td>{formatNumber(v.impact.after.position, { digits: 1 })}</td></tr>
                              </tbody>
                            </table>
                          </div>
                        )}
                      </>
                    )}
                  </Async>
                </section>
                {rollback && (
                  <section class="panel" aria-labelledby="h-rollback">
                    <h2 id="h-rollback">Rollback</h2>
                    <p><Badge value={rollback.status ?? 'pending'} /> {rollback.finished_at && <span class="muted small">{formatDate(rollback.finished_at, true)}</span>}</p>
                    {Array.isArray(rollback.checks) && rollback.checks.length > 0 && (
                      <ul class="checks">
                        {(rollback.checks as Array<Record<string, unknown>>).map((c) => (
                          <li class={c.passed === false ? 'tone-bad' : 'tone-good'}>
                            <span aria-hidden="true">{c.passed === false ? '✗' : '✓'}</span> {c.passed === false ? 'Live page does not show' : 'Live page shows'} the original {humanize(String(c.check ?? 'value')).toLowerCase()}{typeof c.url === 'string' && <span class="muted small"> on {pathOf(c.url)}</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </section>
                )}
                <section class="panel" aria-labelledby="h-history">
                  <h2 id="h-history">History</h2>
                  <TaskHistory history={t.execution_history} outcome={t.outcome} workspaceId={site.data?.workspace_id} />
                </section>
              </aside>
            </div>
          </section>
        );
      }}
    </Async>
  );
}

function Deliverable({ d }: { d: Record<string, unknown> }) {
  const html = typeof d.html === 'string' ? d.html : undefined;
  const instructions = typeof d.instructions === 'string' ? d.instructions : undefined;
  const copyText = [instructions, html].filter(Boolean).join('\n\n');
  const changes = (Array.isArray(d.changes) ? d.changes : []) as Array<Record<string, unknown>>;
  const written = changes.filter((c) => typeof c.field === 'string' && 'after' in c);
  return (
    <div class="deliverable">
      <p class="muted small">{d.connector === 'manual' ? 'To do by hand on the site' : `Changed through ${d.connector === 'wordpress' ? 'WordPress' : String(d.connector ?? 'the connector')}`}{typeof d.url === 'string' && <> · <span class="url">{pathOf(d.url)}</span></>}</p>
      {instructions && <p>{instructions}</p>}
      {html && <pre class="code" tabIndex={0}><code>{html}</code></pre>}
      {written.length > 0 && (
        <ul class="changes">
          {written.map((c) => (
            <li>
              <strong>{fieldName(String(c.field))}</strong>:{' '}
              {/* A long value (a post's HTML): only the edited words, with their surroundings. */}
              {String(c.before ?? '').length + String(c.after ?? '').length > 400
                ? <span class="excerpt">{diffExcerpts(String(c.before ?? ''), String(c.after ?? '')).map((p) => (p.kind === 'removed' ? <del>{p.text}</del> : p.kind === 'added' ? <ins>{p.text}</ins> : <span class="muted">{p.text}</span>))}</span>
                : <><span class="muted">{String(c.before ?? '') || '(empty)'}</span> <span aria-label="changed to">→</span> {String(c.after ?? '') || '(empty)'}</>}
            </li>
          ))}
        </ul>
      )}
      {changes.length > written.length && <ul class="changes">{changes.filter((c) => !written.includes(c)).map((c) => <li><KeyValues value={c} /></li>)}</ul>}
      {typeof d.note === 'string' && <p class="small muted">{d.note}</p>}
      {/* The connector's own summary names its fields as stored ("meta.sos_meta_description"): in words above, in the record below. */}
      {typeof d.summary === 'string' && d.connector !== 'manual' && written.length === 0 && <p class="small muted">{d.summary}</p>}
      {d.connector === 'manual' && copyText && <CopyButton text={copyText} label="Copy instructions" />}
      {d.connector !== 'manual' && (
        <details class="technical-inline">
          <summary>What the connector recorded</summary>
          <KeyValues value={d} skip={['html', 'instructions', 'changes', 'note', 'connector', 'url', ...(written.length === 0 ? ['summary'] : [])]} />
        </details>
      )}
    </div>
  );
}

/** A value in a check, in words: nothing is "nothing", not "null". */
const shown = (value: unknown) => (value === null || value === undefined || value === '' ? 'nothing' : `“${String(value)}”`);

/**
 * A verification's checks in words, one line a check ("meta description on /roses/: found as
 * written"), or one line for a check that passed on many pages ("meta description on 26 pages:
 * found as written").
 */
function checkLines(checks: Array<Record<string, unknown>>): Array<{ what: string; where?: string; outcome: string; passed: boolean }> {
  const lineOf = (c: Record<string, unknown>) => {
    const passed = c.passed !== false && c.ok !== false;
    const outcome = passed
      ? c.expected === null ? 'no longer on the page' : c.expected !== undefined ? 'found as written' : 'passed'
      : `expected ${shown(c.expected)}, found ${shown(c.actual)}`;
    return { what: humanize(String(c.description ?? c.check ?? c.name ?? c.field ?? 'check')), ...(typeof c.url === 'string' ? { where: `on ${pathOf(c.url)}` } : {}), outcome, passed };
  };
  const groups = new Map<string, Array<ReturnType<typeof lineOf>>>();
  for (const line of checks.map(lineOf)) {
    const key = `${line.what}|${line.passed}|${line.outcome}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()].flatMap((group) => (group.length > 3 && group[0]!.passed
    ? [{ what: group[0]!.what, where: `on ${group.length} pages`, outcome: group[0]!.outcome, passed: true }]
    : group));
}
