import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { loadSites } from '../components/site-picker.tsx';
import { Async, describedBy, Empty, ErrorNotice, Field, PageHeader, Score, Spark, useAsync } from '../components/ui.tsx';
import { fieldErrors, formatRelative, platformName } from '../lib/format.ts';
import { atLeast, useCurrentWorkspace, useWorkspaces, type Workspace } from '../lib/workspaces.ts';

async function loadOverview() {
  const sites = await loadSites();
  // The list carries no score: each site's progress has it, with the audit history.
  const progress = await Promise.all(sites.map((s) => api.GET('/api/v1/sites/{site_id}/progress', { params: { path: { site_id: s.id } } }).then(unwrap).catch(() => undefined)));
  return sites.map((site, i) => ({ site, progress: progress[i] }));
}

export function SitesPage() {
  const state = useAsync(loadOverview, []);
  const [adding, setAdding] = useState(false);
  const workspaces = useWorkspaces();
  const [current, setCurrent] = useCurrentWorkspace();
  // A link from the Workspaces page (?workspace=) chooses the workspace, and is remembered like the select.
  const { query, path, route } = useLocation();
  useEffect(() => {
    if (query.workspace !== undefined) {
      setCurrent(query.workspace);
      route(path, true);
    }
  }, [query.workspace]);
  // The top bar's switcher chooses the workspace; a remembered one the user has since left reads as all of them.
  const shown = workspaces?.find((w) => w.id === current);
  const filter = shown ? shown.id : '';
  const canAdd = workspaces === undefined || workspaces.some((w) => atLeast(w.role, 'admin'));
  const workspaceName = (id: string) => workspaces?.find((w) => w.id === id)?.name ?? '';
  return (
    <section class="page">
      <PageHeader
        title={<span tabIndex={-1}>Sites</span>}
        subtitle={shown ? <>The websites of <strong>{shown.name}</strong>, with their health and latest audit.</> : 'Every website you look after, with its health and latest audit.'}
        actions={!adding && canAdd && <button type="button" class="btn btn-primary" onClick={() => setAdding(true)}>Add site</button>}
      />
      {adding && <SiteForm workspaces={workspaces} defaultWorkspace={filter} onDone={(added) => { setAdding(false); if (added) void state.reload(); }} />}
      <Async state={state} label="Loading your sites">
        {(all) => {
          const rows = filter ? all.filter((r) => r.site.workspace_id === filter) : all;
          return rows.length === 0 ? (
          <Empty title={filter && all.length ? `No sites in ${shown?.name} yet` : 'No sites yet'}>
            <p>Add a website to audit it, review what the agent proposes and follow its search performance.</p>
            {!adding && canAdd && <button type="button" class="btn btn-primary" onClick={() => setAdding(true)}>Add your first site</button>}
          </Empty>
        ) : (
          <div class="table-wrap">
            <table class="table sites-table stacked">
              <caption class="sr-only">Your sites</caption>
              <thead>
                <tr><th scope="col">Site</th><th scope="col">Health</th><th scope="col">Trend</th><th scope="col">Platform</th><th scope="col">Last audit</th><th scope="col">To review</th></tr>
              </thead>
              <tbody>
                {rows.map(({ site, progress }) => {
                  const scores = (progress?.score_history ?? []).map((h) => h.score).filter((s): s is number => s !== null);
                  const audit = progress?.audit;
                  return (
                    <tr>
                      <td data-label="Site"><a class="strong" href={`/sites/${site.id}`}>{site.name}</a><div class="muted small">{site.domain}</div>{!filter && workspaces && workspaces.length > 1 && <div class="muted small">in {workspaceName(site.workspace_id)}</div>}</td>
                      <td data-label="Health"><Score value={progress?.health_score} /></td>
                      <td data-label="Trend"><Spark values={scores} label={scores.length > 1 ? `Score over the last ${scores.length} audits: ${scores.join(', ')}` : 'Not enough audits for a trend'} /></td>
                      <td data-label="Platform">{site.platform === 'unknown' ? <span class="muted">Not detected</span> : platformName(site.platform)}</td>
                      <td data-label="Last audit">{audit ? (audit.status === 'running' || audit.status === 'queued' ? <span class="badge badge-info">{audit.status}</span> : formatRelative(audit.finished_at)) : <span class="muted">Never</span>}</td>
                      <td data-label="To review">{progress?.tasks.awaiting_approval ? <a href={`/approvals?site=${site.id}`}>{progress.tasks.awaiting_approval} proposals</a> : <span class="muted">None</span>}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        );
        }}
      </Async>
    </section>
  );
}

export type SiteFields = { name: string; domain: string; audit_schedule?: 'off' | 'daily' | 'weekly'; rendering?: 'auto' | 'always' | 'never' };

/** Add a site, or edit one (name, domain, re-audit schedule), with the API's field errors beside each field. */
export function SiteForm({ site, workspaces, defaultWorkspace, onDone }: {
  site?: SiteFields & { id: string; workspace_id: string }; workspaces?: Workspace[] | undefined; defaultWorkspace?: string; onDone: (changed: boolean) => void;
}) {
  // A site is added where the caller is admin or owner, and moved to such a workspace only by an owner of the one it is in.
  const from = site ? (workspaces ?? []).find((w) => w.id === site.workspace_id) : undefined;
  const canMove = !site || atLeast(from?.role, 'owner');
  const allowed = canMove ? (workspaces ?? []).filter((w) => atLeast(w.role, 'admin')) : [];
  const [workspace, setWorkspace] = useState(site?.workspace_id ?? (allowed.some((w) => w.id === defaultWorkspace) ? defaultWorkspace! : allowed.find((w) => w.personal)?.id ?? allowed[0]?.id ?? ''));
  const [values, setValues] = useState<SiteFields>({ name: site?.name ?? '', domain: site?.domain ?? '', audit_schedule: site?.audit_schedule ?? 'weekly', rendering: site?.rendering ?? 'auto' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof SiteFields) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value });

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError(undefined);
    try {
      const where = workspace && workspace !== site?.workspace_id ? { workspace_id: workspace } : {};
      if (site) unwrap(await api.PUT('/api/v1/sites/{site_id}', { params: { path: { site_id: site.id } }, body: { ...values, ...where } }));
      else unwrap(await api.POST('/api/v1/sites', { body: { name: values.name.trim(), domain: values.domain.trim(), ...where } }));
      onDone(true);
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if ((e as ApiError).status === 409 && !fields.domain) fields.domain = (e as ApiError).problem.detail ?? 'This site is already added.';
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} aria-labelledby="site-form-title">
      <h2 id="site-form-title">{site ? 'Edit site' : 'Add a site'}</h2>
      {error !== undefined && <ErrorNotice error={error} />}
      <div class="form-row">
        <Field id="site-name" label="Name" error={errors.name}>
          <input id="site-name" required value={values.name} onInput={set('name')} {...describedBy('site-name', errors.name)} />
        </Field>
        <Field id="site-domain" label="Domain" error={errors.domain} hint="The address of the site, e.g. www.example.com">
          <input id="site-domain" required value={values.domain} onInput={set('domain')} inputMode="url" autoComplete="url" {...describedBy('site-domain', errors.domain, true)} />
        </Field>
        {allowed.length > 1 && (
          <Field id="site-workspace" label="Workspace" error={errors.workspace_id}>
            <select id="site-workspace" value={workspace} onChange={(e) => setWorkspace(e.currentTarget.value)}>
              {allowed.map((w) => <option value={w.id}>{w.name}{w.personal ? ' (personal)' : ''}</option>)}
            </select>
          </Field>
        )}
        {site && (
          <Field id="site-schedule" label="Re-audit" error={errors.audit_schedule}>
            <select id="site-schedule" value={values.audit_schedule} onChange={set('audit_schedule')}>
              <option value="weekly">Weekly</option>
              <option value="daily">Daily</option>
              <option value="off">Off</option>
            </select>
          </Field>
        )}
        {site && (
          <Field id="site-rendering" label="JavaScript rendering" error={errors.rendering} hint="Runs pages' scripts to see what crawlers without JavaScript miss; Auto renders only the pages that need it.">
            <select id="site-rendering" value={values.rendering} onChange={set('rendering')} {...describedBy('site-rendering', errors.rendering, true)}>
              <option value="auto">Auto — recommended</option>
              <option value="always">Always</option>
              <option value="never">Never</option>
            </select>
          </Field>
        )}
      </div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>{busy ? 'Saving…' : site ? 'Save changes' : 'Add site'}</button>
        <button type="button" class="btn" onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  );
}
