// The bookkeeping both mapping state stores share for tracked change requests: which origins track
// one, how an entry reads back (zod, for Redis), and which entries go when there are too many.
import { z } from 'zod';
import {
  MAX_TRACKED_CHANGE_REQUESTS,
  type RevisionOrigin,
  type TrackedChangeRequest,
} from './mapping-state.js';

/** One tracked change request as stored, without its id (the key it is stored under). */
export const trackedEntrySchema = z.object({
  revision: z.string().optional(),
  sha: z.string().optional(),
  at: z.string(),
  settled: z.boolean().optional(),
});

export type TrackedEntry = z.infer<typeof trackedEntrySchema>;

/** The entry an origin tracks: imports and updates put docsync's content in a change request. */
export function trackedEntryOf(
  revision: string,
  origin: RevisionOrigin,
  at: Date,
): { id: string; entry: TrackedEntry } | undefined {
  if (origin.changeRequest === undefined || origin.kind === 'merge') return undefined;
  return {
    id: origin.changeRequest,
    entry: { revision, ...(origin.sha === undefined ? {} : { sha: origin.sha }), at: at.toISOString() },
  };
}

export function settledEntry(at: Date): TrackedEntry {
  return { at: at.toISOString(), settled: true };
}

/** Stored entries as tracked change requests, newest first; an entry that does not read back is left out. */
export function readTracked(entries: Iterable<[string, unknown]>): TrackedChangeRequest[] {
  const tracked: TrackedChangeRequest[] = [];
  for (const [id, value] of entries) {
    const parsed = trackedEntrySchema.safeParse(value);
    if (parsed.success) tracked.push({ id, ...parsed.data });
  }
  return tracked.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || b.id.localeCompare(a.id));
}

/** The ids past the cap, oldest first out, so that a mapping that never exports does not grow them. */
export function trackedToDrop(tracked: readonly TrackedChangeRequest[]): string[] {
  return tracked.slice(MAX_TRACKED_CHANGE_REQUESTS).map((entry) => entry.id);
}
