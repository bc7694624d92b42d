import type { Static } from 'typebox';
import { conflict, notFound } from '../../lib/problem.ts';
import type { FieldData } from '../page-speed/crux-client.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';
import { formatVital } from '../page-speed/vitals.ts';
import type { PageSpeedReportSchema } from './page-speed.schemas.ts';
import type { AuditsRepo } from './audits.repo.ts';
import { AUDIT_TRANSITIONS } from './lifecycle.ts';

type Report = Static<typeof PageSpeedReportSchema>;

/** Field data with each value as people read it, and whether it passes Google's assessment (LCP, INP and CLS good at p75). */
function shownField(field: FieldData | null) {
  if (!field) return null;
  const core = field.metrics.filter((m) => m.id === 'lcp' || m.id === 'inp' || m.id === 'cls');
  return {
    ...field,
    metrics: field.metrics.map((m) => ({ ...m, display: formatVital(m.id, m.p75) })),
    passes: core.length > 0 && core.every((m) => m.rating === 'good'),
  };
}

/** An audit's Core Web Vitals, for a caller who can read the audit: lab per template page, field beside it. */
export function createPageSpeedReport(deps: { repo: Pick<AuditsRepo, 'pageSpeedOf'> }) {
  return async (ownerId: string, auditId: string): Promise<Report> => {
    const audit = await deps.repo.pageSpeedOf(ownerId, auditId);
    if (!audit) throw notFound('Audit');
    if (audit.status !== AUDIT_TRANSITIONS.complete.to) throw conflict(`The audit is ${audit.status}; Core Web Vitals are reported once it has completed`);
    const report = audit.page_speed as PageSpeedReport | null;
    // Audits run before it was recorded, or on a server where neither Lighthouse nor the Chrome UX Report is set up.
    if (!report) throw notFound('Core Web Vitals of this audit');
    return {
      audit_id: auditId,
      available: report.available,
      unavailable: report.unavailable ?? null,
      measured_ms: report.ms,
      field_configured: report.field.configured,
      field_error: report.field.error ?? null,
      origin_field: shownField(report.field.origin),
      refused: report.refused,
      pages: report.pages.map((page) => ({
        url: page.url,
        template: page.template,
        pages_in_template: page.pages_in_template,
        lab: page.lab && {
          ...page.lab,
          metrics: page.lab.metrics.map((m) => ({ ...m, display: m.id === 'si' ? formatVital('lcp', m.value) : formatVital(m.id, m.value) })),
        },
        error: page.error ?? null,
        field: shownField(page.field),
      })),
    };
  };
}
