import { ensurePGliteSnapshot, testDatabaseKind } from './database.ts';

// Built once before the test files start, so they do not race to build it.
export async function globalSetup() {
  if (testDatabaseKind() === 'embedded') await ensurePGliteSnapshot();
}
