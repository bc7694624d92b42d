import type { Logger } from 'pino';
import type { HousekeepingRepo } from './housekeeping.repo.ts';

/**
 * The daily housekeeping job: deletes the rows of tables that only grow once they are past
 * use (housekeeping.repo.ts says how long each is kept). Each table is its own statement, so
 * one that fails does not keep the others; the job fails after trying them all, and pg-boss retries it.
 */
export function createHousekeeping(deps: { repo: HousekeepingRepo; log: Pick<Logger, 'info' | 'error'> }) {
  return async function run(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    let failed: unknown;
    for (const [table, sweep] of Object.entries(deps.repo)) {
      try {
        deleted[table] = await sweep();
      } catch (error) {
        deps.log.error({ err: error, table }, 'housekeeping: delete failed');
        failed ??= error;
      }
    }
    deps.log.info({ deleted }, 'housekeeping done');
    if (failed) throw failed;
    return deleted;
  };
}
