import type { Redis } from 'ioredis';
import { LruMap } from 'toad-cache';

/**
 * Counts consecutive failed logins per (account, client IP). A success resets the count.
 * Keyed by both so that an attacker elsewhere cannot lock a victim out of their account;
 * the per-IP request limit (auth.routes.ts) bounds how fast one address can guess.
 */
export interface FailureCounter {
  /** Failures so far in the current window and the seconds until it ends. */
  read(key: string): Promise<{ failures: number; retryAfterSeconds: number }>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function memoryFailureCounter(windowMs: number, maxKeys = 100_000): FailureCounter {
  const entries = new LruMap<{ failures: number; until: number }>(maxKeys);
  const live = (key: string) => {
    const entry = entries.get(key);
    return entry && entry.until > Date.now() ? entry : undefined;
  };
  return {
    async read(key) {
      const entry = live(key);
      return entry
        ? { failures: entry.failures, retryAfterSeconds: Math.ceil((entry.until - Date.now()) / 1000) }
        : { failures: 0, retryAfterSeconds: 0 };
    },
    async recordFailure(key) {
      const entry = live(key);
      if (entry) entry.failures += 1;
      else entries.set(key, { failures: 1, until: Date.now() + windowMs });
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

export function redisFailureCounter(redis: Redis, windowMs: number): FailureCounter {
  const prefix = 'sos:login-failures:';
  return {
    async read(key) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      const failures = Number(count ?? 0);
      return { failures, retryAfterSeconds: failures > 0 && ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
    },
    async recordFailure(key) {
      // The window starts at the first failure and is not extended by later ones.
      const results = await redis.multi().incr(prefix + key).pexpire(prefix + key, windowMs, 'NX').exec();
      if (!results || results.some(([err]) => err)) throw new Error('could not record a failed login in Redis');
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
