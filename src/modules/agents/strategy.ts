import type { FastifyBaseLogger } from 'fastify';
import type { TaskPriority } from '../../db/types.ts';
import { createOutboundAgent, type PrivateTargets } from '../../lib/safe-http.ts';
import { createPacer } from '../../lib/pace.ts';
import type { AuditsService } from '../audits/audits.service.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AgentsRepo } from './agents.repo.ts';
import { gateFailure } from './gates.ts';
import { prioritiesByWeight, raised } from './proposal.ts';
import type { LlmWriter } from './llm-writer.ts';
import type { SearchPlanner } from './search-planner.ts';
import { createPageReader, createPolisher, createSummariser, type AuditFinding, type PlanningContext } from './planning-context.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';
import { DRAFTED_FROM_PAGE, PAGE_LEVEL, PLANNERS } from './planners/index.ts';
import { findingKey, withdrawStale } from './withdrawals.ts';
import { siteSuffixesOf, suffixForPage, suffixIsSiteWide } from './writers.ts';
import { DUPLICATE_CHECKS, findCopies } from './planners/copies.ts';
import { pageOf, pagesOf } from '../task-types/index.ts';
import { fromPageClicks } from '../search-data/expected-clicks.ts';
import type { Metrics } from '../../lib/metrics.ts';

/** Findings that take a page out of search results (see PlanningContext.indexable). */
const NOT_INDEXABLE = ['noindex_meta', 'noindex_header', 'canonical_to_other_url', 'blocked_by_robots'];

/** Platforms whose themes print the site's name after every page title. */
const THEMED_PLATFORMS = new Set(['wordpress', 'shopify', 'wix', 'squarespace', 'webflow', 'drupal', 'joomla']);

/** A page searchers see often (1,000+ impressions in 28 days) raises its task one step. */
const withTraffic = (priority: TaskPriority, impressions: number) => (impressions >= 1000 ? raised(priority) : priority);

interface Deps {
  audits: Pick<AuditsService, 'latestCompleted' | 'findings' | 'pages' | 'pageContents' | 'agentRun'> & Partial<Pick<AuditsService, 'pageSpeedOf'>>;
  tasks: Pick<TasksService, 'propose' | 'proposedFromAudit' | 'openTasks' | 'withdraw'>;
  sites: Pick<SitesService, 'platformOf'>;
  repo: AgentsRepo;
  allowPrivateTargets: PrivateTargets;
  /** Search Console clicks and impressions per page, when the site has search data. */
  pageMetrics?: (siteId: string) => Promise<Map<string, { clicks_28d: number; impressions_28d: number }>>;
  /** The search-data planner, run after the audit's own proposals when the site has search data. */
  searchPlanner?: Pick<SearchPlanner, 'proposeFromSearch'>;
  /** The optional LLM writer (LLM_BASE_URL); the extractive writer's drafts stand without it. */
  llm?: LlmWriter | undefined;
  log: FastifyBaseLogger;
  metrics?: Pick<Metrics, 'agent'>;
}

/**
 * The strategy agent: turns the findings of a site's latest audit into task proposals.
 * Each planner (planners/) covers a family of task types; a proposal is stored only with
 * evidence and after its quality gates pass, and a refused one is recorded with the
 * reason, never silently dropped.
 */
export function createStrategyAgent(deps: Deps) {
  const agent = {
    /**
     * The job behind the "audit completed" event. Idempotent: a run whose worker died is taken
     * over by the retried job, which starts from a clean slate (the dead run's refusals are
     * dropped; its stored proposals count as this run's, never twice).
     */
    async planFromAudit(auditId: string) {
      const run = await deps.audits.agentRun.start(auditId);
      if (!run) return; // not completed, or its agent already finished or failed
      if (run.agent_attempt > 1) await deps.repo.dropRejections(auditId);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      let summary;
      try {
        const fromAudit = await agent.proposeFromAudit(run.site_id, auditId);
        // A fresh audit renews what search data proposes too: titles are drafted from the pages as this audit read them.
        const fromSearch = (await deps.searchPlanner?.proposeFromSearch(run.site_id)) ?? { proposed: 0, rejected: 0 };
        summary = { proposed: fromAudit.proposed + fromSearch.proposed, rejected: fromAudit.rejected + fromSearch.rejected };
      } catch (error) {
        deps.metrics?.agent('failed', seconds(), { proposed: 0, refused: 0 });
        throw error;
      }
      deps.metrics?.agent('finished', seconds(), { proposed: summary.proposed, refused: summary.rejected });
      if (!(await deps.audits.agentRun.finish(auditId, run.agent_attempt, summary))) {
        deps.log.warn({ auditId, attempt: run.agent_attempt }, 'strategy agent run superseded; its summary was discarded');
      }
    },

    /** Every attempt of the agent's job failed: the audit says so, and the run can be retried. */
    async abandonPlan(auditId: string) {
      await deps.audits.agentRun.fail(auditId, 'The strategy agent failed on every attempt; retry it (POST /api/v1/audits/{audit_id}/agent)');
    },

    async proposeFromAudit(siteId: string, auditId: string): Promise<{ proposed: number; rejected: number }> {
      const latest = await deps.audits.latestCompleted(siteId);
      let proposed = 0;
      let rejected = 0;
      // Drafting from what the crawl kept is CPU work with no query in between: each page read lets
      // requests through once a slice of time has passed (queries do so themselves: db/client.ts).
      const pace = createPacer();
      const reject = async (type: string, target: string, reason: string, rule?: string) => {
        rejected += 1;
        await deps.repo.recordRejection({ siteId, auditId, type, target, reason, rule });
      };
      // Gate: evidence must come from the site's latest audit.
      if (latest?.id !== auditId) {
        await reject('*', siteId, 'the audit is not the latest completed audit of the site');
        return { proposed, rejected };
      }
      const checked = [...new Set([...PLANNERS.flatMap((p) => p.checks), ...NOT_INDEXABLE])];
      const [pages, findings, traffic, platform] = await Promise.all([
        deps.audits.pages(auditId),
        deps.audits.findings(auditId, checked),
        deps.pageMetrics?.(siteId) ?? new Map<string, { clicks_28d: number; impressions_28d: number }>(),
        deps.sites.platformOf(siteId),
      ]);
      const pageByUrl = new Map(pages.map((p) => [p.url, p]));
      const http = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 4, timeoutMs: 15_000 });
      const reader = createPageReader({
        agent: http, allowPrivate: deps.allowPrivateTargets, pageByUrl, storedContents: (urls) => deps.audits.pageContents(auditId, urls),
      });
      const homeUrl = pages.find((p) => new URL(p.url).pathname === '/')?.url ?? (pages[0] ? new URL('/', pages[0].url).href : siteId);
      const onPage = [...new Set(findings.filter((f) => PAGE_LEVEL.has(f.check_id)).map((f) => f.url))];
      const priorities = prioritiesByWeight(
        onPage.map((url) => ({
          url, isHome: url === homeUrl, depth: pageByUrl.get(url)?.depth ?? null, inlinks: pageByUrl.get(url)?.inlinks ?? 0,
          impressions: traffic.get(url)?.impressions_28d ?? 0,
        })),
        pages.filter((p) => p.status === 200).map((p) => p.inlinks),
      );

      const suffixes = siteSuffixesOf(pages.map((p) => p.title ?? ''));
      const siteWide = suffixIsSiteWide(pages.map((p) => p.title), suffixes);
      const siteSuffix = suffixes[0] ?? '';
      const notIndexable = new Set(findings.filter((f) => NOT_INDEXABLE.includes(f.check_id)).map((f) => f.url));
      const indexable = (url: string) => !notIndexable.has(url);
      // Proposals this audit shows to be stale go first, so that the pages they covered and
      // still need a fix are proposed again below.
      const open = await deps.tasks.openTasks(siteId);
      const withdrawn = await withdrawStale(deps.tasks, open.filter((t) => t.status === 'awaiting_approval'), {
        pageByUrl, auditId, indexable, checked: new Set(checked), found: new Set(findings.map((f) => findingKey(f.check_id, f.url))),
      });
      // Pages that open tasks of earlier audits (proposed, queued or running) will change, by
      // type: a new task leaves them out. (This audit's own, from a run that died, are proposed again and counted once.)
      const covered = new Map<string, Set<string>>();
      const fromThisAudit = (evidence: unknown) => Array.isArray(evidence) && evidence.some((e: { audit_id?: unknown }) => e?.audit_id === auditId);
      for (const task of open) {
        if (withdrawn.has(task.id) || fromThisAudit(task.evidence)) continue;
        const pages = covered.get(task.type) ?? new Set<string>();
        for (const page of pagesOf(task)) pages.add(pageOf(page));
        covered.set(task.type, pages);
      }
      const copies = findCopies(pages, new Set(findings.filter((f) => DUPLICATE_CHECKS.includes(f.check_id)).map((f) => f.url)));
      const copyOf = new Map(copies.flatMap((group) => group.copies.map((url) => [url, group.preferred] as const)));
      const ctx: PlanningContext = {
        covered: (type) => covered.get(type) ?? new Set(),
        copies,
        copyOf: (url) => copyOf.get(url),
        siteId, auditId, foundAt: latest.finished_at, homeUrl, pages,
        pageByUrl,
        siteSuffix,
        suffixFixed: platform !== null && THEMED_PLATFORMS.has(platform),
        suffixFor: (url) => suffixForPage(pageByUrl.get(url)?.title ?? null, suffixes, siteWide),
        taken: {
          descriptions: new Set(pages.flatMap((p) => (p.meta_description ? [p.meta_description.toLowerCase()] : []))),
          titles: new Set(pages.flatMap((p) => (p.title ? [p.title.toLowerCase()] : []))),
        },
        indexable,
        byUrl(checkIds) {
          const map = new Map<string, AuditFinding[]>();
          for (const f of findings) if (checkIds.includes(f.check_id)) map.set(f.url, [...(map.get(f.url) ?? []), f]);
          return map;
        },
        // The page's search metrics join the evidence when the site has search data.
        evidence: (f) => ({
          check_id: f.check_id, url: f.url, current_value: f.value, audit_id: auditId, found_at: latest.finished_at,
          ...(traffic.has(f.url) ? { search: traffic.get(f.url) } : {}),
        }),
        read: async (url) => { await pace(); return reader.read(url); },
        download: async (url) => { await pace(); return reader.download(url); },
        pagePriority: (url) => priorities.get(url) ?? 'medium',
        // (Each with its own budget of completions for the run: rewording fine drafts must not use up the summaries of pages
        // that have none.)
        polish: createPolisher(deps.llm, siteSuffix),
        summarise: createSummariser(deps.llm),
        finalUrlOf: (url) => reader.finalUrlOf(url),
        pageSpeed: async () => ((await deps.audits.pageSpeedOf?.(auditId)) ?? null) as PageSpeedReport | null,
        async propose(proposal) {
          // Page-level fixes already weighed the page's traffic (and were capped at 30% high): raising them again would undo the cap.
          const weighed = proposal.evidence.some((e) => PAGE_LEVEL.has(String(e.check_id)));
          if (!weighed) proposal = { ...proposal, priority: withTraffic(proposal.priority, traffic.get(proposal.target)?.impressions_28d ?? 0) };
          const reason = gateFailure(proposal);
          if (reason) return reject(proposal.type, proposal.target, reason);
          // What it is worth: a share of its pages' clicks, once the site has search data.
          const expectedClicks = traffic.size === 0 ? undefined
            : fromPageClicks(proposal.type, pagesOf(proposal).map((p) => ({ clicks: traffic.get(pageOf(p))?.clicks_28d ?? 0 })));
          const outcome = await deps.tasks.propose({ siteId, ...proposal, expectedClicks });
          if ('id' in outcome || (await deps.tasks.proposedFromAudit(siteId, proposal.type, proposal.target, auditId))) proposed += 1;
          else await reject(proposal.type, proposal.target, outcome.refused);
        },
        reject,
      };

      try {
        // What the crawl kept of every page a planner drafts from, in one query per 1,000 pages;
        // only pages it kept nothing of are downloaded again, a few at a time.
        const drafted = [ctx.homeUrl, ...findings.filter((f) => DRAFTED_FROM_PAGE.has(f.check_id)).map((f) => f.url)];
        await reader.load(drafted);
        await reader.prefetch(drafted);
        for (const planner of PLANNERS) await planner.plan(ctx);
      } finally {
        await http.close();
      }
      deps.log.info({ siteId, auditId, proposed, rejected, withdrawn: withdrawn.size }, 'strategy agent proposals');
      return { proposed, rejected };
    },
  };
  return agent;
}

export type StrategyAgent = ReturnType<typeof createStrategyAgent>;
