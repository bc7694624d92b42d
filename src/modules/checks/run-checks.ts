import type { CrawlResult } from '../crawler/crawl.ts';
import { Findings } from './findings.ts';
import { checkPage } from './page-checks.ts';
import { healthScore } from './score.ts';
import { checkSite } from './site-checks.ts';

/** Every check over a finished crawl, and the score they add up to. */
export function runChecks(crawl: CrawlResult) {
  const findings = new Findings();
  const siteIsHttps = crawl.startUrl.startsWith('https:');
  for (const page of crawl.pages) checkPage(page, findings, siteIsHttps);
  checkSite(crawl, findings);
  // Pages the checks could judge: everything that was fetched or refused by robots.txt.
  const pagesAnalysed = crawl.pages.length;
  return { findings, pagesAnalysed, ...healthScore(findings, pagesAnalysed) };
}
