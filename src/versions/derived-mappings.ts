// A branches mapping at run time: one single-branch mapping per branch whose space lives, derived
// from the mapping and its versions state, so that every job of a single-branch mapping (git poll,
// import, change request upkeep, merge, link checks, space poll, export) works on it unchanged.
// Their names are `<mapping>@<branch>`: no configured name holds `@`, so they never clash.
import type { BranchMappingConfig } from '../config/branch-mapping-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { VersionState } from './version-state.js';

export const derivedName = (mapping: string, branch: string): string => `${mapping}@${branch}`;

/** The name of the branches mapping a derived mapping belongs to; undefined for a configured one. */
export function branchMappingOf(name: string): string | undefined {
  const at = name.indexOf('@');
  return at === -1 ? undefined : name.slice(0, at);
}

export function derivedMappings(mapping: BranchMappingConfig, state: VersionState): MappingConfig[] {
  return Object.entries(state.branches)
    .filter(([, entry]) => entry.archived !== true)
    .map(([branch, entry]) => ({
      name: derivedName(mapping.name, branch),
      space: entry.space,
      direction: mapping.direction,
      git: {
        repo: mapping.git.repo,
        ...(mapping.git.auth === undefined ? {} : { auth: mapping.git.auth }),
        branch,
        dir: mapping.git.dir,
        poll: mapping.git.poll,
      },
      changeRequest: mapping.changeRequest,
      merge: mapping.merge,
      links: mapping.links,
      export: mapping.export,
      import: mapping.import,
    }));
}

/**
 * Puts the derived mappings of `mapping` into `mappings` in place of those it had: the list every
 * job looks its mapping up in (config.mappings), changed in place because the HTTP server and the
 * producers hold that list. Returns those that came and went, and whether anything differs.
 */
export function replaceDerivedMappings(
  mappings: MappingConfig[],
  mapping: BranchMappingConfig,
  derived: readonly MappingConfig[],
): { added: MappingConfig[]; removed: MappingConfig[]; changed: boolean } {
  const before = mappings.filter((item) => branchMappingOf(item.name) === mapping.name);
  const names = new Set(before.map((item) => item.name));
  const wanted = new Set(derived.map((item) => item.name));
  const removed = before.filter((item) => !wanted.has(item.name));
  const added = derived.filter((item) => !names.has(item.name));
  const kept = mappings.filter((item) => branchMappingOf(item.name) !== mapping.name);
  const changed = JSON.stringify(before) !== JSON.stringify(derived);
  mappings.splice(0, mappings.length, ...kept, ...derived);
  return { added, removed, changed };
}
