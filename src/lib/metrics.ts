import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the queue reports per queue (pg-boss's getQueues, as of its last monitor pass). */
export interface QueueStat { name: string; queuedCount: number; activeCount: number; failedCount: number; readyOldestSeconds: number | null }

export interface MetricsSources {
  /** Jobs waiting, running and failed, and the oldest ready job's age, per queue. */
  queues?: () => Promise<QueueStat[]>;
  /** The database pool's use (PostgreSQL). */
  pool?: (() => { max: number; total: number; idle: number; waiting: number }) | undefined;
  /** This process's role: `api` or `worker` (a label on every series). */
  role: string;
  /**
   * Whether they are served (METRICS_PORT). Node's own (an event-loop delay monitor, GC observers) run only then: a
   * process that serves no metrics does not sample them. The service's own counters are plain increments either way.
   */
  served: boolean;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_SECONDS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

/**
 * The service's Prometheus metrics (prom-client), one registry per process (a test's second app has its own): HTTP
 * requests by route template, jobs by queue and outcome, queue depth and the oldest job's age, audits and the pages they
 * crawl, the agent's proposals and refusals, connector calls, the database pool, and Node's own (event-loop lag,
 * memory, GC) from collectDefaultMetrics. README "Metrics" documents each; docs/alerts.md has example alert rules.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  registry.setDefaultLabels({ role: sources.role });
  if (sources.served) collectDefaultMetrics({ register: registry, prefix: 'sos_', eventLoopMonitoringPrecision: 20 });

  const http = new Histogram({
    name: 'sos_http_request_duration_seconds', help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const, buckets: SECONDS, registers: [registry],
  });
  const jobs = new Histogram({
    name: 'sos_job_duration_seconds', help: 'Jobs run by this process, by queue and outcome (completed, failed, invalid)',
    labelNames: ['queue', 'outcome'] as const, buckets: JOB_SECONDS, registers: [registry],
  });
  const audits = new Histogram({
    name: 'sos_audit_duration_seconds', help: 'Audits run by this process, by outcome (completed, failed)',
    labelNames: ['outcome'] as const, buckets: [1, 5, 15, 60, 300, 900, 3600, 7200], registers: [registry],
  });
  const pages = new Counter({ name: 'sos_crawl_pages_total', help: 'Pages the audits of this process crawled (rate: pages per second)', registers: [registry] });
  const proposals = new Counter({
    name: 'sos_agent_proposals_total', help: 'What the strategy agent did with each candidate: proposed or refused',
    labelNames: ['result'] as const, registers: [registry],
  });
  const agentRuns = new Histogram({
    name: 'sos_agent_duration_seconds', help: 'Strategy agent runs, by outcome', labelNames: ['outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900], registers: [registry],
  });
  const connectorCalls = new Counter({
    name: 'sos_connector_calls_total', help: 'Task executions through a site connector, by connector type and outcome',
    labelNames: ['connector', 'outcome'] as const, registers: [registry],
  });

  const queueGauge = (name: string, help: string, pick: (q: QueueStat) => number | null) => new Gauge({
    name, help, labelNames: ['queue'] as const, registers: [registry],
    // Read at scrape time: one query for the three gauges' worth is cheap, and nothing is kept between scrapes.
    async collect() {
      this.reset();
      for (const q of (await sources.queues?.()) ?? []) {
        const value = pick(q);
        if (value !== null) this.set({ queue: q.name }, value);
      }
    },
  });
  if (sources.queues) {
    queueGauge('sos_queue_jobs_waiting', 'Jobs queued (ready or deferred) per queue', (q) => q.queuedCount);
    queueGauge('sos_queue_jobs_active', 'Jobs running per queue', (q) => q.activeCount);
    queueGauge('sos_queue_oldest_ready_seconds', 'How long the oldest job ready to run has waited, per queue (as of the queue\'s last monitor pass, every 5 s)', (q) => q.readyOldestSeconds);
  }
  const pool = sources.pool;
  if (pool) {
    new Gauge({
      name: 'sos_db_pool_connections', help: 'The database pool: its size, connections open, idle, and clients waiting for one',
      labelNames: ['state'] as const, registers: [registry],
      collect() {
        const use = pool();
        for (const [state, value] of Object.entries(use)) this.set({ state }, value);
      },
    });
  }

  return {
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    request: (method: string, route: string, statusCode: number, seconds: number) => http.observe({ method, route, status_code: String(statusCode) }, seconds),
    job: (queue: string, outcome: 'completed' | 'failed' | 'invalid', seconds: number) => jobs.observe({ queue, outcome }, seconds),
    audit: (outcome: 'completed' | 'failed', seconds: number, crawled: number) => {
      audits.observe({ outcome }, seconds);
      pages.inc(crawled);
    },
    agent: (outcome: 'finished' | 'failed', seconds: number, result: { proposed: number; refused: number }) => {
      agentRuns.observe({ outcome }, seconds);
      proposals.inc({ result: 'proposed' }, result.proposed);
      proposals.inc({ result: 'refused' }, result.refused);
    },
    connector: (connector: string, outcome: 'completed' | 'failed') => connectorCalls.inc({ connector, outcome }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
