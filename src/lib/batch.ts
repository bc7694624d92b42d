import DataLoader from 'dataloader';

/**
 * Coalesces the reads that concurrent requests make in one event-loop turn into a single
 * query. Under load most of a read's cost is the database round trip (the socket write
 * and the server's wake-up), so N requests sharing one round trip is most of the win.
 * Nothing is cached: every call still reads the database, only in company.
 * The batch runs on setImmediate, after all the sockets that were readable this turn have
 * been handled; DataLoader's default (the next tick) would dispatch after each request.
 */
export function batched<K, V>(load: (keys: readonly K[]) => Promise<V[]>, maxBatchSize = 256): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>((keys) => load(keys), {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (callback) => setImmediate(callback),
  });
  return (key) => loader.load(key);
}
