// What a refresh keeps of a new version's changes for the status: every list of the diff, each cut
// at CHANGES_KEPT operations, with the true counts, and the breaking changes described one by one.
// Pure; the whole diff stays in the refresh's log line.
import type { VersionChanges } from '../state/version-changes-schema.js';
import { type BreakingChange, describeBreakingChange } from './breaking-changes.js';
import type { OperationChanges } from './operation-changes.js';

/** Operations kept per list: Stripe's 454 changed through components fit; a 10,000-operation diff does not. */
export const CHANGES_KEPT = 500;

/** Components named per operation changed through them; the changelog line names fewer still. */
const COMPONENTS_KEPT = 3;

export function recordVersionChanges(
  changes: OperationChanges,
  breaking: readonly BreakingChange[],
  kept = CHANGES_KEPT,
): VersionChanges {
  return {
    added: changes.added.slice(0, kept),
    removed: changes.removed.slice(0, kept),
    changed: changes.changed.slice(0, kept),
    changedVia: changes.changedVia
      .slice(0, kept)
      .map(({ operation, components }) => ({ operation, components: components.slice(0, COMPONENTS_KEPT) })),
    breaking: breaking
      .slice(0, kept)
      .map((change) => ({ operation: change.operation, message: describeBreakingChange(change) })),
    counts: {
      added: changes.added.length,
      removed: changes.removed.length,
      changed: changes.changed.length,
      changedVia: changes.changedVia.length,
      breaking: breaking.length,
    },
  };
}
