// npm run bench:rendering: JavaScript rendering on this machine. A local client-rendered site (each page a shell whose
// module script fetches its JSON and builds text and links) audited in `auto` with a pool of 2 Chromium pages:
// rendered pages/s, render time, Chromium's peak memory; against Chromium driven plainly on the same pages (ceiling.ts). Baseline in the same run: the same pages served as HTML,
// crawled raw-only (rendering never) and in auto (which renders the home page once to compare). Each crawl runs in a
// process of its own; the site in another. Results go to stdout and the rendering section of BENCHMARKS.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { writeSection } from '../write-section.ts';

const PAGES = Number(process.env.PAGES ?? 300);
const RUNS = 3;
const NODE = process.execPath;
const chromium = process.env.CHROMIUM_PATH ?? spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
if (!chromium) throw new Error('bench:rendering needs Chromium (apt-get install chromium, or set CHROMIUM_PATH)');

interface Result { pages: number; rendered: number; seconds: number; pagesPerSecond: number; renderP50: number; renderP95: number; chromiumPeakMb: number; nodePeakRssMb: number }

async function startSite(mode: 'spa' | 'ssr'): Promise<{ host: string; child: ChildProcess }> {
  const child = spawn(NODE, ['bench/rendering/site.ts', mode, String(PAGES)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const host = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { host, child };
}

function measure(host: string, mode: string): Result {
  const args = mode === 'ceiling' ? ['bench/rendering/ceiling.ts', host, String(PAGES), chromium] : ['bench/rendering/crawler.ts', host, String(PAGES), mode, chromium];
  const run = spawnSync(NODE, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`crawl (${mode}) failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Result;
}
const median = (results: Result[]) => [...results].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond)[Math.floor(results.length / 2)]!;

const spa = await startSite('spa');
const rendered = median(Array.from({ length: RUNS }, () => measure(spa.host, 'auto')));
const ceiling = median(Array.from({ length: RUNS }, () => measure(spa.host, 'ceiling')));
spa.child.kill();
const ssr = await startSite('ssr');
const rawOnly = median(Array.from({ length: RUNS }, () => measure(ssr.host, 'never')));
const autoOnHtml = median(Array.from({ length: RUNS }, () => measure(ssr.host, 'auto')));
ssr.child.kill();

const row = (name: string, r: Result) =>
  `| ${name} | ${r.pages} | ${r.rendered} | ${r.seconds.toFixed(1)} | ${r.pagesPerSecond.toFixed(1)} | ${r.renderP50 ? `${r.renderP50} / ${r.renderP95}` : '-'} | ${r.chromiumPeakMb || '-'} | ${r.nodePeakRssMb || '-'} |`;
const table = [
  `Run ${new Date().toISOString()} with \`npm run bench:rendering\` (${PAGES} pages, crawl concurrency 8, a pool of 2 Chromium pages, median of ${RUNS} runs; `
    + `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; Chromium memory is the proportional set size of its processes).`,
  '',
  '| Crawl | pages | rendered | seconds | pages/s | render ms p50 / p95 | Chromium peak (MB) | Node peak RSS (MB) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  row('**client-rendered site, auto** (every page rendered)', rendered),
  row('baseline: Chromium driven plainly, same pages (page.goto, no interception, no guard, no cache of ours, an oracle wait)', ceiling),
  row('baseline: same pages as HTML, raw only (never)', rawOnly),
  row('same pages as HTML, auto (home page rendered once)', autoOnHtml),
  '',
  `Rendered pages/s: **${rendered.pagesPerSecond.toFixed(1)}** (target >= 10), **${((rendered.pagesPerSecond / ceiling.pagesPerSecond) * 100).toFixed(0)}%** of Chromium driven plainly here. On a site whose HTML has its content, auto costs `
    + `**${(autoOnHtml.seconds - rawOnly.seconds).toFixed(1)} s** an audit over raw-only (Chromium's start and the home page's render, once), whatever the site's size.`,
].join('\n');
console.log(`\n${table}\n`);
writeSection('rendering', 'JavaScript rendering: `npm run bench:rendering`', table);
