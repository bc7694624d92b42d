// The load generator, run as its own process (pinned to its own core by run.ts).
// Requests rotate over many (token, path) pairs, as traffic from many users would.
// autocannon's percentiles are whole milliseconds, so each response time (a float in
// ms) is also recorded here in microseconds.
import fs from 'node:fs';
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';

const [baseUrl, workloadFile, seconds, connections] = process.argv.slice(2) as [string, string, string, string];
const workload = JSON.parse(fs.readFileSync(workloadFile, 'utf8')) as Array<{ token: string; path: string }>;
const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: 3 });

let next = 0;
const run = (duration: number, record: boolean) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: Number(connections),
        duration,
        requests: [
          {
            setupRequest: (request) => {
              const item = workload[next++ % workload.length]!;
              return { ...request, path: item.path, headers: { ...request.headers, authorization: `Bearer ${item.token}` } };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (record) instance.on('response', (_client, _status, _bytes, ms: number) => histogram.recordValue(Math.round(ms * 1000)));
  });

await run(2, false); // warm-up: JIT, connection pools, caches
const result = await run(Number(seconds), true);
console.log(
  JSON.stringify({
    requests_per_second: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50_us: histogram.getValueAtPercentile(50),
    p99_us: histogram.getValueAtPercentile(99),
  }),
);
