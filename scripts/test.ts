// `npm test`: the whole suite on the embedded database, then again on the PostgreSQL
// server named by TEST_DATABASE_URL when it is set. Fails if either run fails.
import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
const args = [
  '--test',
  '--test-force-exit',
  '--test-concurrency=2',
  '--test-timeout=120000',
  '--test-global-setup=test/helpers/global-setup.ts',
  ...(files.length > 0 ? files : ['src/**/*.test.ts', 'test/**/*.test.ts']),
];

const runs: Array<{ name: string; env: Record<string, string> }> = [{ name: 'embedded (PGlite)', env: { TEST_DB: 'embedded' } }];
if (process.env.TEST_DATABASE_URL) runs.push({ name: 'PostgreSQL server', env: { TEST_DB: 'postgres' } });
else console.log('TEST_DATABASE_URL is not set: running on the embedded database only.');

let failed = false;
for (const run of runs) {
  console.log(`\n=== Test suite on ${run.name} ===`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...run.env } });
  if (result.status !== 0) {
    failed = true;
    console.error(`=== Test suite on ${run.name} FAILED ===`);
  }
}
process.exit(failed ? 1 : 0);
