import type { FastifyBaseLogger } from 'fastify';
import type { AuthRepo } from './auth.repo.ts';

/**
 * Revoked token and session ids, held in memory so the per-request check costs a Set
 * lookup instead of a query. Each instance polls the table for rows newer than the last
 * one it saw; revocations made here take effect at once, those made by another instance
 * within one poll interval.
 */
export function createRevocationList(deps: { repo: AuthRepo; log: FastifyBaseLogger; pollMs?: number }) {
  const expiries = new Map<string, number>(); // id -> expiry (ms since epoch)
  let cursor = 0;
  let timer: NodeJS.Timeout | undefined;

  function remember(id: string, expiresAt: Date) {
    expiries.set(id, expiresAt.getTime());
  }

  async function sync() {
    const rows = await deps.repo.revocationsSince(cursor);
    for (const row of rows) {
      remember(row.token_id, row.expires_at);
      cursor = Math.max(cursor, row.seq);
    }
    const now = Date.now();
    for (const [id, expiresAt] of expiries) if (expiresAt <= now) expiries.delete(id);
  }

  return {
    isRevoked: (id: string) => expiries.has(id),
    remember,
    sync,

    async start() {
      await sync();
      timer = setInterval(() => {
        sync().catch((err: unknown) => deps.log.warn({ err }, 'could not refresh the token revocation list'));
      }, deps.pollMs ?? 1000);
      timer.unref();
    },

    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

export type RevocationList = ReturnType<typeof createRevocationList>;
