// The schedulers of the change request polls: one per mapping, as every poll has, until many
// mappings poll at the same interval. A job costs Redis round trips and CPU of its own, about what
// listing one space's change requests costs, so from BATCHED_FROM mappings at one interval they are
// polled in batches of at most BATCH_SIZE (jobs/poll-change-requests.ts polls a batch's mappings a
// few at once): a cycle of 1,000 spaces is 20 jobs, not 1,000, still spread over the processes. A
// batch's scheduler is named by its first and last mapping (`<first>..<last>`: a mapping's name has
// no '.', so no mapping's scheduler is ever named so).
import type { MappingConfig } from '../config/mapping-schema.js';
import type { PollChangeRequestsPayload } from '../queue/kinds/poll-change-requests-kind.js';
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
    // Batches of even sizes: 60 mappings are two batches of 30, not one of 50 and one of 10.
    const batches = Math.ceil(group.length / BATCH_SIZE);
    const size = Math.ceil(group.length / batches);
    for (let start = 0; start < group.length; start += size) {
      const names = group.slice(start, start + size).map((mapping) => mapping.name);
      const key = names.length === 1 ? (names[0] as string) : `${names[0]}..${names.at(-1)}`;
      wanted.push({
        key,
        repeat: { every },
        payload: names.length === 1 ? { mapping: key } : { mappings: names },
      });
    }
  }
  return wanted;
}
