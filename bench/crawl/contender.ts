// One measured crawler, in a process of its own so its peak RSS is its own.
// Prints { pages, seconds, pagesPerSecond, peakRssMb }.
import { Agent, request } from 'undici';
import { createAuditor } from '../../src/modules/checks/run-checks.ts';
import { crawlSite } from '../../src/modules/crawler/crawl.ts';

const [kind, host, count, concurrency] = process.argv.slice(2) as [string, string, string, string];
const pages = Number(count);
const parallel = Number(concurrency);
// Timed from the first request: Node's start-up and module loading are not the crawl.
let started = performance.now();
let cpuAtStart = process.cpuUsage();
let fetched = 0;

if (kind === 'ceiling') {
  // The same URLs, the same number of connections, bodies read in full; nothing else.
  const agent = new Agent({ connections: parallel });
  const urls = Array.from({ length: pages }, (_, i) => `http://${host}${i === 0 ? '/' : `/p/${i}`}`);
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let url = urls.shift(); url; url = urls.shift()) {
        const response = await request(url, { dispatcher: agent });
        await response.body.text();
        fetched += 1;
      }
    }),
  );
  await agent.close();
} else if (kind === 'audit') {
  // Exactly what the audit job does: checks stream with the crawl.
  const auditor = createAuditor();
  const crawl = await crawlSite({ domain: host, maxPages: pages, allowPrivate: true, concurrency: parallel, onPage: auditor.onPage });
  const result = auditor.finish(crawl);
  fetched = crawl.pages.length;
  if (result.score < 0) throw new Error('unreachable: keeps the checks from being optimised away');
} else if (kind === 'linkinator') {
  const { check } = await import('linkinator');
  started = performance.now();
  cpuAtStart = process.cpuUsage();
  const result = await check({ path: `http://${host}/`, recurse: true, concurrency: parallel, timeout: 30_000 });
  fetched = new Set(result.links.filter((l) => l.url.includes('/p/') || l.url.endsWith(`${host}/`)).map((l) => l.url)).size;
} else {
  throw new Error(`unknown contender ${kind}`);
}

const seconds = (performance.now() - started) / 1000;
// CPU time too: on a machine others share, it moves less than the clock.
const cpu = process.cpuUsage(cpuAtStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({ pages: fetched, seconds, pagesPerSecond: fetched / seconds, cpuSeconds, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
