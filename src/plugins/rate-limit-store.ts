import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface LibraryRedisStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
}

// The library's own Redis store (its Lua script, its TTL rules), used as it is: only how a child store names its keys differs.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as
  new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => LibraryRedisStore;

/** Every counter's key starts so: one Redis may serve other applications. */
export const RATE_LIMIT_NAMESPACE = 'sos:rate-limit:';

/**
 * Rate-limit counters in Redis named by their limiter's own key ("sos:rate-limit:login-ip:203.0.113.5"). The library names a
 * child store after its route's method and URL; a limiter made with createRateLimit (every limiter here) has no route, so
 * its keys read "sos:rate-limit:undefinedundefined-login-ip:..." (issue 24). A limiter on a route keeps the library's naming.
 */
export function namedRedisStore(redis: Redis) {
  class NamedRedisStore implements FastifyRateLimitStore {
    private readonly inner: LibraryRedisStore;
    private readonly prefix: string;
    constructor(options: RateLimitOptions, prefix = RATE_LIMIT_NAMESPACE) {
      this.prefix = prefix;
      this.inner = new RedisStore(options.continueExceeding ?? false, options.exponentialBackoff ?? false, redis, prefix);
    }
    incr(key: string, callback: Callback, timeWindow: number, max: number) {
      this.inner.incr(key, callback, timeWindow, max);
    }
    read(key: string, callback: Callback, timeWindow: number, max: number) {
      this.inner.read(key, callback, timeWindow, max);
    }
    // Typed as the library declares it (a route's options); what it passes is the limiter's merged options with `routeInfo`.
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const { routeInfo: route } = options as unknown as { routeInfo?: { method?: string; url?: string } };
      return new NamedRedisStore(options as RateLimitOptions, route?.method && route.url ? `${this.prefix}${route.method}${route.url}-` : this.prefix);
    }
  }
  return NamedRedisStore as unknown as FastifyRateLimitStoreCtor;
}
