// What a managed change request needs after a poll, as a pure function of what was read: an update
// when it is outdated and the policy updates always; a merge attempt when merging is enabled and
// the verdict allows it, or only its age stands in the way and the policy may update before merging.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { MergeVerdict } from './merge-verdict.js';

export interface UpkeepActions {
  update: boolean;
  merge: boolean;
}

export function planUpkeep(
  mapping: Pick<MappingConfig, 'changeRequest' | 'merge'>,
  outdated: boolean,
  verdict: MergeVerdict,
): UpkeepActions {
  const update = outdated && mapping.changeRequest.autoUpdate === 'always';
  const onlyOutdated =
    !verdict.mergeable &&
    verdict.reasons.length > 0 &&
    verdict.reasons.every((reason) => reason === 'outdated');
  const merge =
    mapping.merge.enabled &&
    (verdict.mergeable || (onlyOutdated && mapping.changeRequest.autoUpdate !== 'never'));
  return { update, merge };
}
