// `npm test`: the whole suite on the embedded database, then, when TEST_DATABASE_URL names a PostgreSQL server, again
// on it: every file that opens a test database (test/helpers: startTestApp, createTestDatabase) or reads which one
// runs. Files that never touch the test database (parsers, the crawler, drafting, the server process on its own
// embedded data directory) give the same results on either run, and the browser suites (test/e2e) test the web app
// over an API whose database behaviour the other files test on both: they run once, on the embedded run, which keeps
// CI well under its 30 minutes. Fails if either run fails, or if a file reported a different number of tests on the
// two runs (a result went missing).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const DEFAULT_FILES = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/** What a file that depends on the test database says. */
const USES_TEST_DATABASE = /\b(startTestApp|createTestDatabase|testDatabaseKind|TEST_DB|TEST_DATABASE_URL)\b/;
const BROWSER_SUITES = /^test\/e2e\//;
/** A run that has not ended by then has a handle left open: it fails, loudly, instead of hanging CI. */
const RUN_TIMEOUT_MS = 18 * 60_000;

const requested = process.argv.slice(2);
const files = [...new Set(fs.globSync(requested.length > 0 ? requested : DEFAULT_FILES).map((f) => path.relative('.', f)))].sort();
const onBoth = files.filter((f) => !BROWSER_SUITES.test(f) && USES_TEST_DATABASE.test(fs.readFileSync(f, 'utf8')));
const counts = fs.mkdtempSync(path.join(os.tmpdir(), 'test-counts-'));
/** The embedded run's files that opened a test database (test/helpers/database.ts writes them here). */
const databaseUsers = path.join(counts, 'database-users.txt');

// No --test-force-exit: it drops results children already reported (nodejs/node#64833), and
// the count printed at the end was lower than the tests that ran (438 of 457, exit 0).
const args = (countsFile: string, runFiles: string[]) => [
  '--test',
  '--test-concurrency=2',
  '--test-timeout=120000',
  '--test-global-setup=test/helpers/global-setup.ts',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/test-counts-reporter.ts', `--test-reporter-destination=${countsFile}`,
  ...runFiles,
];

const runs = [{ name: 'embedded (PGlite)', env: { TEST_DB: 'embedded', TEST_DATABASE_USERS_FILE: databaseUsers } as Record<string, string>, files }];
if (process.env.TEST_DATABASE_URL) {
  runs.push({ name: `PostgreSQL server (the ${onBoth.length} of ${files.length} files that use the test database)`, env: { TEST_DB: 'postgres' }, files: onBoth });
} else console.log('TEST_DATABASE_URL is not set: running on the embedded database only.');

let failed = false;
const reported: Array<Record<string, number>> = [];
for (const [i, run] of runs.entries()) {
  if (run.files.length === 0) continue;
  console.log(`\n=== Test suite on ${run.name} ===`);
  const countsFile = path.join(counts, `${i}.json`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args(countsFile, run.files), { stdio: 'inherit', env: { ...process.env, ...run.env }, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' });
  const perFile = fs.existsSync(countsFile) ? (JSON.parse(fs.readFileSync(countsFile, 'utf8') || '{}') as Record<string, number>) : {};
  reported.push(Object.fromEntries(Object.entries(perFile).map(([f, n]) => [path.relative('.', f), n])));
  const total = Object.values(perFile).reduce((a, b) => a + b, 0);
  console.log(`=== ${run.name}: ${total} tests in ${Math.round((Date.now() - started) / 1000)} s ===`);
  if (result.status !== 0) {
    failed = true;
    console.error(`=== Test suite on ${run.name} FAILED${result.error ? ` (${result.error.message})` : ''} ===`);
  }
}
const unlisted = [...new Set((fs.existsSync(databaseUsers) ? fs.readFileSync(databaseUsers, 'utf8') : '').split('\n').filter(Boolean))]
  .filter((f) => !onBoth.includes(f) && !BROWSER_SUITES.test(f));
if (unlisted.length > 0) {
  failed = true;
  console.error(`=== These files open a test database without saying so (${USES_TEST_DATABASE}), so the PostgreSQL run would skip them: ${unlisted.join(', ')} ===`);
}
if (reported.length > 1) {
  const [embedded, server] = reported as [Record<string, number>, Record<string, number>];
  const differ = onBoth.filter((f) => (embedded[f] ?? 0) !== (server[f] ?? 0));
  if (differ.length > 0) {
    failed = true;
    console.error(`=== These files reported different numbers of tests on the two databases (results went missing): ${differ.map((f) => `${f} (${embedded[f] ?? 0} and ${server[f] ?? 0})`).join(', ')} ===`);
  }
}
fs.rmSync(counts, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
