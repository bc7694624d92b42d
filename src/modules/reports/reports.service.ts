import type { PerformanceService } from '../analytics/performance.service.ts';
import type { AuditsService } from '../audits/audits.service.ts';
import { CHECKS_BY_ID, type Severity } from '../checks/catalogue.ts';
import type { SitesService } from '../sites/sites.service.ts';
import { pageOf } from '../task-types/index.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { WorkspacesService } from '../workspaces/workspaces.service.ts';
import { fileNamePart } from '../../lib/csv-export.ts';
import type { PdfRenderer } from './pdf-renderer.ts';
import { reportHtml } from './report-html.ts';
import type { ReportsRepo } from './reports.repo.ts';
import type { Report, ReportQueryInput } from './reports.schemas.ts';

const MOVERS = 5;
const KEYWORD_MOVES = 10;
const TASKS_LISTED = 10;
const PROBLEMS = 5;
const PROPOSALS = 5;
const SEVERITY_RANK: Record<Severity, number> = { critical: 0, error: 1, warning: 2, notice: 3 };

type PerformanceReport = Awaited<ReturnType<PerformanceService['report']>>;
type Row = PerformanceReport['rows']['items'][number];

const moverOf = (r: Row) => ({
  key: r.key, clicks: r.clicks, previous_clicks: r.previous?.clicks ?? 0, clicks_difference: r.clicks - (r.previous?.clicks ?? 0),
  impressions: r.impressions, position: r.position, previous_position: r.previous?.position ?? null,
});

/**
 * A site's report for a period, for its client: traffic against a comparison period, the queries and pages that moved most,
 * the keywords that entered or left the top 10, the health score, the audit's worst problems, the work done and the
 * proposals waiting. Every section comes from its module's service (the performance report, audits, tasks); the report's own
 * queries (keyword moves, completed tasks) are in its repository.
 */
export function createReportsService(deps: {
  repo: ReportsRepo;
  sites: Pick<SitesService, 'getSite'>;
  workspaces: Pick<WorkspacesService, 'get'>;
  performance: Pick<PerformanceService, 'report'>;
  audits: Pick<AuditsService, 'progressFor' | 'issueCounts'>;
  tasks: Pick<TasksService, 'awaitingApproval' | 'verificationStatus'>;
  pdf: Pick<PdfRenderer, 'render'>;
  now?: () => Date;
}) {
  async function report(userId: string, siteId: string, query: ReportQueryInput): Promise<Report> {
    // Any member of the site's workspace, a viewer too; 404 for anyone else.
    const site = await deps.sites.getSite(userId, siteId);
    const movers = (dimension: 'query' | 'page', order: 'asc' | 'desc') => deps.performance.report(userId, {
      site_id: site.id, period: query.period, start: query.start, end: query.end, compare: query.compare ?? 'previous',
      dimension, sort: 'clicks_change', order, page_size: MOVERS,
    });
    // The first call settles the period (a bad one is its 422) and gives the totals; the others run beside each other.
    const queriesGained = await movers('query', 'desc');
    const range = queriesGained.period;
    const comparison = queriesGained.comparison!;
    const [queriesLost, pagesGained, pagesLost, workspace, keywordMoves, audits, tasks, proposals] = await Promise.all([
      movers('query', 'asc'), movers('page', 'desc'), movers('page', 'asc'),
      deps.workspaces.get(userId, site.workspace_id),
      deps.repo.keywordMoves(site.id, range, comparison, KEYWORD_MOVES),
      deps.audits.progressFor(site.id),
      deps.repo.completedTasks(site.id, range, TASKS_LISTED),
      deps.tasks.awaitingApproval(userId, { site_id: site.id, page_size: PROPOSALS, order: 'priority' }),
    ]);
    const completedAudits = audits.history;
    const latest = completedAudits.at(-1);
    const before = completedAudits.at(-2);
    const [issueCounts, impacts] = await Promise.all([
      latest ? deps.audits.issueCounts(latest.audit_id) : Promise.resolve([]),
      // The measured effect as the task's own page shows it (the tasks service's impact), one task at a time.
      Promise.all(tasks.items.map(async (t) => (await deps.tasks.verificationStatus(userId, t.id)).impact)),
    ]);
    const gained = (p: PerformanceReport) => p.rows.items.filter((r) => r.previous && r.clicks > r.previous.clicks).map(moverOf);
    const lost = (p: PerformanceReport) => p.rows.items.filter((r) => r.previous && r.clicks < r.previous.clicks).map(moverOf);
    const keyword = ({ kind: _kind, ...k }: (typeof keywordMoves)[number]) => k;

    return {
      site: { id: site.id, name: site.name, domain: site.domain },
      workspace: { id: workspace.id, name: workspace.name, personal: workspace.personal },
      generated_at: (deps.now?.() ?? new Date()).toISOString(),
      period: range,
      comparison: { start: comparison.start, end: comparison.end, mode: comparison.mode, has_data: comparison.has_data },
      traffic: { has_data: queriesGained.days.some((d) => d.final), ...queriesGained.totals },
      top_movers: {
        queries: { gained: gained(queriesGained), lost: lost(queriesLost) },
        pages: { gained: gained(pagesGained), lost: lost(pagesLost) },
      },
      keywords: {
        gained: keywordMoves.filter((k) => k.kind === 'gained').map(keyword),
        lost: keywordMoves.filter((k) => k.kind === 'lost').map(keyword),
      },
      health: {
        score: latest?.score ?? null,
        previous_score: before?.score ?? null,
        change: latest?.score != null && before?.score != null ? latest.score - before.score : null,
        audited_at: latest?.finished_at ?? null,
        history: completedAudits,
      },
      top_problems: {
        audit_id: latest?.audit_id ?? null,
        items: issueCounts
          .map(({ check_id, count }) => {
            const check = CHECKS_BY_ID.get(check_id);
            return { check_id, severity: check?.severity ?? ('notice' as const), title: check?.title ?? check_id, affected_count: Number(count), unscored: check?.unscored === true };
          })
          // What the crawl met rather than what the site gets wrong (robots.txt blocks) is no problem to report.
          .filter((p) => !p.unscored && p.affected_count > 0)
          .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.affected_count - a.affected_count || a.check_id.localeCompare(b.check_id))
          .slice(0, PROBLEMS)
          .map(({ unscored: _unscored, ...p }) => p),
      },
      work_done: {
        completed: tasks.completed, verified: tasks.verified, rolled_back: tasks.rolled_back,
        items: tasks.items.map((t, i) => {
          const impact = impacts[i];
          const page = impact?.url ?? pageOf(t);
          return {
            id: t.id, title: t.title, type: t.type, page: /^https?:\/\//.test(page) ? page : null,
            completed_at: t.completed_at, status: t.status, verification: t.verification,
            impact: impact ? {
              window_days: impact.window_days, query: impact.query,
              clicks_before: impact.before.clicks, clicks_after: impact.after.clicks,
              position_before: impact.before.position, position_after: impact.after.position,
              realised_clicks_28d: impact.realised_clicks_28d, expected_clicks_28d: impact.expected_clicks?.clicks ?? null,
            } : null,
          };
        }),
      },
      proposals: {
        awaiting_approval: proposals.total,
        top: proposals.items.map((p) => ({
          id: p.id, title: p.title, priority: p.priority,
          expected_clicks_28d: (p.expected_clicks as { clicks?: number } | null)?.clicks ?? null,
        })),
      },
    };
  }

  return {
    report,

    /** The report as a self-contained page for print (A4, no app chrome, nothing fetched). */
    async html(userId: string, siteId: string, query: ReportQueryInput) {
      return reportHtml(await report(userId, siteId, query));
    },

    /** The printable page as a PDF rendered by the server's Chromium (503 without one), with its file name. */
    async pdf(userId: string, siteId: string, query: ReportQueryInput) {
      const r = await report(userId, siteId, query);
      return {
        filename: `${fileNamePart(r.site.domain)}-report-${r.period.start}-to-${r.period.end}.pdf`,
        body: await deps.pdf.render(reportHtml(r)),
      };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
