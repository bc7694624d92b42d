// `npm test`: the whole suite on the embedded database, then again on the PostgreSQL
// server named by TEST_DATABASE_URL when it is set. Fails if either run fails, or if the
// two runs report different numbers of tests (the same files ran: a result went missing).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const files = process.argv.slice(2);
/** A run that has not ended by then has a handle left open: it fails, loudly, instead of hanging CI. */
const RUN_TIMEOUT_MS = 15 * 60_000;
const counts = fs.mkdtempSync(path.join(os.tmpdir(), 'test-counts-'));

// No --test-force-exit: it drops results children already reported (nodejs/node#64833), and
// the count printed at the end was lower than the tests that ran (438 of 457, exit 0).
const args = (tap: string) => [
  '--test',
  '--test-concurrency=2',
  '--test-timeout=120000',
  '--test-global-setup=test/helpers/global-setup.ts',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`,
  ...(files.length > 0 ? files : ['src/**/*.test.ts', 'test/**/*.test.ts']),
];

const runs: Array<{ name: string; env: Record<string, string> }> = [{ name: 'embedded (PGlite)', env: { TEST_DB: 'embedded' } }];
if (process.env.TEST_DATABASE_URL) runs.push({ name: 'PostgreSQL server', env: { TEST_DB: 'postgres' } });
else console.log('TEST_DATABASE_URL is not set: running on the embedded database only.');

let failed = false;
const reported: number[] = [];
for (const [i, run] of runs.entries()) {
  console.log(`\n=== Test suite on ${run.name} ===`);
  const tap = path.join(counts, `${i}.tap`);
  const result = spawnSync(process.execPath, args(tap), { stdio: 'inherit', env: { ...process.env, ...run.env }, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' });
  const tests = Number(/^# tests (\d+)$/m.exec(fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '')?.[1] ?? NaN);
  reported.push(tests);
  if (result.status !== 0) {
    failed = true;
    console.error(`=== Test suite on ${run.name} FAILED${result.error ? ` (${result.error.message})` : ''} ===`);
  }
}
if (reported.length > 1 && new Set(reported).size > 1) {
  failed = true;
  console.error(`=== The runs reported different numbers of tests (${reported.join(' and ')}): results went missing ===`);
}
fs.rmSync(counts, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
