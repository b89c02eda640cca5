// Resuming a paused mapping: the pause goes, and so does the last imported commit when it is no
// longer on the branch (the next poll then imports the current head instead of pausing again);
// the content identity stays, so an unchanged folder is still not imported twice.
import type { Queue } from 'bullmq';
import type { MappingState, MappingStateStore } from '../state/mapping-state.js';
import { pollNow } from './git-poll-schedulers.js';

export async function resumeMapping(
  store: MappingStateStore,
  queue: Queue,
  mapping: string,
  now: () => Date,
): Promise<MappingState> {
  const before = await store.get(mapping);
  await store.update(mapping, {
    paused: null,
    ...(before.paused?.reason === 'force-push' ? { lastImportedSha: null } : {}),
  });
  await pollNow(queue, mapping, `resume-${now().getTime()}`);
  return before;
}
