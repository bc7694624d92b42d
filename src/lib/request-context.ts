import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work runs for (its id: the X-Request-Id a client sent, or Fastify's), kept across its async
 * calls: the job queue stamps it on the jobs a request sends, and each job's log lines carry it, so one id follows a
 * request into the workers that carry its consequences out.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export const runInRequest = <T>(requestId: string, fn: () => T): T => storage.run({ requestId }, fn);
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
