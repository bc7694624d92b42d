// A node:test reporter that writes, as JSON, how many tests each file reported (suites not counted, skipped ones
// counted): scripts/test.ts compares the two databases' runs file by file, so a result lost in one names its file.
import type { TestEvent } from 'node:test/reporters';

export default async function* testCounts(source: AsyncIterable<TestEvent>) {
  const perFile: Record<string, number> = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, details } = event.data as { file?: string; details: { type?: string } };
    if (!file || details.type === 'suite') continue;
    perFile[file] = (perFile[file] ?? 0) + 1;
  }
  yield `${JSON.stringify(perFile, null, 1)}\n`;
}
