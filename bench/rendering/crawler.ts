// One crawl for bench:rendering, in a process of its own: `node bench/rendering/crawler.ts <host> <pages> <mode> <chromium>`.
// Prints a JSON line: pages, rendered, seconds, pages/s, render p50/p95, Chromium's and this process's peak memory.
import { crawlSite } from '../../src/modules/crawler/crawl.ts';
import type { RenderingMode } from '../../src/modules/crawler/render-rules.ts';

const [host, pages, mode, chromium] = process.argv.slice(2) as [string, string, RenderingMode, string];
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
const started = performance.now();
const result = await crawlSite({
  domain: host, maxPages: Number(pages), allowPrivate: { hosts: [host] },
  rendering: { mode, chromiumPath: chromium, concurrency: 2 },
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const times = result.pages.flatMap((p) => (p.rendering ? [p.rendering.ms] : [])).sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
const crawled = result.pages.filter((p) => p.status === 200).length;
console.log(JSON.stringify({
  pages: crawled, rendered: result.rendering?.rendered ?? 0, seconds: Math.round(seconds * 10) / 10, pagesPerSecond: crawled / seconds,
  renderP50: at(0.5), renderP95: at(0.95), chromiumPeakMb: Math.round((result.rendering?.peak_memory_bytes ?? 0) / 1024 / 1024), nodePeakRssMb: Math.round(peakRss / 1024 / 1024),
}));
