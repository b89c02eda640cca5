// One BullMQ job scheduler per configured OpenAPI spec (`refresh-openapi/<org>/<slug>`), so that
// however many docsync processes share the Redis, each tick refreshes each spec once. Schedulers of
// specs no longer configured are removed at start.
import type { Queue } from 'bullmq';
import { refreshOpenApiKind } from '../../jobs/refresh-openapi/refresh-openapi-kind.js';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { toSchedule } from '../config/schedule-schema.js';
import type { Logger } from '../log/create-logger.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

/** Takes the `openapi` queue. */
export function syncOpenApiSchedulers(
  queue: Queue,
  specs: readonly OpenApiConfig[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(
    queue,
    refreshOpenApiKind,
    specs.flatMap((spec) => {
      const repeat = toSchedule(spec);
      return repeat === undefined
        ? []
        : [
            {
              key: `${spec.org}/${spec.slug}`,
              repeat,
              payload: { org: spec.org, slug: spec.slug, trigger: 'schedule' as const },
            },
          ];
    }),
    log,
  );
}
