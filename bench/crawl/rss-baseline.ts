import '../../src/modules/checks/run-checks.ts';
import '../../src/modules/crawler/crawl.ts';
const m = process.memoryUsage();
console.log(JSON.stringify({ rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, heapTotalMb: m.heapTotal / 2 ** 20 }));
