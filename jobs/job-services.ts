// The services docsync's jobs use, built once per process by the daemon
// (src/daemon/create-job-services.ts). Each job names the ones it needs (jobs/define-job.ts) and is
// handed only those: its type says what it may touch, and so does the object it gets.
import type { DocsApiClient } from '../src/api/docs-api-client.js';
import type { BundleStore } from '../src/artifacts/bundle-store.js';
import type { Config } from '../src/config/config-schema.js';
import type { GitMirror } from '../src/git/git-mirror.js';
import type { DocsyncMetrics } from '../src/metrics/docsync-metrics.js';
import type { Notify } from '../src/notify/queue-notification.js';
import type { Queues } from '../src/queue/queues.js';
import type { Stores } from '../src/state/stores.js';

export interface JobServices {
  config: Config;
  queues: Queues;
  now: () => Date;
  /** The documentation service; undefined when the configuration names none (no mapping, no spec). */
  api: DocsApiClient | undefined;
  /** What docsync remembers between jobs, built once per process (Redis, or memory without it). */
  stores: Stores;
  mirrorFor: (repo: string) => GitMirror;
  artifacts: BundleStore | undefined;
  /** Plan and log every step, change nothing. */
  dryRun: boolean;
  /** The process's metrics, which /metrics serves. */
  metrics: DocsyncMetrics;
  /** Tells the webhooks of `notify:` (src/notify/); undefined when none is configured. Never throws. */
  notify: Notify | undefined;
}

export type ServiceName = keyof JobServices;

/** The services a job named: the type of what it is handed. */
export type ServicesOf<N extends readonly ServiceName[]> = Pick<JobServices, N[number]>;

/** Exactly the services named, from the process's: what the runner hands a job. */
export function pickServices(services: JobServices, needs: readonly string[]): Partial<JobServices> {
  const picked: Partial<Record<ServiceName, unknown>> = {};
  for (const name of needs) {
    if (!(name in services))
      throw new Error(`a job needs ${name}, which is not a service of jobs/job-services.ts`);
    picked[name as ServiceName] = services[name as ServiceName];
  }
  return picked as Partial<JobServices>;
}
