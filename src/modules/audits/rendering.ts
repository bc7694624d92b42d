import type { Static } from 'typebox';
import { conflict, notFound } from '../../lib/problem.ts';
import type { RenderingSummary } from '../crawler/crawl.ts';
import type { PageRendering } from '../crawler/render-compare.ts';
import { describeRenderReason, type RenderReason } from '../crawler/render-rules.ts';
import type { RenderingReportSchema } from './rendering.schemas.ts';
import type { AuditsRepo } from './audits.repo.ts';
import { AUDIT_TRANSITIONS } from './lifecycle.ts';

type Report = Static<typeof RenderingReportSchema>;

/** How an audit the caller can read rendered JavaScript: the summary, and its rendered pages raw against rendered, paged. */
export function createRenderingReport(deps: { repo: Pick<AuditsRepo, 'renderingOf' | 'renderedPages'> }) {
  return async (ownerId: string, auditId: string, page: number, pageSize: number): Promise<Report> => {
    const audit = await deps.repo.renderingOf(ownerId, auditId);
    if (!audit) throw notFound('Audit');
    if (audit.status !== AUDIT_TRANSITIONS.complete.to) throw conflict(`The audit is ${audit.status}; rendering is reported once it has completed`);
    const summary = audit.rendering as RenderingSummary | null;
    if (!summary) throw notFound('Rendering report of this audit'); // audits run before it was recorded
    const { rows, total } = await deps.repo.renderedPages(ownerId, auditId, page, pageSize);
    return {
      audit_id: auditId,
      mode: summary.mode,
      available: summary.available,
      unavailable: summary.unavailable ?? null,
      rendered: summary.rendered,
      failed: summary.failed,
      by_reason: Object.entries(summary.by_reason)
        .map(([reason, pages]) => ({ reason, reason_text: describeRenderReason(reason as RenderReason), pages }))
        .sort((a, b) => b.pages - a.pages),
      template_renders_content: summary.template_renders_content,
      render_ms: summary.render_ms,
      peak_memory_mb: Math.round(summary.peak_memory_bytes / 1024 / 1024),
      pages: {
        items: rows.map(({ url, rendering }) => {
          const r = rendering as PageRendering;
          return {
            url, reason: r.reason, reason_text: describeRenderReason(r.reason), ms: r.ms, error: r.error ?? null,
            raw: r.raw, rendered: r.rendered ?? null, changes: r.changes, text_in_raw: r.text_in_raw,
            links_only_rendered: r.links_only_rendered, links_without_href: r.links_without_href, requests: r.requests,
          };
        }),
        total, page, page_size: pageSize,
      },
    };
  };
}
