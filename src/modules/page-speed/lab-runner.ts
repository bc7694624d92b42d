import type { LaunchedChrome } from 'chrome-launcher';
import { chromiumArgs } from '../../lib/chromium.ts';
import type { PrivateTargets } from '../../lib/safe-http.ts';
import { startGuardedProxy, type GuardedProxy } from './guarded-proxy.ts';
import { labResultOf, type LabResult } from './lab-result.ts';

/**
 * Lighthouse (Google's own, the npm package) in the Chromium the audits already use: one browser, pages measured one
 * after another (Lighthouse measures one page at a time; two at once would slow each other and skew both), mobile
 * profile, simulated throttling (Lighthouse's default: what PageSpeed Insights reports), the performance category only.
 * Every request of the page goes through the guarded proxy (guarded-proxy.ts).
 */
export interface LabRunner {
  /** The page measured, or why it could not be (Lighthouse's runtime error, a timeout). */
  run(url: string): Promise<LabResult | { url: string; error: string }>;
  /** Targets the address guard refused during the runs. */
  readonly refused: readonly string[];
  close(): Promise<void>;
}

export interface LabRunnerOptions {
  chromiumPath: string;
  allowPrivate: PrivateTargets;
  /** One page's whole run; past it the browser is restarted for the next page. */
  timeoutMs?: number;
}

/** Screenshots are half of a run's output and nothing here shows them. */
export const SKIPPED_AUDITS = ['screenshot-thumbnails', 'final-screenshot', 'full-page-screenshot'];

export async function startLabRunner(options: LabRunnerOptions): Promise<LabRunner> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  // Loaded on first use: Lighthouse is some megabytes of modules that only audits with Chromium need.
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import('lighthouse'), import('chrome-launcher')]);
  const proxy: GuardedProxy = await startGuardedProxy({ allowPrivate: options.allowPrivate });
  let chrome: LaunchedChrome | undefined;

  const launch = () => chromeLauncher.launch({
    chromePath: options.chromiumPath,
    // Loopback addresses go through the proxy too (Chromium bypasses proxies for them by default).
    chromeFlags: chromiumArgs(['--headless=new', `--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>']),
    logLevel: 'silent',
    handleSIGINT: false,
  });
  const kill = async () => {
    const running = chrome;
    chrome = undefined;
    await running?.kill();
  };

  try {
    chrome = await launch();
  } catch (error) {
    await proxy.close();
    throw error;
  }

  return {
    get refused() {
      return proxy.refused;
    },
    async run(url) {
      chrome ??= await launch();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Lighthouse did not finish within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      });
      try {
        const result = await Promise.race([
          lighthouse(url, {
            port: chrome.port, onlyCategories: ['performance'], output: 'json', logLevel: 'silent', skipAudits: SKIPPED_AUDITS,
            maxWaitForLoad: Math.min(45_000, timeoutMs), formFactor: 'mobile',
          }),
          deadline,
        ]);
        if (!result) return { url, error: 'Lighthouse returned no result' };
        const { lhr, artifacts } = result;
        if (lhr.runtimeError) return { url, error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
        return labResultOf(url, lhr as never, artifacts.ImageElements ?? []);
      } catch (error) {
        // A hung or crashed browser is not reused: the next page gets a new one.
        await kill().catch(() => undefined);
        return { url, error: error instanceof Error ? error.message : String(error) };
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await kill().catch(() => undefined);
      await proxy.close();
    },
  };
}

export const isLabResult = (r: LabResult | { error: string }): r is LabResult => !('error' in r);
