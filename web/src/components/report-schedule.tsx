import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../api/client.ts';
import type { paths } from '../generated/api';
import { errorMessage, fieldErrors, formatDate } from '../lib/format.ts';
import { Async, describedBy, Field, useAsync } from './ui.tsx';

type Schedule = paths['/api/v1/sites/{site_id}/report/schedule']['get']['responses'][200]['content']['application/json'];
type Frequency = Schedule['frequency'];
type Compare = Schedule['compare'];

const FREQUENCIES: Record<Frequency, string> = { monthly: 'Monthly, on the 3rd (last calendar month)', weekly: 'Weekly, on Wednesdays (last Monday to Sunday)' };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "November 2026" for a month, "30 Nov – 6 Dec 2026" for a week. */
function periodName(frequency: Frequency, period: { start: string; end: string }) {
  if (frequency === 'monthly') return `${MONTHS[Number(period.start.slice(5, 7)) - 1]} ${period.start.slice(0, 4)}`;
  return `${formatDate(period.start)} – ${formatDate(period.end)}`;
}

/** Addresses as a person types them: separated by commas, semicolons, spaces or lines. */
const addresses = (text: string) => text.split(/[\s,;]+/).map((a) => a.trim()).filter(Boolean);

/**
 * The site's report e-mailed on a schedule: who gets it and how often. Admins set, change, send now or stop it; every
 * member sees it. The report goes to people outside the workspace, so the form says what they get and when.
 */
export function ReportSchedule({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  const path = { params: { path: { site_id: siteId } } };
  const state = useAsync(async () => {
    try {
      return unwrap(await api.GET('/api/v1/sites/{site_id}/report/schedule', path)) as Schedule;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, [siteId]);
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      setMessage({ kind: 'success', text: await work() });
    } catch (e) {
      setMessage({ kind: 'error', text: errorMessage(e) });
    } finally {
      setBusy(false);
      void state.reload();
    }
  };
  const sendNow = () => act(async () => unwrap(await api.POST('/api/v1/sites/{site_id}/report/schedule/send', path)).message);
  const stop = () => act(async () => {
    unwrap(await api.DELETE('/api/v1/sites/{site_id}/report/schedule', path));
    return 'Stopped: no more scheduled reports for this site.';
  });

  return (
    <section class="report-schedule" aria-labelledby="report-schedule-title">
      <h3 id="report-schedule-title">E-mail it on a schedule</h3>
      <Async state={state} label="Loading the report schedule">
        {(schedule) => editing ? (
          <ScheduleForm siteId={siteId} schedule={schedule} onDone={(text) => { setEditing(false); if (text) setMessage({ kind: 'success', text }); void state.reload(); }} />
        ) : schedule === null ? (
          <div class="report-schedule-row">
            <p class="small muted">Not scheduled. {canManage ? 'Send this report to your client every week or month, with the PDF attached.' : 'An admin or owner of the workspace can schedule it.'}</p>
            {canManage && <button type="button" class="btn btn-small" onClick={() => { setMessage(undefined); setEditing(true); }}>Schedule e-mail</button>}
          </div>
        ) : (
          <div class="report-schedule-row">
            <div class="small">
              <p><strong>{schedule.frequency === 'monthly' ? 'Monthly' : 'Weekly'}</strong> to {schedule.recipients.join(', ')}
                {schedule.compare === 'year' ? ', compared with the same dates a year before' : ''}</p>
              <p class="muted">Next: the report for {periodName(schedule.frequency, schedule.next_period)}, sent on {formatDate(schedule.next_send_on)} · set by {schedule.sender.email}</p>
              {schedule.last_error && <p class="report-schedule-error" role="status">{schedule.last_error}</p>}
            </div>
            {canManage && (
              <div class="report-schedule-actions">
                <button type="button" class="btn btn-small" onClick={() => { setMessage(undefined); setEditing(true); }}>Change</button>
                <button type="button" class="btn btn-small" aria-disabled={busy || undefined} title={`Send the report for the last ${schedule.frequency === 'monthly' ? 'month' : 'week'} now`} onClick={() => void (!busy && sendNow())}>Send now</button>
                <button type="button" class="btn btn-small report-schedule-stop" aria-disabled={busy || undefined} onClick={() => void (!busy && window.confirm(`Stop e-mailing this report to ${schedule.recipients.join(', ')}?`) && stop())}>Stop</button>
              </div>
            )}
          </div>
        )}
      </Async>
      {message && <p class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
    </section>
  );
}

function ScheduleForm({ siteId, schedule, onDone }: { siteId: string; schedule: Schedule | null; onDone: (message?: string) => void }) {
  const [frequency, setFrequency] = useState<Frequency>(schedule?.frequency ?? 'monthly');
  const [compare, setCompare] = useState<Compare>(schedule?.compare ?? 'previous');
  const [recipients, setRecipients] = useState(schedule?.recipients.join(', ') ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const list = addresses(recipients);
    if (list.length === 0) {
      setErrors({ recipients: 'Give at least one address' });
      return;
    }
    setBusy(true);
    setError(undefined);
    setErrors({});
    try {
      const saved = unwrap(await api.PUT('/api/v1/sites/{site_id}/report/schedule', { params: { path: { site_id: siteId } }, body: { frequency, compare, recipients: list } })) as Schedule;
      onDone(`Scheduled: the report for ${periodName(saved.frequency, saved.next_period)} goes out on ${formatDate(saved.next_send_on)}.`);
    } catch (e) {
      const byField = e instanceof ApiError ? fieldErrors(e.problem.errors) : {};
      if (byField.recipients) setErrors({ recipients: `${byField.recipients.replace(/\.$/, '')} (up to 10 addresses, each once).` });
      else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="report-schedule-form" onSubmit={(e) => void submit(e)} noValidate>
      <div class="form-row">
        <Field id="schedule-frequency" label="How often">
          <select id="schedule-frequency" value={frequency} onChange={(e) => setFrequency(e.currentTarget.value as Frequency)}>
            {(Object.keys(FREQUENCIES) as Frequency[]).map((f) => <option key={f} value={f}>{FREQUENCIES[f]}</option>)}
          </select>
        </Field>
        <Field id="schedule-compare" label="Compared with">
          <select id="schedule-compare" value={compare} onChange={(e) => setCompare(e.currentTarget.value as Compare)}>
            <option value="previous">The period before</option>
            <option value="year">The same dates a year before</option>
          </select>
        </Field>
      </div>
      <Field id="schedule-recipients" label="Send to" error={errors.recipients} hint="Up to 10 addresses, separated by commas. They need no account: each gets the report as a PDF.">
        <input id="schedule-recipients" type="text" inputMode="email" autoComplete="off" value={recipients} placeholder="client@example.com, boss@example.com"
          onInput={(e) => setRecipients(e.currentTarget.value)} {...describedBy('schedule-recipients', errors.recipients, true)} />
      </Field>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      <div class="report-schedule-actions">
        <button type="submit" class="btn btn-primary btn-small" aria-disabled={busy || undefined}>{busy ? 'Saving…' : 'Save schedule'}</button>
        <button type="button" class="btn btn-small" onClick={() => onDone()}>Cancel</button>
      </div>
    </form>
  );
}
