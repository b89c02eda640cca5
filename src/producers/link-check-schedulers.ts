// One BullMQ job scheduler per mapping with a `links` schedule checks the links of the space's
// live content (`links-schedule/<mapping>`). Schedulers of mappings no longer scheduled are
// removed at start.
import type { Queue } from 'bullmq';
import { checkLinksKind, LATEST_REVISION } from '../../jobs/check-links/check-links-kind.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { toSchedule } from '../config/schedule-schema.js';
import type { Logger } from '../log/create-logger.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

/** The id prefix of these schedulers, older than the kind handles: kept so existing ones are found. */
const LINK_CHECK_SCHEDULER = 'links-schedule';

/** Takes the `links` queue. */
export function syncLinkCheckSchedulers(
  queue: Queue,
  mappings: readonly Pick<MappingConfig, 'name' | 'space' | 'links'>[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(
    queue,
    checkLinksKind,
    mappings.flatMap((mapping) => {
      const repeat = toSchedule(mapping.links);
      return repeat === undefined
        ? []
        : [{ key: mapping.name, repeat, payload: { space: mapping.space, revision: LATEST_REVISION } }];
    }),
    log,
    { prefix: LINK_CHECK_SCHEDULER },
  );
}
