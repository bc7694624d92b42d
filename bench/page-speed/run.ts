// npm run bench:page-speed: Lighthouse as audits run it (mobile, performance only, behind the guarded proxy), on a
// local shop (a slow home page: a 2.9 MB hero lazy-loaded, a blocking style sheet, a busy script; three plain pages).
// Baseline in the same run: Lighthouse started plainly on the same pages (chrome-launcher, no proxy; the same audits
// skipped), the two alternating round by round so neither always meets a warm cache. Reported: seconds
// a page, what an audit of 20 templates costs, Chromium's peak memory (proportional set size), and how much the score
// and LCP move between runs of the same page (why improve_page_speed is verified by its items, not its score).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs } from '../../src/lib/chromium.ts';
import { descendantsMemory } from '../../src/modules/crawler/process-memory.ts';
import { SKIPPED_AUDITS, startLabRunner } from '../../src/modules/page-speed/lab-runner.ts';
import { startPageSpeedSite } from '../../test/helpers/page-speed-site.ts';
import { writeSection } from '../write-section.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const chromium = process.env.CHROMIUM_PATH ?? spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
if (!chromium) throw new Error('bench:page-speed needs Chromium (apt-get install chromium, or set CHROMIUM_PATH)');

const site = await startPageSpeedSite();
const PAGES = ['/', '/coffee/ethiopia', '/coffee/colombia', '/about'].map((p) => `${site.url}${p}`);

/** Chromium's memory, sampled every 200 ms while `work` runs. */
async function sampled<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, descendantsMemory(process.pid))), 200);
  try {
    return { value: await work(), peakMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

interface Run { url: string; seconds: number; score: number; lcpMs: number }

async function guarded(): Promise<Run[]> {
  const runner = await startLabRunner({ chromiumPath: chromium, allowPrivate: { hosts: [site.host] } });
  const runs: Run[] = [];
  try {
    for (const url of PAGES) {
      const started = performance.now();
      const result = await runner.run(url);
      if ('error' in result) throw new Error(result.error);
      runs.push({ url, seconds: (performance.now() - started) / 1000, score: result.score, lcpMs: result.metrics.find((m) => m.id === 'lcp')?.value ?? 0 });
    }
  } finally {
    await runner.close();
  }
  return runs;
}

async function plain(): Promise<Run[]> {
  const chrome = await chromeLauncher.launch({ chromePath: chromium, chromeFlags: chromiumArgs(['--headless=new']), logLevel: 'silent' });
  const runs: Run[] = [];
  try {
    for (const url of PAGES) {
      const started = performance.now();
      const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], output: 'json', logLevel: 'silent', formFactor: 'mobile', skipAudits: SKIPPED_AUDITS });
      const lhr = result!.lhr;
      runs.push({ url, seconds: (performance.now() - started) / 1000, score: Math.round((lhr.categories.performance?.score ?? 0) * 100), lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0) });
    }
  } finally {
    chrome.kill();
  }
  return runs;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (runs: Run[], key: 'score' | 'lcpMs') =>
  Math.max(...PAGES.map((url) => {
    const values = runs.filter((r) => r.url === url).map((r) => r[key]);
    return Math.max(...values) - Math.min(...values);
  }));

// Round by round, each side starting its own browser; the order alternates (plain first in even rounds).
const baseline = { value: [] as Run[], peakMb: 0 };
const ours = { value: [] as Run[], peakMb: 0 };
const add = (into: typeof baseline, round: { value: Run[]; peakMb: number }) => {
  into.value.push(...round.value);
  into.peakMb = Math.max(into.peakMb, round.peakMb);
};
for (let i = 0; i < RUNS; i++) {
  if (i % 2 === 0) {
    add(baseline, await sampled(plain));
    add(ours, await sampled(guarded));
  } else {
    add(ours, await sampled(guarded));
    add(baseline, await sampled(plain));
  }
}
await site.close();

const perPage = (runs: Run[]) => median(runs.map((r) => r.seconds));
const slowHome = (runs: Run[]) => median(runs.filter((r) => r.url === PAGES[0]).map((r) => r.seconds));
const row = (name: string, r: { value: Run[]; peakMb: number }) =>
  `| ${name} | ${r.value.length} | ${perPage(r.value).toFixed(1)} | ${slowHome(r.value).toFixed(1)} | ${(perPage(r.value) * 20 / 60).toFixed(1)} | ${r.peakMb} | ${spread(r.value, 'score')} | ${spread(r.value, 'lcpMs')} |`;
const table = [
  `Run ${new Date().toISOString()} with \`npm run bench:page-speed\` (${PAGES.length} pages x ${RUNS} runs, Lighthouse 12.8.2, mobile, performance only; `
    + `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; Chromium memory is the proportional set size of its processes).`,
  '',
  '| Lighthouse | runs | s a page (median) | s, slow home page | min for 20 templates | Chromium peak (MB) | score spread (points) | LCP spread (ms) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  row('**as audits run it** (guarded proxy, screenshots skipped)', ours),
  row('baseline: Lighthouse started plainly (no proxy, the same audits skipped)', baseline),
  '',
  `The guarded lab costs **${(perPage(ours.value) / perPage(baseline.value)).toFixed(2)}x** Lighthouse run plainly, a page. `
    + 'Spread is the largest difference between runs of one page: verification judges the items Lighthouse names, not the score.',
].join('\n');
console.log(`\n${table}\n`);
writeSection('page-speed', 'Core Web Vitals (Lighthouse): `npm run bench:page-speed`', table);
