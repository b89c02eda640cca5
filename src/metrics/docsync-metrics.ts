// docsync's Prometheus metrics: one registry per daemon (never prom-client's global one, so that
// several daemons in one test process stay apart), typed recorders for the moments worth counting,
// and gauges read from Redis at scrape time, so that they are right however many processes share it.
// Every label is bounded by the code or the configuration: no path, id or secret ever becomes one.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiAttemptEvent, ApiRetryEvent } from '../api/http-transport.js';
import type { RefreshResult } from '../openapi/refresh-openapi-spec.js';
import type { QueueName } from '../queue/queue-names.js';

/** What became of one run of a job, as the runner saw it. */
export type JobOutcome = 'completed' | 'retrying' | 'failed' | 'delayed' | 'rate-limited';

/** How one refresh of an OpenAPI spec ended: its result, or why it threw. */
export type OpenApiRefreshOutcome = RefreshResult['result'] | 'invalid' | 'failed';

/** Who waited out a rate limit: the API client inside one call, or a whole queue (paused). */
export type RateLimitWaiter = 'client' | 'queue';

/** The last link check of one target of a mapping: `main` (the space) or `change-request` (the kept one). */
export interface BrokenLinkCount {
  mapping: string;
  target: 'main' | 'change-request';
  count: number;
}

/** Reads done at scrape time, from the state every process shares. */
export interface MetricsReaders {
  /** Jobs by state, by queue: what `Queues.counts()` answers. */
  queueCounts?: () => Promise<Readonly<Record<string, Readonly<Record<string, number>>>>>;
  brokenLinks?: () => Promise<readonly BrokenLinkCount[]>;
}

export interface DocsyncMetricsOptions {
  /** Node's process metrics (CPU, memory, event loop, GC): only the daemon asks, once per process. */
  processMetrics?: boolean;
  readers?: MetricsReaders;
  /** Told when a scrape-time read fails; the scrape still answers, without that gauge. */
  onReadError?: (metric: string, error: unknown) => void;
}

const PREFIX = 'docsync_';

/** Bucket bounds, in seconds. */
export const METRIC_BUCKETS = {
  // From a poll that finds nothing (tens of ms) to the import or export of a big space (minutes).
  jobSeconds: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  apiSeconds: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  // A push webhook brings seconds; a poll, minutes; a paused mapping or a down service, hours.
  syncLagSeconds: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 3 * 3600, 12 * 3600, 24 * 3600],
} as const;

export class DocsyncMetrics {
  readonly registry = new Registry();

  readonly #jobs = new Counter({
    name: `${PREFIX}jobs_total`,
    help: 'Job runs by queue, job name and outcome (completed, retrying, failed, delayed, rate-limited).',
    labelNames: ['queue', 'name', 'result'] as const,
    registers: [this.registry],
  });

  readonly #jobSeconds = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Duration of job runs by queue, job name and outcome.',
    labelNames: ['queue', 'name', 'result'] as const,
    buckets: [...METRIC_BUCKETS.jobSeconds],
    registers: [this.registry],
  });

  readonly #apiRequests = new Counter({
    name: `${PREFIX}api_requests_total`,
    help: 'Attempts of requests to the documentation service by method, route template and status (0: no answer).',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly #apiSeconds = new Histogram({
    name: `${PREFIX}api_request_duration_seconds`,
    help: 'Duration of attempts of requests to the documentation service by method and route template.',
    labelNames: ['method', 'route'] as const,
    buckets: [...METRIC_BUCKETS.apiSeconds],
    registers: [this.registry],
  });

  readonly #apiRetries = new Counter({
    name: `${PREFIX}api_retries_total`,
    help: 'Requests to the documentation service sent again by the client, by method, route template and status of the failed attempt.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly #rateLimitWaits = new Counter({
    name: `${PREFIX}rate_limit_waits_total`,
    help: 'Waits for the service rate limit (429): by the API client within a call, or by a paused queue.',
    labelNames: ['waiter'] as const,
    registers: [this.registry],
  });

  readonly #rateLimitSeconds = new Counter({
    name: `${PREFIX}rate_limit_wait_seconds_total`,
    help: 'Seconds waited for the service rate limit (429), by the API client or by a paused queue.',
    labelNames: ['waiter'] as const,
    registers: [this.registry],
  });

  readonly #syncLag = new Histogram({
    name: `${PREFIX}sync_lag_seconds`,
    help: 'Seconds from the commit time of the newest imported commit to the end of its import, by mapping.',
    labelNames: ['mapping'] as const,
    buckets: [...METRIC_BUCKETS.syncLagSeconds],
    registers: [this.registry],
  });

  readonly #openApiVersions = new Counter({
    name: `${PREFIX}openapi_versions_total`,
    help: 'New versions of OpenAPI specs uploaded, by organization and slug.',
    labelNames: ['org', 'slug'] as const,
    registers: [this.registry],
  });

  readonly #openApiRefreshes = new Counter({
    name: `${PREFIX}openapi_refreshes_total`,
    help: 'Refreshes of OpenAPI specs by organization, slug and result (uploaded, unchanged, no-new-version, would-upload, invalid, failed).',
    labelNames: ['org', 'slug', 'result'] as const,
    registers: [this.registry],
  });

  constructor(options: DocsyncMetricsOptions = {}) {
    const { readers = {}, onReadError } = options;
    const { queueCounts, brokenLinks } = readers;
    if (queueCounts !== undefined) {
      const name = `${PREFIX}queue_jobs`;
      const gauge: Gauge<'queue' | 'state'> = new Gauge({
        name,
        help: 'Jobs in each queue by state, read from Redis when scraped.',
        labelNames: ['queue', 'state'] as const,
        registers: [this.registry],
        collect: () =>
          refill(gauge, name, onReadError, async () =>
            Object.entries(await queueCounts()).flatMap(([queue, counts]) =>
              Object.entries(counts).map(([state, count]) => [{ queue, state }, count] as const),
            ),
          ),
      });
    }
    if (brokenLinks !== undefined) {
      const name = `${PREFIX}broken_links`;
      const gauge: Gauge<'mapping' | 'target'> = new Gauge({
        name,
        help: 'Broken links found by the last link check of each target of a mapping (main, change-request), read from Redis when scraped.',
        labelNames: ['mapping', 'target'] as const,
        registers: [this.registry],
        collect: () =>
          refill(gauge, name, onReadError, async () =>
            (await brokenLinks()).map(({ mapping, target, count }) => [{ mapping, target }, count] as const),
          ),
      });
    }
    if (options.processMetrics === true) collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** The Content-Type of `text()`: Prometheus text format 0.0.4. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus text format, the scrape-time gauges read first. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  jobFinished(queue: QueueName, name: string, result: JobOutcome, durationMs: number): void {
    const labels = { queue, name, result };
    this.#jobs.inc(labels);
    this.#jobSeconds.observe(labels, seconds(durationMs));
  }

  apiCall(event: Pick<ApiAttemptEvent, 'method' | 'route' | 'status' | 'durationMs'>): void {
    const { method, route } = event;
    this.#apiRequests.inc({ method, route, status: String(event.status) });
    this.#apiSeconds.observe({ method, route }, seconds(event.durationMs));
  }

  /** A retry planned by the API client; one after a 429 is also a rate-limit wait. */
  apiRetry(event: Pick<ApiRetryEvent, 'method' | 'route' | 'status' | 'delayMs'>): void {
    const { method, route } = event;
    this.#apiRetries.inc({ method, route, status: String(event.status) });
    if (event.status === 429) this.rateLimitWait('client', event.delayMs);
  }

  rateLimitWait(waiter: RateLimitWaiter, ms: number): void {
    this.#rateLimitWaits.inc({ waiter });
    this.#rateLimitSeconds.inc({ waiter }, seconds(ms));
  }

  /** A commit's content reached the service: `lagSeconds` after the commit was made. */
  syncLag(mapping: string, lagSeconds: number): void {
    // A committer's clock ahead of docsync's would give a negative lag: the content was in no hurry.
    this.#syncLag.observe({ mapping }, Math.max(0, lagSeconds));
  }

  openApiRefresh(org: string, slug: string, result: OpenApiRefreshOutcome): void {
    this.#openApiRefreshes.inc({ org, slug, result });
  }

  openApiVersion(org: string, slug: string): void {
    this.#openApiVersions.inc({ org, slug });
  }
}

function seconds(ms: number): number {
  return Math.max(0, ms) / 1000;
}

/**
 * Replaces a scrape-time gauge's samples with fresh ones. A failed read leaves it empty rather than
 * stale, and the rest of the scrape still answers.
 */
async function refill<L extends string>(
  gauge: Gauge<L>,
  name: string,
  onReadError: DocsyncMetricsOptions['onReadError'],
  read: () => Promise<ReadonlyArray<readonly [Partial<Record<L, string>>, number]>>,
): Promise<void> {
  try {
    const samples = await read();
    gauge.reset();
    for (const [labels, value] of samples) gauge.set(labels, value);
  } catch (error) {
    gauge.reset();
    onReadError?.(name, error);
  }
}
