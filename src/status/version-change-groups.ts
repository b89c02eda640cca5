// The changelog of a spec's last version as the status page and `docsync status` show it: one group
// per kind of change, breaking first, each with its true count and the lines kept of it. Pure.
import { changeCounts, type VersionChanges } from '../state/version-changes-schema.js';

export interface ChangeGroup {
  /** `changed through components`. */
  label: string;
  /** How many there are: `lines` may hold fewer, the state keeps a bounded list. */
  count: number;
  lines: string[];
}

/** The groups that have changes, breaking first, then added, removed, changed, changed through components. */
export function versionChangeGroups(changes: VersionChanges): ChangeGroup[] {
  const counts = changeCounts(changes);
  const groups: ChangeGroup[] = [
    {
      label: 'breaking',
      count: counts.breaking,
      lines: (changes.breaking ?? []).map((change) => `${change.operation}: ${change.message}`),
    },
    { label: 'added', count: counts.added, lines: changes.added },
    { label: 'removed', count: counts.removed, lines: changes.removed },
    { label: 'changed', count: counts.changed, lines: changes.changed },
    {
      label: 'changed through components',
      count: counts.changedVia,
      lines: (changes.changedVia ?? []).map(({ operation, components }) =>
        components.length === 0 ? operation : `${operation} (via ${components.join(', ')})`,
      ),
    },
  ];
  return groups.filter((group) => group.count > 0);
}

/** `2 added, 454 changed through components, 1 breaking`; `no operation changed` when none did. */
export function changeSummary(groups: readonly ChangeGroup[]): string {
  if (groups.length === 0) return 'no operation changed';
  return groups.map((group) => `${group.count} ${group.label}`).join(', ');
}

/** `… and 12 more, not kept`: what the bounded list leaves out, if anything. */
export function notKept(group: ChangeGroup): string | undefined {
  const more = group.count - group.lines.length;
  return more > 0 ? `… and ${more} more, not kept (the refresh's log line lists them all)` : undefined;
}
