// docsync's Prometheus metrics: one registry per daemon (never prom-client's global one, so that
// several daemons in one test process stay apart), typed recorders for the moments worth counting,
// and gauges read from Redis at scrape time, so that they are right however many processes share it.
// Every label is bounded by the code or the configuration: no path, id or secret ever becomes one.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiAttemptEvent, ApiRetryEvent } from '../api/http-transport.js';
import type { BudgetWaitEvent } from '../api/service-budget.js';
import type { RefreshResult } from '../openapi/refresh-openapi-spec.js';
import type { QueueName } from '../queue/queue-names.js';
import type { HealthState } from '../status/health-state.js';

/** What became of one run of a job, as the runner saw it. */
export type JobOutcome = 'completed' | 'retrying' | 'failed' | 'delayed' | 'rate-limited';

/** How one refresh of an OpenAPI spec ended: its result, or why it threw. */
export type OpenApiRefreshOutcome = RefreshResult['result'] | 'invalid' | 'failed';

/** What one look for the marker of the job schedulers found and did (redis-loss-watch.ts). */
export type RedisLossCheck = 'present' | 'restored' | 'restoring-elsewhere' | 'failed';

/** Who waited out a rate limit: the API client inside one call, or a whole queue (paused). */
export type RateLimitWaiter = 'client' | 'queue';

/** The last link check of one target of a mapping: `main` (the space) or `change-request` (the kept one). */
export interface BrokenLinkCount {
  mapping: string;
  target: 'main' | 'change-request';
  count: number;
}

/** How many mappings, and specs, are in each health state (src/status/health-state.ts). */
export interface HealthCounts {
  mappings: Readonly<Record<HealthState, number>>;
  openapi: Readonly<Record<HealthState, number>>;
}

/** Reads done at scrape time, from the state every process shares. */
export interface MetricsReaders {
  /** Jobs by state, by queue: what `Queues.counts()` answers. */
  queueCounts?: () => Promise<Readonly<Record<string, Readonly<Record<string, number>>>>>;
  brokenLinks?: () => Promise<readonly BrokenLinkCount[]>;
  /** Mappings and specs by health state: src/metrics/read-health-counts.ts. */
  health?: () => Promise<HealthCounts>;
  /** The budget of service.rateLimit every process shares: src/status/service-budget-status.ts. */
  serviceBudget?: () => Promise<{ requests: number; taken: number }>;
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

  readonly #jobs = this.#counter(
    'jobs_total',
    'Job runs by queue, job name and outcome (completed, retrying, failed, delayed, rate-limited).',
    ['queue', 'name', 'result'],
  );

  readonly #jobSeconds = this.#histogram(
    'job_duration_seconds',
    'Duration of job runs by queue, job name and outcome.',
    ['queue', 'name', 'result'],
    METRIC_BUCKETS.jobSeconds,
  );

  readonly #apiRequests = this.#counter(
    'api_requests_total',
    'Attempts of requests to the documentation service by method, route template and status (0: no answer).',
    ['method', 'route', 'status'],
  );

  readonly #apiSeconds = this.#histogram(
    'api_request_duration_seconds',
    'Duration of attempts of requests to the documentation service by method and route template.',
    ['method', 'route'],
    METRIC_BUCKETS.apiSeconds,
  );

  readonly #apiRetries = this.#counter(
    'api_retries_total',
    'Requests to the documentation service sent again by the client, by method, route template and status of the failed attempt.',
    ['method', 'route', 'status'],
  );

  readonly #rateLimitWaits = this.#counter(
    'rate_limit_waits_total',
    'Waits for the service rate limit (429): by the API client within a call, or by a paused queue.',
    ['waiter'],
  );

  readonly #rateLimitSeconds = this.#counter(
    'rate_limit_wait_seconds_total',
    'Seconds waited for the service rate limit (429), by the API client or by a paused queue.',
    ['waiter'],
  );

  readonly #changeRequestPolls = this.#counter(
    'change_request_polls_total',
    "Change request polls of each mapping by result (polled, failed), alone or in a batch job (a batch completes when some of its mappings' polls fail).",
    ['mapping', 'result'],
  );

  readonly #syncLag = this.#histogram(
    'sync_lag_seconds',
    'Seconds from the commit time of the newest imported commit to the end of its import, by mapping.',
    ['mapping'],
    METRIC_BUCKETS.syncLagSeconds,
  );

  readonly #openApiVersions = this.#counter(
    'openapi_versions_total',
    'New versions of OpenAPI specs uploaded, by organization and slug.',
    ['org', 'slug'],
  );

  readonly #openApiRefreshes = this.#counter(
    'openapi_refreshes_total',
    'Refreshes of OpenAPI specs by organization, slug and result (uploaded, unchanged, no-new-version, would-upload, invalid, failed).',
    ['org', 'slug', 'result'],
  );

  readonly #redisLossChecks = this.#counter(
    'redis_loss_checks_total',
    'Looks of this process for the marker of the job schedulers, by result: present, restored (Redis had come back empty and this process put them back), restoring-elsewhere (another process was), failed (Redis did not answer).',
    ['result'],
  );

  readonly #budgetWaits = this.#counter(
    'service_budget_waits_total',
    "Requests of this process that waited for a token of the service's shared budget (service.rateLimit), by priority (high: writes, low: reads).",
    ['priority'],
  );

  readonly #budgetWaitSeconds = this.#counter(
    'service_budget_wait_seconds_total',
    "Seconds requests of this process waited for a token of the service's shared budget, by priority.",
    ['priority'],
  );

  constructor(options: DocsyncMetricsOptions = {}) {
    const { readers = {}, onReadError } = options;
    const { queueCounts, brokenLinks, health, serviceBudget } = readers;
    if (serviceBudget !== undefined)
      this.#scrapeGauge(
        'service_budget_requests',
        "The service's shared budget (service.rateLimit): requests taken by every process in the last window (used) and the limit, read from Redis when scraped.",
        ['kind'],
        onReadError,
        async () => {
          const { taken, requests } = await serviceBudget();
          return [
            [{ kind: 'used' }, taken],
            [{ kind: 'limit' }, requests],
          ] as const;
        },
      );
    if (queueCounts !== undefined)
      this.#scrapeGauge(
        'queue_jobs',
        'Jobs in each queue by state, read from Redis when scraped.',
        ['queue', 'state'],
        onReadError,
        async () =>
          Object.entries(await queueCounts()).flatMap(([queue, counts]) =>
            Object.entries(counts).map(([state, count]) => [{ queue, state }, count] as const),
          ),
      );
    if (brokenLinks !== undefined)
      this.#scrapeGauge(
        'broken_links',
        'Broken links found by the last link check of each target of a mapping (main, change-request), read from Redis when scraped.',
        ['mapping', 'target'],
        onReadError,
        async () =>
          (await brokenLinks()).map(({ mapping, target, count }) => [{ mapping, target }, count] as const),
      );
    if (health !== undefined) {
      // One read per scrape for both gauges.
      let reading: Promise<HealthCounts> | undefined;
      const counts = async (part: keyof HealthCounts) => {
        reading ??= health().finally(() => {
          reading = undefined;
        });
        return Object.entries((await reading)[part]).map(([state, count]) => [{ state }, count] as const);
      };
      this.#scrapeGauge(
        'mappings',
        'Mappings by health state (ok, degraded, failing, paused), read from Redis when scraped.',
        ['state'],
        onReadError,
        () => counts('mappings'),
      );
      this.#scrapeGauge(
        'openapi_specs',
        'OpenAPI specs by health state (ok, degraded, failing), read from Redis when scraped.',
        ['state'],
        onReadError,
        () => counts('openapi'),
      );
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

  /** A request that waited for a token of the shared budget, once it got it. */
  serviceBudgetWait(event: BudgetWaitEvent): void {
    this.#budgetWaits.inc({ priority: event.priority });
    this.#budgetWaitSeconds.inc({ priority: event.priority }, seconds(event.waitedMs));
  }

  /**
   * One mapping's change request poll ended: `failed` for a failure of its own (not a rate limit
   * nor a stop, which end the job), the failures /status counts in a row.
   */
  changeRequestPoll(mapping: string, result: 'polled' | 'failed'): void {
    this.#changeRequestPolls.inc({ mapping, result });
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

  /** One look for the marker of the job schedulers (src/producers/redis-loss-watch.ts). */
  redisLossCheck(result: RedisLossCheck): void {
    this.#redisLossChecks.inc({ result });
  }

  #counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] });
  }

  #histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ): Histogram<L> {
    return new Histogram({
      name: `${PREFIX}${name}`,
      help,
      labelNames,
      buckets: [...buckets],
      registers: [this.registry],
    });
  }

  /** A gauge of shared state, its samples replaced at each scrape by what `read` answers. */
  #scrapeGauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    onReadError: DocsyncMetricsOptions['onReadError'],
    read: () => Promise<ReadonlyArray<readonly [Partial<Record<L, string>>, number]>>,
  ): void {
    const gauge: Gauge<L> = new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames,
      registers: [this.registry],
      collect: () => refill(gauge, `${PREFIX}${name}`, onReadError, read),
    });
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
