// npm run bench:crawl: a generated 2,000-page site (~30 KB of HTML a page, with a sitemap)
// served by its own process on core 0, crawled from core 1 by (1) a bare undici fetch loop
// over the same URLs at the same concurrency (the ceiling), (2) a full audit (crawl and all
// checks, with the service's Node flags), (3) linkinator (the peer). Then a full audit of a
// 20,000-page site for peak RSS. Results go to stdout and the crawl section of BENCHMARKS.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeSection } from '../write-section.ts';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { serviceNodeFlags } from '../service-flags.ts';

const CONCURRENCY = 8;
const RUNS = 3;
const NODE = process.execPath;
const canPin = spawnSync('taskset', ['--version']).status === 0 && os.availableParallelism() >= 2;
const pinned = (core: number, args: string[]): [string, string[]] => (canPin ? ['taskset', ['-c', String(core), ...args]] : [args[0]!, args.slice(1)]);

interface Result { pages: number; seconds: number; pagesPerSecond: number; peakRssMb: number }

async function startSite(pages: number): Promise<{ host: string; child: ChildProcess }> {
  const [command, args] = pinned(0, [NODE, 'bench/crawl/site.ts', String(pages)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const host = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { host, child };
}

function measure(kind: string, host: string, pages: number, flags: string[] = []): Result {
  const [command, args] = pinned(1, [NODE, ...flags, 'bench/crawl/contender.ts', kind, host, String(pages), String(CONCURRENCY)]);
  const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${kind} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Result;
}

const median = (results: Result[]) => [...results].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond)[Math.floor(results.length / 2)]!;
const flags = serviceNodeFlags();

const small = await startSite(2000);
const ceiling = median(Array.from({ length: RUNS }, () => measure('ceiling', small.host, 2000)));
const audit = median(Array.from({ length: RUNS }, () => measure('audit', small.host, 2000, flags)));
const linkinator = measure('linkinator', small.host, 2000);
small.child.kill();

const large = await startSite(20_000);
const audit20k = measure('audit', large.host, 20_000, flags);
large.child.kill();

const row = (name: string, r: Result) => `| ${name} | ${r.pages} | ${Math.round(r.pagesPerSecond)} | ${r.peakRssMb.toFixed(0)} |`;
const table = [
  `Run ${new Date().toISOString()} with \`npm run bench:crawl\` (concurrency ${CONCURRENCY}, ` +
    `${canPin ? 'site server on core 0, crawler on core 1' : 'no taskset: unpinned'}, median of ${RUNS} runs for the ceiling and the audit, ` +
    `timed from the first request; the audit runs with the service's flags \`${flags.join(' ')}\`; ${os.cpus()[0]?.model ?? 'unknown CPU'}).`,
  '',
  '| Crawler | pages | pages/s | peak RSS (MB) |',
  '|---|---:|---:|---:|',
  row('ceiling: bare undici fetch loop, 2,000 pages', ceiling),
  row('**full audit** (crawl + all checks), 2,000 pages', audit),
  row('linkinator 8, 2,000 pages', linkinator),
  row('**full audit**, 20,000-page site', audit20k),
  '',
  `Audit / ceiling: **${((audit.pagesPerSecond / ceiling.pagesPerSecond) * 100).toFixed(0)}%** (target 60%). ` +
    `Audit / linkinator: **${(audit.pagesPerSecond / linkinator.pagesPerSecond).toFixed(1)}x** (target: faster). ` +
    `Peak RSS of the 20,000-page audit: **${audit20k.peakRssMb.toFixed(0)} MB** (target under 300 MB).`,
].join('\n');
console.log(`\n${table}\n`);

writeSection('crawl', 'Crawl: `npm run bench:crawl`', table);
