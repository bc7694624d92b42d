import { CHECKS, type Severity } from './catalogue.ts';
import type { Findings } from './findings.ts';

/**
 * The health score, an integer 0-100:
 *
 *   score = round(100 × Π over checks (1 − weight(severity) × √share))
 *
 * share is the fraction of analysed pages a check affects (1 for a site-wide check that
 * fires). The square root makes the first affected pages count, without letting one check
 * sink a large site; the product keeps every factor in (0, 1]. Hence: a clean site scores
 * 100, fixing an issue (a smaller share) never lowers the score, and the same share gives
 * the same score on a small or a large site. A site-wide block (the home page noindex, or
 * robots.txt disallowing everything) caps the score at 30.
 */
export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 0.5, error: 0.2, warning: 0.08, notice: 0.02 };
export const BLOCKED_CAP = 30;
const SITE_BLOCKS = ['home_noindex', 'robots_txt_blocks_all'];

export interface ScoreLine {
  check_id: string;
  severity: Severity;
  affected: number;
  share: number;
  /** Points this check alone would take from 100. */
  cost: number;
}

export function healthScore(findings: Findings, pagesAnalysed: number): { score: number; breakdown: ScoreLine[]; capped: boolean } {
  let product = 1;
  const breakdown: ScoreLine[] = [];
  for (const check of CHECKS) {
    const affected = findings.count(check.id);
    if (affected === 0 || check.unscored) continue;
    const share = check.siteWide ? 1 : Math.min(1, affected / Math.max(1, pagesAnalysed));
    const factor = 1 - SEVERITY_WEIGHT[check.severity] * Math.sqrt(share);
    product *= factor;
    breakdown.push({ check_id: check.id, severity: check.severity, affected, share: round(share, 4), cost: round(100 * (1 - factor), 2) });
  }
  let score = Math.round(100 * product);
  const capped = SITE_BLOCKS.some((id) => findings.count(id) > 0) && score > BLOCKED_CAP;
  if (capped) score = BLOCKED_CAP;
  breakdown.sort((a, b) => b.cost - a.cost);
  return { score, breakdown, capped };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
