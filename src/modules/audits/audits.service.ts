import type { FastifyBaseLogger } from 'fastify';
import type { Transact } from '../../db/transact.ts';
import type { JobSender } from '../../jobs/queue.ts';
import { conflict, notFound } from '../../lib/problem.ts';
import { CHECKS, CHECKS_BY_ID, type CheckDefinition } from '../checks/catalogue.ts';
import { fileNamePart, keysetBatches, type CsvColumn, type CsvExport } from '../../lib/csv-export.ts';
import { auditPageRecords } from '../crawler/main-content.ts';
import { createAuditor } from '../checks/run-checks.ts';
import { crawlSite, type CrawlResult } from '../crawler/crawl.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { EventEmitter } from '../events/events.service.ts';
import type { AuditRow, AuditsRepo, IssueSeek, PageRecord } from './audits.repo.ts';
import { createPacer } from '../../lib/pace.ts';
import { DEFAULT_MAX_PAGES } from './audits.schemas.ts';
import { AUDIT_TRANSITIONS } from './lifecycle.ts';
import { detectPlatform } from './platform.ts';
import { createAiAccessReport } from './ai-access.ts';
import { createRenderingReport } from './rendering.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { measurePageSpeed } from '../page-speed/measure.ts';
import type { CruxClient } from '../page-speed/crux-client.ts';
import { createPageSpeedReport } from './page-speed.ts';

const SCHEDULE_BATCH = 500;
const SAMPLE_PER_CHECK = 50;
/** Pages written per transaction: each page's stored text is some kilobytes of JSON, made as it is written. */
const PAGES_PER_WRITE = 100;

interface Deps {
  repo: AuditsRepo;
  sites: SitesService;
  queue: JobSender;
  transact: Transact;
  /** audit.completed and proposals.created, emitted in the transaction that stores them. */
  events: EventEmitter;
  allowPrivateTargets: PrivateTargets;
  /** The Chromium audits render JavaScript with (config.chromiumPath); pages are read as raw HTML without one. */
  chromiumPath?: string | undefined;
  /** Core Web Vitals: Lighthouse on up to `maxPages` pages (one per template; 0: none), and the Chrome UX Report when a key is configured. */
  pageSpeed?: { maxPages: number; crux?: CruxClient | undefined };
  log: FastifyBaseLogger;
  metrics?: Pick<Metrics, 'audit'>;
}

export function createAuditsService(deps: Deps) {
  const { repo } = deps;

  async function requireAudit(ownerId: string, auditId: string): Promise<AuditRow> {
    const audit = await repo.findForOwner(ownerId, auditId);
    if (!audit) throw notFound('Audit');
    return audit;
  }

  /** The row and its job commit together (pg-boss is in the same database): never a queued audit without a job. */
  const enqueue = (siteId: string, maxPages: number) =>
    deps.transact(async (trx) => {
      const created = await repo.insertQueued(siteId, maxPages, trx);
      if (created) await deps.queue.send('audit.run', { auditId: created.id }, { tx: trx });
      return created;
    });

  /**
   * An attempt's pages, PAGES_PER_WRITE at a time, each page's stored text made as its batch
   * is written (repo.writePages): the event loop and the database are let go between pages
   * and batches. False when the attempt was superseded meanwhile.
   */
  async function writePages(auditId: string, attempt: number, records: ReturnType<typeof auditPageRecords>): Promise<boolean> {
    const pace = createPacer();
    for (let i = 0; i === 0 || i < records.length; i += PAGES_PER_WRITE) {
      const batch: PageRecord[] = [];
      for (const { content, ...page } of records.slice(i, i + PAGES_PER_WRITE)) {
        batch.push({ ...page, content: content() });
        await pace();
      }
      if (!(await repo.writePages(auditId, attempt, batch, { replace: i === 0 }))) return false;
      await pace();
    }
    return true;
  }

  return {
    /** Queues a crawl, or returns the one already queued or running for the site. */
    async startAudit(ownerId: string, input: { site_id: string; max_pages?: number | undefined }) {
      const site = await deps.sites.getSite(ownerId, input.site_id, 'editor');
      // The active audit may finish between our insert and our look-up: then insert again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const audit = (await enqueue(site.id, input.max_pages ?? DEFAULT_MAX_PAGES)) ?? (await repo.findActive(site.id));
        if (audit) return audit;
      }
      throw new Error('could not queue or find an active audit');
    },

    async latestReport(ownerId: string, siteId: string) {
      await deps.sites.getSite(ownerId, siteId);
      const audit = await repo.latestForOwner(ownerId, siteId);
      if (!audit) throw notFound('Audit for this site');
      const [counts, samples, changes] = await Promise.all([
        repo.issueCounts(audit.id),
        repo.issueSamples(audit.id, SAMPLE_PER_CHECK),
        audit.status === AUDIT_TRANSITIONS.complete.to ? repo.changesSincePrevious(audit) : null,
      ]);
      const issues = counts
        .map(({ check_id, count }) => {
          const check = CHECKS_BY_ID.get(check_id);
          return {
            check_id,
            severity: check?.severity ?? 'notice',
            category: check?.category ?? 'unknown',
            title: check?.title ?? check_id,
            fix: check?.fix ?? '',
            lighthouse: check?.lighthouse ?? null,
            affected_count: Number(count),
            affected: samples.filter((s) => s.check_id === check_id).map((s) => ({ url: s.url, value: s.value })),
          };
        })
        .sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || b.affected_count - a.affected_count);
      return {
        ...audit,
        new_issues: changes ? Number(changes.new_issues) : null,
        fixed_issues: changes ? Number(changes.fixed_issues) : null,
        issues,
      };
    },

    /** What each search and AI crawler may fetch, the site's llms.txt and a drafted one (404 for an audit the caller cannot see). */
    aiAccess: createAiAccessReport({ repo, sites: deps.sites }),
    rendering: createRenderingReport({ repo }),
    /** Core Web Vitals of an audit the caller can read: lab (Lighthouse) and field (Chrome UX Report). */
    pageSpeed: createPageSpeedReport({ repo }),
    /** For the agents and verification: an audit's stored Core Web Vitals report (null when none was measured). */
    pageSpeedOf: (auditId: string) => repo.pageSpeed(auditId),

    /** For the agents: the latest completed audit, its findings of some checks, and its pages. */
    latestCompleted: (siteId: string) => repo.latestCompleted(siteId),
    findings: (auditId: string, checkIds: readonly string[]) => repo.findings(auditId, checkIds),
    pages: (auditId: string) => repo.pages(auditId),
    pageContents: (auditId: string, urls: readonly string[]) => repo.pageContents(auditId, urls),

    /** The audit part of a site's progress; the caller has checked the site is theirs. */
    progressFor: (siteId: string) => repo.progressFor(siteId, 100),
    /** Affected URLs per check of an audit (internal: the caller has checked the audit's site is the user's). */
    issueCounts: (auditId: string) => repo.issueCounts(auditId),

    async issuePage(ownerId: string, auditId: string, checkId: string, page: number, pageSize: number) {
      await requireAudit(ownerId, auditId);
      if (!CHECKS_BY_ID.has(checkId)) throw notFound('Check');
      const [total, items] = await Promise.all([repo.countIssues(auditId, checkId), repo.issuesPage(auditId, checkId, page, pageSize)]);
      return { items: items.map((i) => ({ url: i.url, value: i.value })), total, page, page_size: pageSize };
    },

    /** Every issue of an audit (or of one check) as a CSV file: most severe checks first, each affected URL with its value. */
    async exportIssues(ownerId: string, auditId: string, checkId: string | undefined): Promise<CsvExport<IssueRow>> {
      const audit = await requireAudit(ownerId, auditId);
      if (checkId !== undefined && !CHECKS_BY_ID.has(checkId)) throw notFound('Check');
      const site = await deps.sites.getSite(ownerId, audit.site_id);
      return {
        filename: `${fileNamePart(site.domain)}-audit-${audit.created_at.toISOString().slice(0, 10)}${checkId ? `-${checkId}` : ''}-issues.csv`,
        columns: ISSUE_COLUMNS,
        batches: keysetBatches(
          async (after: IssueSeek | undefined, limit: number) => (await repo.exportIssues(auditId, BY_SEVERITY, checkId, after, limit))
            .map((row) => ({ ...row, check: CHECKS_BY_ID.get(row.check_id) })),
          ({ check_rank, check_id, url, value }) => ({ check_rank, check_id, url, value }),
        ),
      };
    },

    /**
     * The job: crawl, check, store, and update the site. Safe to run again for the same
     * audit: each run is a new attempt, and only the latest attempt's writes land.
     */
    async runAudit(auditId: string) {
      const audit = await repo.findForRun(auditId);
      if (!audit) return;
      const attempt = await repo.startAttempt(auditId);
      if (attempt === undefined) return; // already completed or failed
      const started = performance.now();
      const measured = (outcome: 'completed' | 'failed', pages: number) => deps.metrics?.audit(outcome, (performance.now() - started) / 1000, pages);
      const progress = throttledProgress((crawled, discovered) =>
        repo.updateProgress(auditId, attempt, crawled, discovered).catch((err: unknown) => deps.log.warn({ err }, 'audit progress not saved')),
      );
      try {
        const auditor = createAuditor();
        const crawl = await crawlSite({
          domain: audit.domain,
          maxPages: audit.max_pages,
          allowPrivate: deps.allowPrivateTargets,
          onProgress: progress.report,
          onPage: auditor.onPage,
          rendering: { mode: audit.rendering, chromiumPath: deps.chromiumPath },
        }).finally(progress.cancel);
        // A site that does not answer is not 78% healthy: the audit fails, no score is kept.
        if (crawl.unreachable) {
          // No page answered: none was crawled (the progress counted the attempts).
          const answered = crawl.pages.filter((p) => p.status !== null && p.status > 0).length;
          measured('failed', answered);
          // The failure and the "audit ended" event (members' alerts) commit together.
          return void (await deps.transact(async (trx) => {
            if (await repo.fail(auditId, `The site could not be reached: ${crawl.unreachable}`, attempt, answered, trx)) {
              await deps.queue.send('notify.audit-ended', { auditId }, { tx: trx });
            }
          }));
        }
        // One page per template measured in Lighthouse, while the crawl's pages are at hand (never fails the audit).
        const pageSpeed = deps.pageSpeed && (deps.pageSpeed.maxPages > 0 || deps.pageSpeed.crux) ? await measurePageSpeed(crawl, {
          chromiumPath: deps.chromiumPath, allowPrivate: deps.allowPrivateTargets, maxPages: deps.pageSpeed.maxPages, crux: deps.pageSpeed.crux,
          onError: (err) => deps.log.warn({ err, auditId }, 'page speed: Lighthouse did not run'),
        }) : undefined;
        const result = auditor.finish(crawl, pageSpeed);
        // Trap URLs are reported, not pages of the site: they never reach audit_pages.
        const written = await writePages(auditId, attempt, auditPageRecords({ ...crawl, pages: crawl.pages.filter((p) => !p.trap) }));
        // The result and the "audit completed" event commit together: the agent runs once it is stored, as a job of its own.
        const stored = written && await deps.transact(async (trx) => {
          const claimed = await repo.complete(auditId, attempt, {
            crawled: result.pagesAnalysed,
            discovered: crawl.urls.length,
            pagesByStatus: pagesByStatus(crawl),
            score: result.score,
            breakdown: result.breakdown,
            findings: result.findings.byCheck,
            aiAccess: crawl.aiAccess,
            rendering: crawl.rendering,
            pageSpeed,
          }, trx);
          if (claimed) {
            await deps.queue.send('agent.plan-from-audit', { auditId }, { tx: trx });
            await deps.events.emit(trx, { type: 'audit.completed', auditId });
            await deps.queue.send('notify.audit-ended', { auditId }, { tx: trx });
          }
          return claimed;
        });
        measured('completed', result.pagesAnalysed);
        if (stored) await deps.sites.recordAudit(audit.site_id, { healthScore: result.score, platform: detectPlatform(crawl) });
        else deps.log.warn({ auditId, attempt }, 'audit attempt superseded; its result was discarded');
      } catch (error) {
        deps.log.error({ err: error, auditId }, 'audit failed');
        measured('failed', 0);
        await repo.fail(auditId, error instanceof Error ? error.message : 'the audit failed', attempt);
      }
    },

    /** The scheduled job: re-audits every site whose audit_schedule says one is due. Returns how many. */
    async enqueueDueAudits(): Promise<number> {
      let queued = 0;
      for (const due of await repo.dueForReaudit(SCHEDULE_BATCH)) if (await enqueue(due.site_id, due.max_pages)) queued += 1;
      if (queued > 0) deps.log.info({ queued }, 'scheduled re-audits queued');
      return queued;
    },

    /** Every attempt died (worker crashes past the retry limit): the audit ends failed, not running. */
    async abandonAudit(auditId: string) {
      await repo.fail(auditId, 'The audit stopped unexpectedly on every attempt; start it again');
    },

    /** For the strategy agent's job: the agent's run on a completed audit, as the audit lifecycle allows it. */
    agentRun: {
      start: (auditId: string) => repo.startAgent(auditId),
      /** The run's summary; the proposals it stored are announced (proposals.created) with it. */
      finish: (auditId: string, attempt: number, summary: { proposed: number; rejected: number }) =>
        deps.transact(async (trx) => {
          const finished = await repo.finishAgent(auditId, attempt, summary, trx);
          if (finished && summary.proposed > 0) await deps.events.emit(trx, { type: 'proposals.created', auditId, count: summary.proposed });
          return finished;
        }),
      fail: (auditId: string, error: string) => repo.failAgent(auditId, error),
    },

    /** Runs the strategy agent again on a stored audit whose run failed (no new crawl): 409 unless it failed. */
    async retryAgent(ownerId: string, auditId: string) {
      const audit = await requireAudit(ownerId, auditId);
      await deps.sites.requireAccess(ownerId, { audit: auditId }, 'editor');
      const retried = await deps.transact(async (trx) => {
        const moved = await repo.retryAgent(ownerId, auditId, trx);
        if (moved) await deps.queue.send('agent.plan-from-audit', { auditId }, { tx: trx });
        return moved;
      });
      if (!retried) throw conflict(`The agent's run on this audit is ${audit.agent}; only a failed run can be retried`);
      return { ...audit, agent: 'pending' as const, agent_error: null };
    },
  };
}

/** At most one progress write a second, the latest counts always written in the end. */
function throttledProgress(write: (crawled: number, discovered: number) => unknown, intervalMs = 1000) {
  let latest: { crawled: number; discovered: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = 0;
  const flush = () => {
    timer = undefined;
    lastWrite = Date.now();
    if (latest) write(latest.crawled, latest.discovered);
  };
  return {
    report(counts: { crawled: number; discovered: number }) {
      latest = counts;
      timer ??= setTimeout(flush, Math.max(0, lastWrite + intervalMs - Date.now()));
    },
    cancel() {
      clearTimeout(timer);
    },
  };
}

const severityRank = (severity: string) => ['critical', 'error', 'warning', 'notice'].indexOf(severity);

function pagesByStatus(crawl: CrawlResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const page of crawl.pages) {
    const key = page.blockedByRobots ? 'blocked' : page.trap ? 'trap' : String(page.status ?? 0);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export type AuditsService = ReturnType<typeof createAuditsService>;

const SEVERITY_RANK = { critical: 0, error: 1, warning: 2, notice: 3 } as const;
/** Check ids, most severe first: the export's order. */
const BY_SEVERITY = [...CHECKS].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]).map((c) => c.id);

interface IssueRow extends IssueSeek { check: CheckDefinition | undefined }
const ISSUE_COLUMNS: Array<CsvColumn<IssueRow>> = [
  { header: 'severity', value: (r) => r.check?.severity },
  { header: 'check_id', value: (r) => r.check_id },
  { header: 'check', value: (r) => r.check?.title },
  { header: 'category', value: (r) => r.check?.category },
  { header: 'url', value: (r) => r.url },
  { header: 'value', value: (r) => r.value },
  { header: 'how_to_fix', value: (r) => r.check?.fix },
];
