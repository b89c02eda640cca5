// One BullMQ job scheduler per configured OpenAPI spec (`refresh-openapi/<org>/<slug>`), so that
// however many docsync processes share the Redis, each tick refreshes each spec once. Schedulers of
// specs no longer configured are removed at start.
import type { Queue } from 'bullmq';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { toSchedule } from '../config/schedule-schema.js';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

const KIND = 'refresh-openapi';

/** Takes the `openapi` queue. */
export function syncOpenApiSchedulers(
  queue: Queue,
  specs: readonly OpenApiConfig[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(
    queue,
    KIND,
    specs.flatMap((spec) => {
      const repeat = toSchedule(spec);
      return repeat === undefined
        ? []
        : [
            {
              key: `${spec.org}/${spec.slug}`,
              repeat,
              data: { org: spec.org, slug: spec.slug, trigger: 'schedule' },
            },
          ];
    }),
    log,
  );
}

/** Refreshes a spec now, outside its schedule: once per `reason` (a blob id, a request id). */
export async function refreshOpenApiNow(
  queue: Queue,
  spec: Pick<OpenApiConfig, 'org' | 'slug'>,
  trigger: 'git' | 'now',
  reason: string,
): Promise<void> {
  await queue.add(
    KIND,
    { org: spec.org, slug: spec.slug, trigger },
    { jobId: jobId(KIND, spec.org, spec.slug, trigger, reason), removeOnComplete: true, removeOnFail: 100 },
  );
}
