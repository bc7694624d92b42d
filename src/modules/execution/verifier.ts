import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import { createOutboundAgent } from '../../lib/safe-http.ts';
import { extractPageFacts } from '../crawler/extract.ts';
import { fetchOnce } from '../crawler/fetch-page.ts';
import { normalizeUrl } from '../crawler/urls.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { VERIFY_JOB } from './executor.ts';

/**
 * Re-checks after these delays (seconds) while the change is not live yet: caches expire,
 * and with the manual connector a person makes the change. Then the verification fails.
 */
export const VERIFY_DELAYS_SECONDS = [15 * 60, 3600, 6 * 3600, 24 * 3600, 72 * 3600];

export interface VerificationCheck {
  check: string;
  expected: string | null;
  actual: string | null;
  passed: boolean;
}

export function createVerifier(deps: {
  tasks: Pick<TasksService, 'worker'>;
  queue: Pick<JobQueue, 'sendAfter'>;
  allowPrivateTargets: boolean;
  log: FastifyBaseLogger;
  delaysSeconds?: number[];
}) {
  const delays = deps.delaysSeconds ?? VERIFY_DELAYS_SECONDS;
  const { worker } = deps.tasks;

  async function checksFor(task: { type: string; target: string; configuration: Record<string, unknown> }): Promise<VerificationCheck[]> {
    const agent = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 1, timeoutMs: 15_000 });
    try {
      const page = await fetchOnce(task.target, { agent, allowPrivate: deps.allowPrivateTargets, maxBytes: 5 * 1024 * 1024, keepBody: true, retries: 1 });
      if (page.status !== 200 || !page.body) {
        return [{ check: 'page_answers', expected: '200', actual: String(page.status), passed: false }];
      }
      const facts = extractPageFacts(page.body);
      const expected = String(task.configuration.after ?? '');
      switch (task.type) {
        case 'fix_missing_meta_description': {
          const actual = facts.metaDescriptions[0] ?? null;
          return [{ check: 'meta_description', expected, actual, passed: facts.metaDescriptions.length === 1 && actual === expected }];
        }
        case 'fix_title_tag': {
          const actual = facts.titles[0] ?? null;
          return [{ check: 'title', expected, actual, passed: facts.titles.length === 1 && actual === expected }];
        }
        case 'fix_broken_links': {
          const changes = (task.configuration.changes ?? []) as Array<{ link_to: string }>;
          const links = new Set(facts.links.map((l) => normalizeUrl(l.href, task.target)));
          return changes.map((c) => ({ check: 'broken_link_removed', expected: null, actual: links.has(c.link_to) ? c.link_to : null, passed: !links.has(c.link_to) }));
        }
        default:
          return [];
      }
    } finally {
      await agent.close();
    }
  }

  return {
    async verify(taskId: string, attempt: number) {
      const task = await worker.find(taskId);
      if (!task || task.status !== 'completed') return;
      const checks = await checksFor({ ...task, configuration: (task.configuration ?? {}) as Record<string, unknown> });
      const passed = checks.length > 0 && checks.every((c) => c.passed);
      const retryIn = delays[attempt - 1];
      const status = passed ? 'verified' : retryIn === undefined ? 'failed' : 'pending';
      await worker.saveVerification(taskId, { status, checks, attempts: attempt, checkedAt: new Date() });
      if (status === 'pending') await deps.queue.sendAfter(VERIFY_JOB, { taskId, attempt: attempt + 1 }, retryIn!);
    },
  };
}

export type Verifier = ReturnType<typeof createVerifier>;
