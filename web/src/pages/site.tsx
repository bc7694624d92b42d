import { useRoute } from 'preact-iso';
import { useCallback, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { AuditReport } from '../components/audit.tsx';
import { ClientReport } from '../components/client-report.tsx';
import { ConnectorForm } from '../components/connector.tsx';
import { TrendChart } from '../components/chart.tsx';
import { Async, Badge, ErrorNotice, PageHeader, Score, Spark, useAsync, usePolling } from '../components/ui.tsx';
import { formatDate, formatNumber, platformName } from '../lib/format.ts';
import { atLeast, useWorkspaces } from '../lib/workspaces.ts';
import { SiteForm } from './sites.tsx';

export function SitePage() {
  const { params } = useRoute();
  const siteId = params.id!;
  const site = useAsync(async () => unwrap(await api.GET('/api/v1/sites/{site_id}', { params: { path: { site_id: siteId } } })), [siteId]);
  const progress = useAsync(async () => unwrap(await api.GET('/api/v1/sites/{site_id}/progress', { params: { path: { site_id: siteId } } })), [siteId]);
  const [editing, setEditing] = useState(false);
  const [tab, setTab] = useState<'audit' | 'connector'>('audit');
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>();
  const [reportKey, setReportKey] = useState(0);
  const workspaces = useWorkspaces();

  const running = progress.data?.audit?.status === 'queued' || progress.data?.audit?.status === 'running';
  const poll = useCallback(async () => {
    const wasRunning = running;
    await progress.reload();
    if (wasRunning) setReportKey((k) => k + 1);
  }, [running, progress.reload]);
  usePolling(poll, 1500, running);

  const startAudit = async () => {
    setStarting(true);
    setStartError(undefined);
    try {
      unwrap(await api.POST('/api/v1/audits', { body: { site_id: siteId } }));
      await progress.reload();
    } catch (e) {
      setStartError(e);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Async state={site} label="Loading the site">
      {(s) => {
        const workspace = workspaces?.find((w) => w.id === s.workspace_id);
        const canAudit = atLeast(s.role, 'editor');
        const canEdit = atLeast(s.role, 'admin');
        return (
        <section class="page">
          <p class="breadcrumb"><a href="/sites">Sites</a> <span aria-hidden="true">/</span> {s.name}</p>
          <PageHeader
            title={<span tabIndex={-1}>{s.name}</span>}
            subtitle={<>{s.domain} · {s.platform === 'unknown' ? 'platform not detected' : platformName(s.platform)} · re-audit {s.audit_schedule}</>}
            actions={(canEdit || canAudit) && (
              <>
                {canEdit && <button type="button" class="btn" onClick={() => setEditing(!editing)} aria-expanded={editing}>Edit site</button>}
                {canAudit && <button type="button" class="btn btn-primary" onClick={startAudit} disabled={starting || running}>{running ? 'Audit running…' : starting ? 'Starting…' : 'Start audit'}</button>}
              </>
            )}
          />
          <p class="site-workspace small">
            In <a href={`/workspaces/${s.workspace_id}`}>{workspace?.name ?? 'its workspace'}</a>{workspace?.personal ? ' (your personal workspace)' : ''} · you are <strong>{s.role}</strong>
            {!canAudit ? <span class="muted"> · you can view this site; an editor or above can run audits and approve changes</span>
              : !canEdit ? <span class="muted"> · an admin or owner changes its settings and connector</span> : null}
          </p>
          <ClientReport siteId={s.id} canManage={canEdit} />
          {editing && <SiteForm site={s} workspaces={workspaces} onDone={(changed) => { setEditing(false); if (changed) void site.reload(); }} />}
          {startError !== undefined && <ErrorNotice error={startError} />}

          <Async state={progress} label="Loading the site's progress">
            {(p) => {
              const scores = p.score_history.map((h) => h.score).filter((v): v is number => v !== null);
              return (
                <>
                  <div class="cards">
                    <div class="card stat">
                      <span class="stat-label">Health score</span>
                      <Score value={p.health_score} size="lg" />
                      {p.initial_health_score !== null && p.health_score !== null && <span class="muted small">First audit: {p.initial_health_score}</span>}
                    </div>
                    <div class="card stat">
                      <span class="stat-label">Score history</span>
                      <Spark values={scores} width={180} height={44} label={`Health score over ${scores.length} audits: ${scores.join(', ')}`} />
                      {scores.length > 1 && <span class="muted small">{scores[0]} → {scores[scores.length - 1]} over {scores.length} audits</span>}
                    </div>
                    <div class="card stat">
                      <span class="stat-label">Proposals to review</span>
                      <span class="stat-value">{formatNumber(p.tasks.awaiting_approval)}</span>
                      {p.tasks.awaiting_approval === 0 ? <span class="muted small">Nothing waiting</span>
                        : canAudit ? <a class="small" href={`/approvals?site=${siteId}`}>Review them</a>
                        : <span class="small"><a href={`/approvals?site=${siteId}`}>See them</a> <span class="muted">(an editor or above approves)</span></span>}
                    </div>
                    <div class="card stat">
                      <span class="stat-label">Tasks completed</span>
                      <span class="stat-value">{formatNumber(p.tasks.completed)}</span>
                      <span class="muted small">{p.tasks.rolled_back} rolled back · {p.tasks.failed} failed</span>
                    </div>
                  </div>
                  {p.score_history.filter((h) => h.score !== null).length > 1 && <ScoreHistory history={p.score_history} />}
                  {p.audit && running && (
                    <div class="panel live" aria-live="polite">
                      <div class="live-head">
                        <Badge value={p.audit.status} />
                        <strong>Crawling {s.domain}</strong>
                        <span class="muted">started {formatDate(p.audit.started_at, true)}</span>
                      </div>
                      <progress max={Math.max(p.audit.pages_discovered, 1)} value={p.audit.pages_crawled} aria-label="Pages crawled" />
                      <p class="live-count"><strong>{formatNumber(p.audit.pages_crawled)}</strong> pages crawled of <strong>{formatNumber(p.audit.pages_discovered)}</strong> discovered</p>
                    </div>
                  )}
                  {p.analytics_sync_error && <p class="notice notice-warn">Search data sync: {p.analytics_sync_error}</p>}
                </>
              );
            }}
          </Async>

          <div class="tabs" role="tablist" aria-label="Site sections">
            <button type="button" role="tab" id="tab-audit" aria-controls="panel-audit" aria-selected={tab === 'audit'} tabIndex={tab === 'audit' ? 0 : -1} onClick={() => setTab('audit')}>Latest audit</button>
            <button type="button" role="tab" id="tab-connector" aria-controls="panel-connector" aria-selected={tab === 'connector'} tabIndex={tab === 'connector' ? 0 : -1} onClick={() => setTab('connector')}>Connector</button>
          </div>
          <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
            {tab === 'audit' ? <AuditReport key={reportKey} siteId={siteId} /> : <ConnectorForm siteId={siteId} canEdit={canEdit} />}
          </div>
        </section>
        );
      }}
    </Async>
  );
}

/** Every completed audit's health score over time, with the numbers as a table for screen readers. */
function ScoreHistory({ history }: { history: Array<{ audit_id: string; score: number | null; finished_at: string | null }> }) {
  const points = history.flatMap((h) => (h.score !== null && h.finished_at ? [{ date: h.finished_at, value: h.score }] : []));
  return (
    <figure class="card chart-card score-history">
      <figcaption>
        <span class="chart-title">Health score over time</span>{' '}
        <span class="muted small">{points.length} audits, {formatDate(points[0]!.date)} to {formatDate(points[points.length - 1]!.date)}</span>
      </figcaption>
      <TrendChart points={points} label="Health score" color="#047857" range={[0, 100]} />
      <table class="sr-only">
        <caption>Health score by audit</caption>
        <thead><tr><th scope="col">Audit finished</th><th scope="col">Score</th></tr></thead>
        <tbody>{points.map((p) => <tr><td>{formatDate(p.date, true)}</td><td>{p.value}</td></tr>)}</tbody>
      </table>
    </figure>
  );
}

