import type { CrawlResult } from '../crawler/crawl.types.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import { choosePages } from './choose-pages.ts';
import { FIELD_DATA_LIMITS, fieldDataFor, type CruxClient, type FieldData } from './crux-client.ts';
import { isLabResult, startLabRunner, type LabRunner } from './lab-runner.ts';
import type { LabResult } from './lab-result.ts';

/** An audit's Core Web Vitals: Lighthouse on one page per template (lab), and the Chrome UX Report (field) beside it (audits.page_speed). */
export interface PageSpeedReport {
  /** Whether Lighthouse could run: false without Chromium, or when it did not start (see unavailable). */
  available: boolean;
  unavailable?: string;
  pages: PageSpeedPage[];
  field: {
    /** Whether a Chrome UX Report API key is configured (CRUX_API_KEY). */
    configured: boolean;
    /** The origin's p75 over 28 days on phones; null when Google has too little traffic for it. */
    origin: FieldData | null;
    error?: string;
  };
  /** Requests of the measured pages the address guard refused (a private or reserved address). */
  refused: string[];
  ms: number;
}

export interface PageSpeedPage {
  url: string;
  template: string;
  pages_in_template: number;
  lab: LabResult | null;
  error?: string;
  /** The page's own field data, where Google has enough of its traffic. */
  field: FieldData | null;
}

export const CHROMIUM_MISSING_FOR_LAB = 'the browser Lighthouse needs is not installed on this server, so the pages could not be measured; your administrator can install it';

export const LAB_TURNED_OFF = 'Lighthouse is turned off on this server; your administrator can turn it on';

export interface MeasureOptions {
  chromiumPath: string | undefined;
  allowPrivate: PrivateTargets;
  /** Pages measured at most (config PAGE_SPEED_PAGES, 20 by default; 0 measures none). */
  maxPages: number;
  crux?: CruxClient | undefined;
  /** Tests stand in for Lighthouse's browser. */
  startRunner?: typeof startLabRunner;
  onError?: (error: unknown) => void;
}

/** Measures the pages the crawl found, one per template; never throws (an audit is not lost because its lab run was). */
export async function measurePageSpeed(crawl: Pick<CrawlResult, 'pages' | 'urls' | 'startUrl'>, options: MeasureOptions): Promise<PageSpeedReport | undefined> {
  const labOn = options.maxPages > 0;
  if (!labOn && !options.crux) return undefined;
  const started = performance.now();
  const chosen = choosePages(crawl, labOn ? options.maxPages : FIELD_DATA_LIMITS.maxUrls);
  const chromiumPath = labOn ? options.chromiumPath : undefined;
  const unavailable = !labOn ? LAB_TURNED_OFF : options.chromiumPath === undefined ? CHROMIUM_MISSING_FOR_LAB : undefined;
  const report: PageSpeedReport = {
    available: unavailable === undefined,
    ...(unavailable !== undefined ? { unavailable } : {}),
    pages: chosen.map((page) => ({ ...page, lab: null, field: null })),
    field: { configured: options.crux !== undefined, origin: null },
    refused: [],
    ms: 0,
  };
  const field = options.crux ? fieldDataFor(options.crux, new URL(crawl.startUrl).origin, chosen.map((p) => p.url)) : undefined;

  if (chromiumPath !== undefined && chosen.length > 0) {
    let runner: LabRunner | undefined;
    try {
      runner = await (options.startRunner ?? startLabRunner)({ chromiumPath, allowPrivate: options.allowPrivate });
      for (const page of report.pages) {
        const result = await runner.run(page.url);
        if (isLabResult(result)) page.lab = result;
        else page.error = result.error;
      }
      report.refused = [...runner.refused];
    } catch (error) {
      options.onError?.(error);
      report.available = false;
      report.unavailable = `Lighthouse could not start Chromium: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    } finally {
      await runner?.close().catch(options.onError);
    }
  }

  if (field) {
    const data = await field;
    report.field.origin = data.origin;
    if (data.error !== undefined) report.field.error = data.error;
    for (const page of report.pages) page.field = data.pages.get(page.url) ?? null;
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}
