// The schedulers of the change request polls: one per mapping, as every poll has, until many
// mappings poll at the same interval. A job costs Redis round trips and CPU of its own, about what
// listing one space's change requests costs, so from BATCHED_FROM mappings at one interval they are
// polled in batches of at most BATCH_SIZE (jobs/poll-change-requests.ts polls a batch's mappings a
// few at once): a cycle of 1,000 spaces is 50 jobs, not 1,000, still spread over the processes.
// A batch's scheduler is named by its interval and place (`batch.<every>ms.<n>`: no mapping's name
// holds a '.' without an '@'), not by its mappings: a mapping added or removed changes the payloads of
// the batches after it, which keep their schedules, and only the last batch comes or goes.

import type { PollChangeRequestsPayload } from '../../jobs/poll-change-requests/poll-change-requests-kind.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { WantedScheduler } from './sync-job-schedulers.js';

/** Mappings at one interval from which their polls are batched. */
export const BATCHED_FROM = 20;
/** The most mappings one batch job polls. */
export const BATCH_SIZE = 20;

/** The schedulers the change request polls of `mappings` want, in the configuration's order. */
export function changeRequestPollSchedules(
  mappings: readonly MappingConfig[],
): WantedScheduler<PollChangeRequestsPayload>[] {
  const byInterval = new Map<number, MappingConfig[]>();
  for (const mapping of mappings) {
    const every = mapping.changeRequest.poll;
    byInterval.set(every, [...(byInterval.get(every) ?? []), mapping]);
  }
  const wanted: WantedScheduler<PollChangeRequestsPayload>[] = [];
  for (const [every, group] of byInterval) {
    if (group.length < BATCHED_FROM) {
      for (const mapping of group)
        wanted.push({ key: mapping.name, repeat: { every }, payload: { mapping: mapping.name } });
      continue;
    }
    // Batches of even sizes: 45 mappings are three batches of 15, not two of 20 and one of 5.
    const batches = Math.ceil(group.length / BATCH_SIZE);
    const size = Math.ceil(group.length / batches);
    for (let start = 0, n = 0; start < group.length; start += size, n += 1) {
      const names = group.slice(start, start + size).map((mapping) => mapping.name);
      wanted.push({ key: batchKey(every, n), repeat: { every }, payload: { mappings: names } });
    }
  }
  return wanted;
}

/** The scheduler key of the `n`th batch of the mappings polled every `every` ms. */
export function batchKey(every: number, n: number): string {
  return `batch.${every}ms.${n}`;
}
