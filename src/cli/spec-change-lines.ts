// The changelog of each spec's last version under the specs table of `docsync status`: every
// operation the state keeps, by kind (breaking, added, removed, changed, changed through
// components), each kind with its true count. Pure.
import type { SpecStatusAnswer } from '../status/status-answer-schema.js';
import { changeSummary, notKept, versionChangeGroups } from '../status/version-change-groups.js';
import { NONE, note } from './status-lines.js';
import { type Paint, printable } from './text-table.js';

/** The table's cell: the counts, or the first changelog line of a record from before them. */
export function specChangesCell(spec: SpecStatusAnswer): string {
  const changes = spec.lastNewVersion?.changes;
  if (changes !== undefined) return changeSummary(versionChangeGroups(changes));
  const lines = spec.lastNewVersion?.changelog ?? [];
  const [first] = lines;
  if (first === undefined) return NONE;
  return lines.length > 1 ? `${first} (+${lines.length - 1} more)` : first;
}

/** `pets, version 2: 454 changed through components`, then each kind and its operations, indented. */
export function specChangeLines(spec: SpecStatusAnswer, paint: Paint): string[] {
  const last = spec.lastNewVersion;
  if (last?.changes === undefined) return [];
  const groups = versionChangeGroups(last.changes);
  if (groups.length === 0) return [];
  const version = last.version === undefined ? '' : `, version ${last.version}`;
  return [
    note(paint, 'bold', `${spec.slug}${version}: ${changeSummary(groups)}`),
    ...groups.flatMap((group) => {
      const more = notKept(group);
      return [
        `    ${paint(group.label === 'breaking' ? 'red' : 'dim', `${group.label} (${group.count}):`)}`,
        ...group.lines.map((line) => `      ${printable(line)}`),
        ...(more === undefined ? [] : [`      ${more}`]),
      ];
    }),
  ];
}
