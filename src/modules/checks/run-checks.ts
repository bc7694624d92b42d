import type { CrawlResult, CrawledPage } from '../crawler/crawl.ts';
import { Findings } from './findings.ts';
import { checkPage, siteContext, slimPageFacts } from './page-checks.ts';
import { checkRendering } from './rendering-checks.ts';
import { checkPageSpeed } from './page-speed-checks.ts';
import type { PageSpeedReport } from '../page-speed/measure.ts';
import { healthScore } from './score.ts';
import { checkSite } from './site-checks.ts';

/**
 * Runs the checks as a crawl streams in: page checks per page as it arrives (then the page
 * is slimmed), cross-page checks and the score at the end.
 */
export function createAuditor() {
  const findings = new Findings();
  return {
    onPage(page: CrawledPage, startUrl: string) {
      checkPage(page, findings, siteContext(startUrl));
      checkRendering(page, findings);
      slimPageFacts(page);
    },
    /** The cross-page checks, the Core Web Vitals the audit measured (when it did), and the score. */
    finish(crawl: CrawlResult, pageSpeed?: PageSpeedReport) {
      checkSite(crawl, findings);
      checkPageSpeed(pageSpeed, findings, crawl.startUrl);
      // Pages the checks could judge: everything fetched, less robots.txt's refusals and
      // crawl traps' copies (reported apart, they would dilute every share).
      const pagesAnalysed = crawl.pages.filter((p) => !p.blockedByRobots && !p.trap).length;
      return { findings, pagesAnalysed, ...healthScore(findings, pagesAnalysed) };
    },
  };
}

/** Every check over a crawl that has already finished (its pages not yet checked). */
export function runChecks(crawl: CrawlResult) {
  const auditor = createAuditor();
  for (const page of crawl.pages) auditor.onPage(page, crawl.startUrl);
  return auditor.finish(crawl);
}
