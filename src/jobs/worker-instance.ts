import { hostname } from 'node:os';

/** This process among the service's workers (host and pid): in every job's log lines and in the task history it writes. */
export const WORKER_INSTANCE = `${hostname()}:${process.pid}`;

/** The actor a task's history names for what the executor did here: "worker:executor@host:pid". */
export const EXECUTOR_ACTOR = `worker:executor@${WORKER_INSTANCE}`;
