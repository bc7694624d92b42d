import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { downloadFile } from '../api/download.ts';
import { AiAccess } from './ai-access.tsx';
import { PageSpeed } from './page-speed.tsx';
import { Rendering } from './rendering.tsx';
import { ExportButton, useExport } from './export-button.tsx';
import { ScoreChangeNote } from './score-change.tsx';
import { formatDate, formatNumber } from '../lib/format.ts';
import { Async, Badge, Empty, ErrorNotice, Loading, Pager, Score, useAsync } from './ui.tsx';

const SEVERITY_ORDER = ['critical', 'error', 'warning', 'notice'];

export function AuditReport({ siteId }: { siteId: string }) {
  const audit = useAsync(async () => {
    try {
      return unwrap(await api.GET('/api/v1/audits/site/{site_id}/latest', { params: { path: { site_id: siteId } } }));
    } catch (e) {
      if ((e as ApiError).status === 404) return null;
      throw e;
    }
  }, [siteId]);
  return (
    <Async state={audit} label="Loading the latest audit">
      {(a) => {
        if (!a) return <Empty title="No audit yet"><p>Start an audit to crawl the site, score its health and get proposals to fix what it finds.</p></Empty>;
        if (a.status === 'failed') return <div class="notice notice-error" role="alert"><p>The last audit failed: {a.error ?? 'no reason given'}</p></div>;
        if (a.status !== 'completed') return <Empty title="Audit in progress"><p>The report appears here when the crawl finishes.</p></Empty>;
        const issues = [...a.issues].sort((x, y) => SEVERITY_ORDER.indexOf(x.severity) - SEVERITY_ORDER.indexOf(y.severity) || y.affected_count - x.affected_count);
        const pageIssues = issues.reduce((sum, issue) => sum + issue.affected_count, 0);
        const costs = new Map((a.score_breakdown ?? []).map((b) => [b.check_id, b.cost]));
        return (
          <div class="audit">
            <div class="audit-summary panel">
              <Score value={a.score} size="lg" />
              <dl class="facts">
                <div><dt>Finished</dt><dd>{formatDate(a.finished_at, true)}</dd></div>
                <div><dt>Pages crawled</dt><dd>{formatNumber(a.pages_crawled)}</dd></div>
                {/* Two units, each named: a check that failed, and a check failing on one page (what "new" and "fixed" count). */}
                <div><dt>Issues</dt><dd>{formatNumber(issues.length)} checks · {formatNumber(pageIssues)} page {pageIssues === 1 ? 'issue' : 'issues'}</dd></div>
                <div><dt>Since the last audit</dt><dd>{a.new_issues === null ? 'first audit' : <><span class="tone-bad">{a.new_issues} new page {a.new_issues === 1 ? 'issue' : 'issues'}</span> · <span class="tone-good">{a.fixed_issues} fixed</span></>}</dd></div>
                {/* This audit's proposals, not the site's queue (the card above counts every proposal still waiting, whatever audit made it). */}
                {a.agent_summary && <div><dt>Proposed from this audit</dt><dd>{a.agent_summary.proposed} {a.agent_summary.proposed === 1 ? 'proposal' : 'proposals'}</dd></div>}
              </dl>
              <ScoreChangeNote siteId={siteId} audit={a} />
            </div>
            {issues.length === 0 ? <Empty title="No issues found">Every check passed on the pages crawled.</Empty> : (
              <>
                <div class="section-head">
                  <h2>Issues by check</h2>
                  <ExportIssues auditId={a.id} />
                </div>
                <ul class="issues">
                  {issues.map((issue) => <IssueRow auditId={a.id} issue={issue} cost={costs.get(issue.check_id)} />)}
                </ul>
              </>
            )}
            <Rendering auditId={a.id} issues={a.issues} />
            <PageSpeed auditId={a.id} />
            <AiAccess auditId={a.id} />
          </div>
        );
      }}
    </Async>
  );
}

/** Every affected URL of every check of the audit, most severe first, with how to fix it. */
function ExportIssues({ auditId }: { auditId: string }) {
  const exporter = useExport(() => downloadFile('/api/v1/audits/{audit_id}/issues/export', { path: { audit_id: auditId } }));
  return (
    <>
      <ExportButton exporter={exporter} label="Export issues (CSV)" />
      {exporter.error !== undefined && <ErrorNotice error={exporter.error} />}
    </>
  );
}

type Issue = { check_id: string; severity: string; category: string; title: string; fix: string; affected_count: number; affected: Array<{ url: string; value: string | null }> };

function IssueRow({ auditId, issue, cost }: { auditId: string; issue: Issue; cost: number | undefined }) {
  const [open, setOpen] = useState(false);
  return (
    <li class="issue">
      <button type="button" class="issue-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Badge value={issue.severity} />
        <span class="issue-title">{issue.title}</span>
        <span class="issue-meta">
          {formatNumber(issue.affected_count)} URL{issue.affected_count === 1 ? '' : 's'}
          {cost !== undefined && cost > 0 && <> · costs {cost.toFixed(1)} pts</>}
        </span>
        <span class="chevron" aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      {open && (
        <div class="issue-body">
          <p><strong>How to fix:</strong> {issue.fix}</p>
          <AffectedUrls auditId={auditId} checkId={issue.check_id} total={issue.affected_count} />
        </div>
      )}
    </li>
  );
}

const PAGE_SIZE = 20;
function AffectedUrls({ auditId, checkId, total }: { auditId: string; checkId: string; total: number }) {
  const [page, setPage] = useState(1);
  const state = useAsync(async () => unwrap(await api.GET('/api/v1/audits/{audit_id}/issues/{check_id}', { params: { path: { audit_id: auditId, check_id: checkId }, query: { page, page_size: PAGE_SIZE } } })), [auditId, checkId, page]);
  if (state.error && !state.data) return <ErrorNotice error={state.error} retry={state.reload} />;
  if (!state.data) return <Loading label="Loading affected URLs" />;
  return (
    <>
      <div class="table-wrap">
        <table class="table compact">
          <caption class="sr-only">Affected URLs</caption>
          <thead><tr><th scope="col">URL</th><th scope="col">Found</th></tr></thead>
          <tbody>
            {state.data.items.map((row) => (
              <tr><td class="url"><a href={row.url} target="_blank" rel="noopener noreferrer">{row.url}</a></td><td class="value">{row.value ?? <span class="muted">—</span>}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={state.data.page} pageSize={PAGE_SIZE} total={state.data.total || total} onPage={setPage} />
    </>
  );
}
