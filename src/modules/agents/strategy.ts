import type { FastifyBaseLogger } from 'fastify';
import type { TaskCategory, TaskPriority } from '../../db/types.ts';
import { createOutboundAgent } from '../../lib/safe-http.ts';
import type { AuditsService } from '../audits/audits.service.ts';
import { CHECKS_BY_ID } from '../checks/catalogue.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import { fetchOnce } from '../crawler/fetch-page.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { AgentsRepo } from './agents.repo.ts';
import { readPageContent, type PageContent } from './page-content.ts';
import { siteSuffixOf, writeMetaDescription, writeTitle } from './writers.ts';

/** At most this many pages are read to draft values in one run; the rest wait for the next audit. */
const MAX_DRAFTS_PER_RUN = 100;

const SEVERITY_PRIORITY: Record<string, TaskPriority> = { critical: 'critical', error: 'high', warning: 'medium', notice: 'low' };

interface Proposal {
  type: string;
  category: TaskCategory;
  priority: TaskPriority;
  title: string;
  description: string;
  target: string;
  configuration: Record<string, unknown>;
  evidence: Array<Record<string, unknown>>;
}

interface Deps {
  audits: Pick<AuditsService, 'latestCompleted' | 'findings' | 'pages'>;
  tasks: Pick<TasksService, 'propose'>;
  repo: AgentsRepo;
  allowPrivateTargets: boolean;
  log: FastifyBaseLogger;
}

/**
 * The strategy agent: turns the findings of a site's latest audit into task proposals.
 * A proposal is stored only with evidence and after its quality gates pass; a refused one
 * is recorded with the reason, never silently dropped.
 */
export function createStrategyAgent(deps: Deps) {
  return {
    async proposeFromAudit(siteId: string, auditId: string): Promise<{ proposed: number; rejected: number }> {
      const latest = await deps.audits.latestCompleted(siteId);
      let proposed = 0;
      let rejected = 0;
      const reject = async (type: string, target: string, reason: string) => {
        rejected += 1;
        await deps.repo.recordRejection({ siteId, auditId, type, target, reason });
      };
      // Gate: evidence must come from the site's latest audit.
      if (latest?.id !== auditId) {
        await reject('*', siteId, 'the audit is not the latest completed audit of the site');
        return { proposed, rejected };
      }
      const at = latest.finished_at;
      const pages = await deps.audits.pages(auditId);
      const siteSuffix = siteSuffixOf(pages.map((p) => p.title ?? ''));
      const taken = {
        descriptions: new Set(pages.flatMap((p) => (p.meta_description ? [p.meta_description.toLowerCase()] : []))),
        titles: new Set(pages.flatMap((p) => (p.title ? [p.title.toLowerCase()] : []))),
      };
      const evidence = (checkId: string, url: string, value: string | null) => ({
        check_id: checkId, url, current_value: value, audit_id: auditId, found_at: at,
      });

      const findings = await deps.audits.findings(auditId, [
        'meta_description_missing', 'meta_description_empty', 'title_missing', 'title_empty', 'title_too_short',
        'title_too_long', 'title_duplicate', 'broken_internal_links',
      ]);
      const byUrl = (ids: string[]) => {
        const map = new Map<string, Array<{ check_id: string; value: string | null }>>();
        for (const f of findings) if (ids.includes(f.check_id)) map.set(f.url, [...(map.get(f.url) ?? []), f]);
        return map;
      };

      const agent = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 4, timeoutMs: 15_000 });
      let drafts = 0;
      const read = async (url: string): Promise<PageContent | undefined> => {
        if (drafts++ >= MAX_DRAFTS_PER_RUN) return undefined;
        const page = await fetchOnce(url, { agent, allowPrivate: deps.allowPrivateTargets, maxBytes: 5 * 1024 * 1024, keepBody: true, retries: 1 });
        return page.status === 200 && page.body ? readPageContent(page.body) : undefined;
      };
      const store = async (proposal: Proposal) => {
        const reason = gateFailure(proposal);
        if (reason) return reject(proposal.type, proposal.target, reason);
        const id = await deps.tasks.propose({ siteId, ...proposal });
        if (id) proposed += 1;
        else await reject(proposal.type, proposal.target, 'an open task of this type already covers this target');
      };

      try {
        for (const [url, list] of byUrl(['meta_description_missing', 'meta_description_empty'])) {
          const content = await read(url);
          const after = content && writeMetaDescription(content, taken.descriptions);
          if (!after) {
            await reject('fix_missing_meta_description', url, content ? 'the page has too little text to draft an 80-160 character description from' : 'the page could not be read to draft a description');
            continue;
          }
          taken.descriptions.add(after.toLowerCase());
          await store({
            type: 'fix_missing_meta_description', category: 'seo', priority: priorityOf(list[0]!.check_id),
            title: 'Add a meta description', description: `${url} has no meta description; this one is drafted from the page's own text.`,
            target: url,
            configuration: { url, field: 'meta_description', before: list[0]!.value ?? null, after, bounds: [DESCRIPTION_MIN, DESCRIPTION_MAX] },
            evidence: list.map((f) => evidence(f.check_id, url, f.value)),
          });
        }

        for (const [url, list] of byUrl(['title_missing', 'title_empty', 'title_too_short', 'title_too_long', 'title_duplicate'])) {
          const content = await read(url);
          const after = content && writeTitle(content, siteSuffix, taken.titles);
          if (!after) {
            await reject('fix_title_tag', url, content ? 'no heading or title to draft a unique 20-60 character title from' : 'the page could not be read to draft a title');
            continue;
          }
          taken.titles.add(after.toLowerCase());
          const worst = list.map((f) => f.check_id).sort((a, b) => rank(a) - rank(b))[0]!;
          await store({
            type: 'fix_title_tag', category: 'seo', priority: priorityOf(worst),
            title: 'Fix the title tag', description: `${url}: ${list.map((f) => CHECKS_BY_ID.get(f.check_id)?.title.toLowerCase()).join('; ')}.`,
            target: url,
            configuration: { url, field: 'title', before: list.find((f) => f.value)?.value ?? null, after, bounds: [TITLE_MIN, TITLE_MAX] },
            evidence: list.map((f) => evidence(f.check_id, url, f.value)),
          });
        }

        for (const [url, list] of byUrl(['broken_internal_links'])) {
          await store({
            type: 'fix_broken_links', category: 'technical', priority: 'high',
            title: `Fix ${list.length} broken link${list.length > 1 ? 's' : ''}`,
            description: `${url} links to pages that answer with an error.`,
            target: url,
            configuration: {
              url,
              changes: list.map((f) => ({ link_to: f.value, action: 'point the link at a working page, or remove it' })),
            },
            evidence: list.map((f) => evidence(f.check_id, url, f.value)),
          });
        }
      } finally {
        await agent.close();
      }
      deps.log.info({ siteId, auditId, proposed, rejected }, 'strategy agent proposals');
      return { proposed, rejected };
    },
  };
}

const rank = (checkId: string) => ['critical', 'error', 'warning', 'notice'].indexOf(CHECKS_BY_ID.get(checkId)?.severity ?? 'notice');
const priorityOf = (checkId: string): TaskPriority => SEVERITY_PRIORITY[CHECKS_BY_ID.get(checkId)?.severity ?? 'notice'] ?? 'low';

/**
 * The quality gates every proposal passes before it becomes a task: evidence, a value that
 * passes the very check that flagged the problem, and a defined change or deliverable.
 * (Freshness is checked per run; duplicates by the database's open-task index.)
 */
export function gateFailure(proposal: Proposal): string | undefined {
  if (proposal.evidence.length === 0) return 'no evidence';
  const after = proposal.configuration.after;
  if (proposal.type === 'fix_missing_meta_description') {
    if (typeof after !== 'string' || after.length < DESCRIPTION_MIN || after.length > DESCRIPTION_MAX) return 'the drafted description is outside 80-160 characters';
  }
  if (proposal.type === 'fix_title_tag') {
    if (typeof after !== 'string' || after.length < TITLE_MIN || after.length > TITLE_MAX) return 'the drafted title is outside 20-60 characters';
  }
  if (proposal.type === 'fix_broken_links' && !Array.isArray(proposal.configuration.changes)) return 'no change defined';
  return undefined;
}
