import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import { createOutboundAgent, type PrivateTargets } from '../../lib/safe-http.ts';
import { fetchOnce } from '../crawler/fetch-page.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { VERIFY_JOB } from './executor.ts';
import { liveChecks } from '../task-types/index.ts';
import type { LiveCheck } from '../task-types/task-type.ts';
import { createRenderer, type Renderer } from '../crawler/renderer.ts';
import type { RenderingMode } from '../crawler/render-rules.ts';
import { startLabRunner, type LabRunner } from '../page-speed/lab-runner.ts';

/**
 * Re-checks after these delays (seconds) while the change is not live yet: caches expire,
 * and with the manual connector a person makes the change. Then the verification fails.
 */
export const VERIFY_DELAYS_SECONDS = [15 * 60, 3600, 6 * 3600, 24 * 3600, 72 * 3600];

export function createVerifier(deps: {
  tasks: Pick<TasksService, 'worker'>;
  queue: Pick<JobQueue, 'sendAfter'>;
  allowPrivateTargets: PrivateTargets;
  /** The Chromium that renders a client-rendered site's pages, as its audits do (config.chromiumPath). */
  chromiumPath?: string | undefined;
  log: FastifyBaseLogger;
  delaysSeconds?: number[];
}) {
  const delays = deps.delaysSeconds ?? VERIFY_DELAYS_SECONDS;
  const { worker } = deps.tasks;

  async function checksFor(task: { type: string; target: string; configuration: unknown; rendering: RenderingMode; template_renders_content: boolean | null }): Promise<LiveCheck[]> {
    const agent = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 1, timeoutMs: 15_000 });
    // Started only if a page needs rendering; behind the same guard as every fetch here.
    let renderer: Renderer | undefined;
    const chromiumPath = deps.chromiumPath;
    const rendering = chromiumPath && task.rendering !== 'never' ? {
      // A site whose audit rendered every page (its template's scripts add content) is verified the same way.
      mode: task.rendering === 'auto' && task.template_renders_content === true ? 'always' as const : task.rendering,
      render: async (url: string, raw: { contentType: string; body: string }) => {
        renderer ??= createRenderer({ executablePath: chromiumPath, agent, allowPrivate: deps.allowPrivateTargets, concurrency: 1 });
        const result = await renderer.render(url, raw);
        if (result.error) deps.log.warn({ url, error: result.error }, 'a page could not be rendered for verification; its HTML was read');
        return result.html;
      },
    } : undefined;
    // Lighthouse, for the tasks that are verified by measuring the page again (improve_page_speed): started on first use.
    let labRunner: Promise<LabRunner> | undefined;
    const lab = chromiumPath ? async (url: string) => {
      labRunner ??= startLabRunner({ chromiumPath, allowPrivate: deps.allowPrivateTargets });
      try {
        return await (await labRunner).run(url);
      } catch (error) {
        return { url, error: `Lighthouse could not start Chromium: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
      }
    } : undefined;
    try {
      return await liveChecks(task, async (url) => {
        const page = await fetchOnce(url, { agent, allowPrivate: deps.allowPrivateTargets, maxBytes: 5 * 1024 * 1024, keepBody: true, retries: 1 });
        return { status: page.status, body: page.body, headers: page.headers };
      }, rendering, lab);
    } finally {
      await renderer?.close();
      await labRunner?.then((runner) => runner.close(), () => undefined);
      await agent.close();
    }
  }

  return {
    async verify(taskId: string, attempt: number) {
      const task = await worker.find(taskId);
      if (!task || task.status !== 'completed') return;
      // A later attempt already reported (workers finish out of order): this one has nothing to add.
      const previous = await worker.verification(taskId);
      if (previous && previous.attempts > attempt) return;
      const checks = await checksFor(task);
      const passed = checks.every((c) => c.passed);
      const retryIn = delays[attempt - 1];
      const status = checks.length === 0 ? 'not_applicable' : passed ? 'verified' : retryIn === undefined ? 'failed' : 'pending';
      await worker.saveVerification(taskId, { status, checks, attempts: attempt, checkedAt: new Date() });
      if (status === 'pending') await deps.queue.sendAfter(VERIFY_JOB, { taskId, attempt: attempt + 1 }, retryIn!);
    },
  };
}

export type Verifier = ReturnType<typeof createVerifier>;
