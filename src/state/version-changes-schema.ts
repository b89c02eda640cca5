// The changes of a spec's new version as the state keeps them for /status, the page and
// `docsync status`: each list (added, removed, changed directly, changed through components,
// breaking) cut at a bound so that Redis never holds a 10,000-operation diff, with the true counts
// beside them. A record from before the counts and the last two lists reads too: its lists are whole.
import { z } from 'zod';

export const versionChangesSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** Operations whose own text changed. */
  changed: z.array(z.string()),
  /** Operations changed only through shared components, with the first of those components. */
  changedVia: z.array(z.object({ operation: z.string(), components: z.array(z.string()) })).optional(),
  /** What breaks clients, one line per change. */
  breaking: z.array(z.object({ operation: z.string(), message: z.string() })).optional(),
  /** How many of each there are, whether or not the lists hold them all. */
  counts: z
    .object({
      added: z.number().int().nonnegative(),
      removed: z.number().int().nonnegative(),
      changed: z.number().int().nonnegative(),
      changedVia: z.number().int().nonnegative(),
      breaking: z.number().int().nonnegative(),
    })
    .optional(),
});

export type VersionChanges = z.infer<typeof versionChangesSchema>;
export type ChangeCounts = NonNullable<VersionChanges['counts']>;

/** The true counts: recorded, or (an older record) the lengths of the lists, which were whole. */
export function changeCounts(changes: VersionChanges): ChangeCounts {
  return (
    changes.counts ?? {
      added: changes.added.length,
      removed: changes.removed.length,
      changed: changes.changed.length,
      changedVia: changes.changedVia?.length ?? 0,
      breaking: changes.breaking?.length ?? 0,
    }
  );
}
