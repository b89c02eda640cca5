// The bookkeeping both mapping state stores share for tracked change requests: which origins track
// one, how an entry reads back (zod, for Redis), and which entries go when there are too many. The
// stores differ only in where the entries live (TrackedEntries).
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

/** Where a store keeps each mapping's entries: a map in memory, a hash in Redis. */
export interface TrackedEntries {
  /** The mapping's entries as stored, not yet read back. */
  entries(mapping: string): Promise<Iterable<[string, unknown]>>;
  /** Writes one entry and answers how many the mapping holds now. */
  put(mapping: string, id: string, entry: TrackedEntry): Promise<number>;
  remove(mapping: string, ids: readonly string[]): Promise<void>;
}

/** The tracked change requests of every mapping, kept in `entries` and capped per mapping. */
export class TrackedChangeRequests {
  readonly #entries: TrackedEntries;
  readonly #now: () => Date;

  constructor(entries: TrackedEntries, now: () => Date) {
    this.#entries = entries;
    this.#now = now;
  }

  /** The mapping's tracked change requests, settled ones included, newest first. */
  async list(mapping: string): Promise<TrackedChangeRequest[]> {
    return readTracked(await this.#entries.entries(mapping));
  }

  /** Tracks the change request an import or update origin names; other origins track none. */
  async trackOrigin(revision: string, origin: RevisionOrigin): Promise<void> {
    const tracked = trackedEntryOf(revision, origin, this.#now());
    if (tracked !== undefined) await this.#put(origin.mapping, tracked.id, tracked.entry);
  }

  /** A change request found again from the service: tracked with its commit, and no revision. */
  async track(mapping: string, id: string, sha: string | undefined): Promise<void> {
    await this.#put(mapping, id, { ...(sha === undefined ? {} : { sha }), at: this.#now().toISOString() });
  }

  async settle(mapping: string, id: string): Promise<void> {
    await this.#put(mapping, id, settledEntry(this.#now()));
  }

  async #put(mapping: string, id: string, entry: TrackedEntry): Promise<void> {
    // Past the cap only: one more read, then the oldest entries go.
    if ((await this.#entries.put(mapping, id, entry)) <= MAX_TRACKED_CHANGE_REQUESTS) return;
    const drop = trackedToDrop(await this.list(mapping));
    if (drop.length > 0) await this.#entries.remove(mapping, drop);
  }
}
