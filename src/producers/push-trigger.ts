// The push webhook's effect: polls, at once, every mapping whose repository and branch the push
// names. A deleted branch triggers nothing.
import type { Queue } from 'bullmq';
import type { MappingConfig } from '../config/mapping-schema.js';
import { matchesRepository } from '../http/hooks/matches-repository.js';
import type { PushEvent } from '../http/hooks/parse-push-event.js';
import { pollNow } from './git-poll-schedulers.js';

export function pushTrigger(queue: Queue, mappings: readonly MappingConfig[]) {
  return async (push: PushEvent): Promise<number> => {
    if (push.deleted === true) return 0;
    const matched = mappings.filter(
      (mapping) =>
        mapping.direction !== 'space-to-git' &&
        push.ref === `refs/heads/${mapping.git.branch}` &&
        matchesRepository(mapping.git.repo, push.repository.urls),
    );
    for (const mapping of matched) await pollNow(queue, mapping.name, `push-${push.after}`);
    return matched.length;
  };
}
