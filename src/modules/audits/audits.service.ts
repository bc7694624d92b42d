import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import { notFound } from '../../lib/problem.ts';
import { CHECKS_BY_ID } from '../checks/catalogue.ts';
import { auditPageRecords } from '../crawler/main-content.ts';
import { createAuditor } from '../checks/run-checks.ts';
import { crawlSite, type CrawlResult } from '../crawler/crawl.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AuditRow, AuditsRepo } from './audits.repo.ts';
import { DEFAULT_MAX_PAGES } from './audits.schemas.ts';
import { detectPlatform } from './platform.ts';

export const AUDIT_JOB = 'audit.run';
export const SCHEDULE_JOB = 'audit.schedule';
const SCHEDULE_BATCH = 500;
const SAMPLE_PER_CHECK = 50;

interface Deps {
  repo: AuditsRepo;
  sites: SitesService;
  queue: Pick<JobQueue, 'send'>;
  allowPrivateTargets: boolean;
  log: FastifyBaseLogger;
  /** Told when an audit's results are stored (the strategy agent proposes tasks from them). */
  onCompleted?: (siteId: string, auditId: string) => Promise<{ proposed: number; rejected: number }>;
}

export function createAuditsService(deps: Deps) {
  const { repo } = deps;

  async function requireAudit(ownerId: string, auditId: string): Promise<AuditRow> {
    const audit = await repo.findForOwner(ownerId, auditId);
    if (!audit) throw notFound('Audit');
    return audit;
  }

  async function enqueue(siteId: string, maxPages: number) {
    const created = await repo.insertQueued(siteId, maxPages);
    // Enqueued after the row is committed, so the worker always finds it.
    if (created) await deps.queue.send(AUDIT_JOB, { auditId: created.id });
    return created;
  }

  return {
    /** Queues a crawl, or returns the one already queued or running for the site. */
    async startAudit(ownerId: string, input: { site_id: string; max_pages?: number | undefined }) {
      const site = await deps.sites.getSite(ownerId, input.site_id);
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
        audit.status === 'completed' ? repo.changesSincePrevious(audit) : null,
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

    /** For the agents: the latest completed audit, its findings of some checks, and its pages. */
    latestCompleted: (siteId: string) => repo.latestCompleted(siteId),
    findings: (auditId: string, checkIds: readonly string[]) => repo.findings(auditId, checkIds),
    pages: (auditId: string) => repo.pages(auditId),
    pageContents: (auditId: string, urls: readonly string[]) => repo.pageContents(auditId, urls),

    /** The audit part of a site's progress; the caller has checked the site is theirs. */
    progressFor: (siteId: string) => repo.progressFor(siteId, 100),

    async issuePage(ownerId: string, auditId: string, checkId: string, page: number, pageSize: number) {
      await requireAudit(ownerId, auditId);
      const [total, items] = await Promise.all([repo.countIssues(auditId, checkId), repo.issuesPage(auditId, checkId, page, pageSize)]);
      return { items: items.map((i) => ({ url: i.url, value: i.value })), total, page, page_size: pageSize };
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
        }).finally(progress.cancel);
        const result = auditor.finish(crawl);
        const stored = await repo.complete(auditId, attempt, {
          crawled: crawl.pages.length,
          discovered: crawl.urls.length,
          pagesByStatus: pagesByStatus(crawl),
          score: result.score,
          breakdown: result.breakdown,
          findings: result.findings.byCheck,
          pages: auditPageRecords(crawl),
        });
        if (stored) {
          await deps.sites.recordAudit(audit.site_id, { healthScore: result.score, platform: detectPlatform(crawl) });
          // The strategy agent reads the stored audit; its failure must not fail the audit.
          const summary = await deps.onCompleted?.(audit.site_id, auditId).catch((err: unknown) => void deps.log.error({ err, auditId }, 'strategy agent failed'));
          if (summary) await repo.saveAgentSummary(auditId, summary);
        } else deps.log.warn({ auditId, attempt }, 'audit attempt superseded; its result was discarded');
      } catch (error) {
        deps.log.error({ err: error, auditId }, 'audit failed');
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
    const key = page.blockedByRobots ? 'blocked' : String(page.status ?? 0);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export type AuditsService = ReturnType<typeof createAuditsService>;
