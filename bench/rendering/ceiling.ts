// The plain-Chromium baseline for bench:rendering, in a process of its own: `node bench/rendering/ceiling.ts <host> <pages> <chromium>`.
// The same pages in Chromium with nothing of ours: no interception (so no address guard and Chromium's own cache),
// two reused pages, each page read once its content is there (an oracle wait no crawler has). Prints a JSON line.
import { chromium } from 'playwright-core';

const [host, count, executablePath] = process.argv.slice(2) as [string, string, string];
const pages = Number(count);
const browser = await chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
const slots = await Promise.all([0, 1].map(async () => (await browser.newContext()).newPage()));
let next = 0;
const started = performance.now();
await Promise.all(slots.map(async (page) => {
  for (let i = next++; i < pages; i = next++) {
    await page.goto(`http://${host}/p/${i}`, { waitUntil: 'load' });
    await page.waitForSelector('main');
    await page.content();
  }
}));
const seconds = (performance.now() - started) / 1000;
await browser.close();
console.log(JSON.stringify({ pages, rendered: pages, seconds: Math.round(seconds * 10) / 10, pagesPerSecond: pages / seconds, renderP50: 0, renderP95: 0, chromiumPeakMb: 0, nodePeakRssMb: 0 }));
